// A POST or PATCH reuses a connection only when the server announced a
// keep-alive timeout longer than undici's 2 s margin. Where undici reads the
// header otherwise, its pool for them keeps no idle connection (1 ms).
import { describe, expect, it } from 'vitest';
import { mayReuseForUnsafe } from '../../src/core/http/undici-transport.js';

describe('mayReuseForUnsafe', () => {
  it.each([
    ['timeout=5', true],
    ['timeout=5, max=1000', true],
    ['max=100, timeout=75', true],
    ['timeout=3', true],
    // Parameter names are case-insensitive.
    ['Timeout=30', true],
    ['timeout = 30', false],
    ['idletimeout=30', false],
    ['idletimeout=1, timeout=30', true],
    ['timeout=2', false],
    ['timeout=0', false],
    ['max=100', false],
    ['timeout=', false],
    ['', false],
  ])('Keep-Alive: %s -> %s', (header, expected) => {
    expect(mayReuseForUnsafe(header)).toBe(expected);
  });

  it('no Keep-Alive header: a new connection', () => {
    expect(mayReuseForUnsafe(undefined)).toBe(false);
  });
});
