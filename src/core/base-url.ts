import { UsageError } from './errors.js';

/** Where cpk points when nothing is configured: `cpk emulator`'s default address. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010/v1';

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host === '::1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Validates and normalizes a base URL: https, or http for loopback hosts only
 * (a token must never cross a network in clear text); `/v1` appended when the
 * path is empty; no trailing slash, query, fragment or credentials.
 */
export function normalizeBaseUrl(input: string, source = '--base-url'): string {
  if (!URL.canParse(input.trim()))
    throw new UsageError(`invalid base URL "${input}" (from ${source}): expected https://host[/v1]`);
  const url = new URL(input.trim());
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`invalid base URL "${input}" (from ${source}): use an https:// URL`);
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    throw new UsageError(
      `refusing plain http:// for ${url.hostname} (from ${source}): use https://, http is allowed only for loopback hosts`,
    );
  }
  if (url.username || url.password) {
    throw new UsageError(`base URL (from ${source}) must not contain credentials: use CPK_TOKEN or cpk auth login`);
  }
  if (url.search || url.hash) throw new UsageError(`base URL (from ${source}) must not contain a query or fragment`);
  let path = url.pathname.replace(/\/+$/, '');
  if (path === '') path = '/v1';
  return `${url.origin}${path}`;
}
