import { UsageError } from '../errors.js';

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/**
 * Parses `--interval`: whole seconds (`60`) or a duration (`90s`, `5m`, `1h`,
 * `1h30m`). Returns whole seconds. Bounds are the server's business, not ours.
 */
export function parseDuration(input: string, flag = '--interval'): number {
  const text = input.trim();
  if (/^\d+$/.test(text)) return checkSafe(Number(text), input, flag);
  const parts = text.match(/^(?:\d+[dhms])+$/) ? text.match(/\d+[dhms]/g) : null;
  if (!parts) {
    throw new UsageError(`invalid ${flag} "${input}": use seconds (60) or a duration such as 90s, 5m or 1h`);
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
  if (!Number.isSafeInteger(n)) throw new UsageError(`invalid ${flag} "${input}": too large`);
  return n;
}
