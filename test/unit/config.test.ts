import { describe, expect, it } from 'vitest';
import { normalizeBaseUrl } from '../../src/core/base-url.js';
import { resolveBaseUrl } from '../../src/config/resolve.js';
import { checkTokenPrefix, maskToken } from '../../src/core/token.js';
import { AuthError, UsageError } from '../../src/core/errors.js';
import { backoffMs, parseRetryAfter } from '../../src/core/http/retry.js';

describe('normalizeBaseUrl', () => {
  it.each([
    ['https://api.example.com', 'https://api.example.com/v1'],
    ['https://api.example.com/', 'https://api.example.com/v1'],
    ['https://api.example.com/v1/', 'https://api.example.com/v1'],
    ['https://api.example.com/api/v1', 'https://api.example.com/api/v1'],
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010/v1'],
    ['http://127.8.9.10:1/v1', 'http://127.8.9.10:1/v1'],
    ['http://localhost:4010', 'http://localhost:4010/v1'],
    ['http://[::1]:4010', 'http://[::1]:4010/v1'],
  ])('%s -> %s', (input, output) => {
    expect(normalizeBaseUrl(input)).toBe(output);
  });

  it.each([
    'http://example.com',
    'http://10.0.0.1',
    'http://127.0.0.1.example.com',
    'ftp://x',
    'not a url',
    'https://u:p@h.example',
    'https://h.example/?a=1',
  ])('refuses %s', (input) => {
    expect(() => normalizeBaseUrl(input)).toThrow(UsageError);
  });
});

describe('resolution', () => {
  it('--base-url beats CPK_BASE_URL beats the default', () => {
    expect(resolveBaseUrl('https://a.example', { CPK_BASE_URL: 'https://b.example' }).value).toBe(
      'https://a.example/v1',
    );
    expect(resolveBaseUrl(undefined, { CPK_BASE_URL: 'https://b.example' }).value).toBe('https://b.example/v1');
    expect(resolveBaseUrl(undefined, {}).value).toBe('http://127.0.0.1:4010/v1');
  });

  it('needs a cpk_ token', () => {
    expect(() => checkTokenPrefix('ghp_x', 'CPK_TOKEN')).toThrow(AuthError);
    expect(() => checkTokenPrefix('cpk_abc', 'CPK_TOKEN')).not.toThrow();
  });

  it('masks tokens', () => {
    expect(maskToken('cpk_1234567890abcd')).toBe('cpk_…abcd');
    expect(maskToken('cpk_short')).toBe('cpk_…');
  });
});

describe('retry policy', () => {
  it('backs off with full jitter, capped at 5 s', () => {
    expect(backoffMs(1, () => 0.999)).toBe(249);
    expect(backoffMs(2, () => 0.5)).toBe(250);
    expect(backoffMs(10, () => 0.999)).toBe(4995);
    expect(backoffMs(3, () => 0)).toBe(0);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('garbage')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});
