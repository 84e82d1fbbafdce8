// The retry rule in numbers (src/core/http/retry.ts): full-jitter backoff
// that doubles from 250 ms up to 5 s, and a Retry-After that is
// delta-seconds or an HTTP date and nothing else.
import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  isIdempotent,
  isRetryableStatus,
  parseRetryAfter,
  RETRY_AFTER_MAX_MS,
} from '../../src/core/http/retry.js';

describe('backoffMs', () => {
  it('waits a random share of a ceiling that doubles from 250 ms and stops at 5 s', () => {
    const half = () => 0.5;
    expect([1, 2, 3, 4, 5, 6, 7, 10].map((attempt) => backoffMs(attempt, half))).toEqual([
      125, 250, 500, 1000, 2000, 2500, 2500, 2500,
    ]);
    expect(backoffMs(1, () => 0)).toBe(0);
    expect(backoffMs(3, () => 0.999)).toBe(999);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');

  it('takes delta-seconds and the three HTTP date forms', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 7 ', now)).toBe(7_000);
    expect(parseRetryAfter('Tue, 01 Jan 2030 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Tuesday, 01-Jan-30 00:00:20 GMT', now)).toBe(20_000);
    expect(parseRetryAfter('Tue Jan  1 00:00:30 2030', now)).toBe(30_000 + new Date(now).getTimezoneOffset() * 60_000);
    // A date in the past means no wait, not a negative one.
    expect(parseRetryAfter('Mon, 31 Dec 2029 23:00:00 GMT', now)).toBe(0);
  });

  it('ignores what only looks like a date: numbers first, one letter, fractions, words', () => {
    for (const value of ['06 Nov 2030 08:49:37 GMT', 'T 2030', 'a 2030-01-01', '1.5', '-5', 'soon', '', 'Mon, 99 Foo'])
      expect(parseRetryAfter(value, now), value).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(RETRY_AFTER_MAX_MS).toBe(30_000);
  });
});

describe('what is retried', () => {
  it('only idempotent methods, in any case', () => {
    for (const method of ['GET', 'get', 'HEAD', 'OPTIONS', 'DELETE', 'PUT'])
      expect(isIdempotent(method), method).toBe(true);
    for (const method of ['POST', 'PATCH', 'post']) expect(isIdempotent(method), method).toBe(false);
  });

  it('only the statuses that say "try again"', () => {
    for (const status of [408, 429, 500, 502, 503, 504]) expect(isRetryableStatus(status), String(status)).toBe(true);
    for (const status of [200, 400, 401, 403, 404, 409, 422, 501, 505])
      expect(isRetryableStatus(status), String(status)).toBe(false);
  });
});
