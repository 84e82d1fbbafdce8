// How many attempts a request gets (docs/reliability-and-security.md, "Reliability"):
// `--retries N` counts retries after the first (N + 1 attempts), CPK_MAX_ATTEMPTS
// the attempts in all. A bad value of either is a usage error, before anything is sent.
import { parseWholeNumber } from '../whole-number.js';
import { DEFAULT_ATTEMPTS, MAX_RETRIES } from './retry.js';
import type { Env } from '../paths.js';

/** `--retries N`: N from 0 to MAX_RETRIES. */
export function parseRetriesFlag(value: unknown): number {
  return parseWholeNumber(value, '--retries', [0, MAX_RETRIES], `a whole number of retries from 0 to ${MAX_RETRIES}`);
}

/** Attempts in all: from `--retries` when given, else CPK_MAX_ATTEMPTS, else the default (3). */
export function resolveAttempts(retries: number | undefined, env: Env): number {
  if (retries !== undefined) return retries + 1;
  const fromEnv = env.CPK_MAX_ATTEMPTS;
  // Empty counts as unset, as for every other cpk variable.
  if (fromEnv === undefined || fromEnv.trim() === '') return DEFAULT_ATTEMPTS;
  const most = MAX_RETRIES + 1;
  return parseWholeNumber(fromEnv, 'CPK_MAX_ATTEMPTS', [1, most], `a whole number of attempts from 1 to ${most}`);
}
