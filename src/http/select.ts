// Which transport carries a command's requests (README, "Performance"):
// - a proxy is set: undici's EnvHttpProxyAgent (HTTP_PROXY/HTTPS_PROXY/NO_PROXY);
// - several requests at once (bulk ids, --from, plan/apply): undici's
//   keep-alive pool;
// - otherwise one request: node:http(s), already in memory, so a single
//   command does not pay ~40 ms and ~10 MiB for importing undici.
// CPK_TRANSPORT=undici|node forces one (the test suite runs on both).
// Light on purpose: it is imported on every request's path.
import { UsageError } from '../errors.js';
import type { Transport } from './transport.js';

export type Env = Readonly<Record<string, string | undefined>>;
export type TransportKind = 'node' | 'undici';

/**
 * Proxy settings as undici reads them (lower case first), taken from the IO's
 * env rather than process.env. Empty strings, not undefined, for what is unset:
 * undici would otherwise fall back to process.env. Without HTTPS_PROXY, undici
 * sends https:// requests through HTTP_PROXY too.
 */
export function proxySettings(env: Env): { httpProxy: string; httpsProxy: string; noProxy: string } | undefined {
  const pick = (name: string) => env[name.toLowerCase()] || env[name] || '';
  const httpProxy = pick('HTTP_PROXY');
  const httpsProxy = pick('HTTPS_PROXY');
  if (!httpProxy && !httpsProxy) return undefined;
  // `||`: an empty no_proxy= does not hide NO_PROXY (issue 12 item 15).
  return { httpProxy, httpsProxy, noProxy: env.no_proxy || env.NO_PROXY || '' };
}

export function chooseTransport(env: Env, many: boolean): TransportKind {
  if (proxySettings(env)) return 'undici';
  const forced = env.CPK_TRANSPORT;
  if (forced) {
    if (forced !== 'node' && forced !== 'undici')
      throw new UsageError(`invalid CPK_TRANSPORT "${forced}": expected node or undici`);
    return forced;
  }
  return many ? 'undici' : 'node';
}

export async function createTransport(env: Env, many: boolean): Promise<Transport> {
  if (chooseTransport(env, many) === 'node') return (await import('./node-transport.js')).createNodeTransport();
  return (await import('./undici-transport.js')).createUndiciTransport(env);
}
