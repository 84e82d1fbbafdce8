// `--concurrency N`: requests in flight at once (bulk commands, plan, apply, list --refresh).
import { parseWholeNumber } from '../core/whole-number.js';

export const DEFAULT_CONCURRENCY = 8;
export const MAX_CONCURRENCY = 64;

export function parseConcurrency(value: unknown): number {
  if (value === undefined) return DEFAULT_CONCURRENCY;
  const expected = `a whole number from 1 to ${MAX_CONCURRENCY}`;
  return parseWholeNumber(value, '--concurrency', [1, MAX_CONCURRENCY], expected);
}
