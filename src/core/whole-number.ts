// Whole-number flags and variables (--limit, --concurrency, --retries, CPK_MAX_ATTEMPTS): digits only, within bounds.
import { UsageError } from './errors.js';

/** `value` as a whole number from `min` to `max`, else the usage error `invalid NAME "VALUE": expected EXPECTED`. */
export function parseWholeNumber(value: unknown, name: string, [min, max]: [number, number], expected: string): number {
  const text = String(value).trim();
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > max)
    throw new UsageError(`invalid ${name} "${String(value)}": expected ${expected}`);
  return n;
}
