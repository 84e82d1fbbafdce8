// Resolves where to send requests and with which token.
// Precedence: flag > environment > stored profile > built-in default.
import { AuthError } from '../errors.js';
import { DEFAULT_BASE_URL, normalizeBaseUrl } from './base-url.js';

export const TOKEN_PREFIX = 'cpk_';

export interface Resolved<T> {
  value: T;
  source: string;
}

export function resolveBaseUrl(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): Resolved<string> {
  if (flag !== undefined) return { value: normalizeBaseUrl(flag, '--base-url'), source: '--base-url' };
  const fromEnv = env.CPK_BASE_URL;
  if (fromEnv) return { value: normalizeBaseUrl(fromEnv, 'CPK_BASE_URL'), source: 'CPK_BASE_URL' };
  return { value: DEFAULT_BASE_URL, source: 'default (local emulator)' };
}

export function resolveToken(env: Readonly<Record<string, string | undefined>>): Resolved<string> {
  const fromEnv = env.CPK_TOKEN?.trim();
  if (!fromEnv) {
    throw new AuthError('no token: set CPK_TOKEN or run `cpk auth login`');
  }
  checkTokenPrefix(fromEnv, 'CPK_TOKEN');
  return { value: fromEnv, source: 'CPK_TOKEN' };
}

/** A token without the service's prefix is never sent (interface, section 5). */
export function checkTokenPrefix(token: string, source: string): void {
  if (!token.startsWith(TOKEN_PREFIX)) {
    throw new AuthError(`the token from ${source} does not start with "${TOKEN_PREFIX}"; it was not sent`);
  }
}

/** `cpk_…abcd`: enough to tell tokens apart, never enough to use one. */
export function maskToken(token: string): string {
  return `${TOKEN_PREFIX}…${token.length > TOKEN_PREFIX.length + 8 ? token.slice(-4) : ''}`;
}
