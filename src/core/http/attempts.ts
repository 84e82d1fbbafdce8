// How many attempts a request gets (docs/reliability-and-security.md, "Reliability"):
// `--retries N` counts retries after the first (N + 1 attempts), CPK_MAX_ATTEMPTS
// the attempts in all. A bad value of either is a usage error, before anything is sent.
import { UsageError } from '../errors.js';
import { DEFAULT_ATTEMPTS, MAX_RETRIES } from './retry.js';
import type { Env } from '../paths.js';

function wholeNumber(text: string, min: number, max: number): number | undefined {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return undefined;
  const n = Number(trimmed);
  return n >= min && n <= max ? n : undefined;
}

/** `--retries N`: N from 0 to MAX_RETRIES. */
export function parseRetriesFlag(value: unknown): number {
  const n = typeof value === 'string' ? wholeNumber(value, 0, MAX_RETRIES) : undefined;
  if (n === undefined) {
    throw new UsageError(
      `invalid --retries "${String(value)}": expected a whole number of retries from 0 to ${MAX_RETRIES}`,
    );
  }
  return n;
}

/** Attempts in all: from `--retries` when given, else CPK_MAX_ATTEMPTS, else the default (3). */
export function resolveAttempts(retries: number | undefined, env: Env): number {
  if (retries !== undefined) return retries + 1;
  const fromEnv = env.CPK_MAX_ATTEMPTS;
  // Empty counts as unset, as for every other cpk variable.
  if (fromEnv === undefined || fromEnv.trim() === '') return DEFAULT_ATTEMPTS;
  const n = wholeNumber(fromEnv, 1, MAX_RETRIES + 1);
  if (n === undefined) {
    throw new UsageError(
      `invalid CPK_MAX_ATTEMPTS "${fromEnv}": expected a whole number of attempts from 1 to ${MAX_RETRIES + 1}`,
    );
  }
  return n;
}
