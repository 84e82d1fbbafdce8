// `--concurrency N`: requests in flight at once (bulk commands, plan, apply, list --refresh).
import { UsageError } from '../core/errors.js';

export const DEFAULT_CONCURRENCY = 8;
export const MAX_CONCURRENCY = 64;

export function parseConcurrency(value: unknown): number {
  if (value === undefined) return DEFAULT_CONCURRENCY;
  const text = String(value).trim();
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > MAX_CONCURRENCY) {
    throw new UsageError(
      `invalid --concurrency "${String(value)}": expected a whole number from 1 to ${MAX_CONCURRENCY}`,
    );
  }
  return n;
}
