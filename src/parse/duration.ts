import { UsageError } from '../core/errors.js';

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

export interface DurationOptions {
  /** Plain seconds may have a fraction (`2.5`): the request timeouts. */
  fractions?: boolean;
  /** What the message says is expected of input that is no duration at all. */
  expected?: string;
}

/**
 * The one parser of durations, flags' and a manifest's: seconds (`60`) or `90s`, `5m`, `1h`, `1h30m`
 * (each unit at most once). Returns seconds, whole unless `fractions`. Bounds are the caller's business.
 */
export function parseDuration(input: string, flag = '--interval', options: DurationOptions = {}): number {
  const text = input.trim();
  const plain = options.fractions ? /^(?:\d+(?:\.\d+)?|\.\d+)$/ : /^\d+$/;
  if (plain.test(text)) return checkSafe(Number(text), input, flag);
  const parts = text.match(/^(?:\d+[dhms])+$/) ? text.match(/\d+[dhms]/g) : null;
  if (!parts) {
    throw new UsageError(
      `invalid ${flag} "${input}": ${options.expected ?? 'use seconds (60) or a duration such as 90s, 5m or 1h'}`,
    );
  }
  let total = 0;
  const seen = new Set<string>();
  for (const part of parts) {
    const unit = part.slice(-1);
    if (seen.has(unit)) throw new UsageError(`invalid ${flag} "${input}": unit "${unit}" given twice`);
    seen.add(unit);
    total += Number(part.slice(0, -1)) * (UNIT_SECONDS[unit] ?? 0);
  }
  return checkSafe(total, input, flag);
}

function checkSafe(n: number, input: string, flag: string): number {
  if (!(n <= Number.MAX_SAFE_INTEGER)) throw new UsageError(`invalid ${flag} "${input}": too large`);
  return n;
}
