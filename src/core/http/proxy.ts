// The proxy variables as curl and undici read them (HTTP_PROXY, HTTPS_PROXY,
// NO_PROXY, lower case first), taken from the IO's env rather than
// process.env: which proxy, if any, a request to a URL goes through.
import { UsageError } from '../errors.js';
import type { Env } from '../paths.js';

export type ProxySettings = { httpProxy: string; httpsProxy: string; noProxy: string };
/**
 * Empty strings, not undefined, for what is unset: undici would otherwise fall
 * back to process.env. Without HTTPS_PROXY, undici sends https:// requests
 * through HTTP_PROXY too.
 */
export function proxySettings(env: Env): ProxySettings | undefined {
  const pick = (name: string) => env[name.toLowerCase()] || env[name] || '';
  const httpProxy = pick('HTTP_PROXY');
  const httpsProxy = pick('HTTPS_PROXY');
  if (!httpProxy && !httpsProxy) return undefined;
  // Proxies are spoken to in HTTP: an http:// or https:// URL. Any other
  // scheme (socks5://, socks://, a bare host:port) is refused before anything
  // is sent: undici's SOCKS support is experimental (Node prints a warning for
  // it) and is not bounded by --timeout, so a SOCKS proxy that never answered
  // kept the process alive after its error line.
  for (const [name, value] of [
    ['HTTPS_PROXY', httpsProxy],
    ['HTTP_PROXY', httpProxy],
  ] as const) {
    const scheme = value && URL.canParse(value) ? new URL(value).protocol : undefined;
    if (!value || scheme === 'http:' || scheme === 'https:') continue;
    throw new UsageError(
      `${name} ${scheme ? `uses ${scheme}//` : 'is not a URL'}: cpk supports http:// and https:// proxies only`,
      { hint: `set ${name} to http://HOST:PORT (or https://), or unset it` },
    );
  }
  // `||`: an empty no_proxy= does not hide NO_PROXY, as curl reads them.
  return { httpProxy, httpsProxy, noProxy: env.no_proxy || env.NO_PROXY || '' };
}

/**
 * Whether a request to `url` goes through a proxy: a variable for its scheme
 * (HTTP_PROXY also carries https:// without HTTPS_PROXY) and no NO_PROXY entry
 * matching its host (and port when the entry names one), as undici matches them.
 */
export function proxiedFor(env: Env, url: string): boolean {
  const settings = proxySettings(env);
  if (!settings) return false;
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  if (!(secure ? settings.httpsProxy || settings.httpProxy : settings.httpProxy)) return false;
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = Number(target.port || (secure ? 443 : 80));
  for (const raw of settings.noProxy.split(/[,\s]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return false;
    const match = /^(.*?)(?::(\d+))?$/.exec(entry)!;
    const name = match[1]!.replace(/^\*?\./, '').replace(/^\[|\]$/g, '');
    if (match[2] && Number(match[2]) !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return false;
  }
  return true;
}
