// The retry policy in numbers (docs/reliability-and-security.md, "Reliability").
// Only idempotent methods are retried after a request was sent.

/** --timeout: each attempt's limit, in seconds. */
export const DEFAULT_TIMEOUT_SECONDS = 30;
/** One day: longer has no use, and Node timers cannot go past about 24.8 days. */
export const MAX_TIMEOUT_SECONDS = 86_400;

export const DEFAULT_ATTEMPTS = 3;
/** The most `--retries` accepts: 10 retries, 11 attempts in all. */
export const MAX_RETRIES = 10;
export const BACKOFF_BASE_MS = 250;
export const BACKOFF_CAP_MS = 5_000;
export const RETRY_AFTER_MAX_MS = 30_000;

const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'DELETE', 'PUT']);

export function isIdempotent(method: string): boolean {
  return IDEMPOTENT.has(method.toUpperCase());
}

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUS.has(status);
}

/** Full jitter: a random wait between 0 and min(cap, base * 2^(attempt-1)). */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling);
}

/** Retry-After as milliseconds from now: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Only an HTTP date (RFC 9110: IMF-fixdate or the obsolete forms) counts;
  // Date.parse alone would also take "1.5" or "tomorrow" as dates.
  if (!/^[A-Za-z]{3}/.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
