// Issue 12 item 18: a POST or PATCH reuses a connection only when the server
// announced a keep-alive timeout undici can honour (more than its 2 s margin).
import { describe, expect, it } from 'vitest';
import { mayReuseForUnsafe } from '../../src/http/undici-transport.js';

describe('mayReuseForUnsafe', () => {
  it.each([
    ['timeout=5', true],
    ['timeout=5, max=1000', true],
    ['max=100, timeout=75', true],
    ['timeout=3', true],
    ['Timeout=30', false],
    ['timeout = 30', false],
    ['idletimeout=30', false],
    ['idletimeout=1, timeout=30', false],
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
