// Which transport carries a command's requests (docs/performance.md): undici
// when a proxy applies (EnvHttpProxyAgent) or for many requests at once (its
// keep-alive pool); else node:http(s), already in memory, so a single command
// does not pay ~40 ms and ~10 MiB for importing undici. CPK_TRANSPORT=undici|node
// forces one (the test suite runs on both). Light on purpose: it is imported on
// every request's path.
import { UsageError } from '../errors.js';
import type { Transport } from './transport.js';
import { proxiedFor, proxySettings } from './proxy.js';
import type { Env } from '../paths.js';

export type TransportKind = 'node' | 'undici';

export function chooseTransport(env: Env, many: boolean, url: string): TransportKind {
  if (proxiedFor(env, url)) return 'undici';
  const forced = env.CPK_TRANSPORT;
  if (forced) {
    if (forced !== 'node' && forced !== 'undici')
      throw new UsageError(`invalid CPK_TRANSPORT "${forced}": expected node or undici`);
    return forced;
  }
  return many ? 'undici' : 'node';
}

export async function createTransport(env: Env, many: boolean, url: string, timeoutMs: number): Promise<Transport> {
  if (chooseTransport(env, many, url) === 'node') return (await import('./node-transport.js')).createNodeTransport();
  // Lazy proxies: a base URL that no proxy applies to (NO_PROXY, or no
  // variable for its scheme) is served as without a proxy, so it loads
  // neither undici's proxy agent nor a proxy's connection.
  const proxy = proxiedFor(env, url) ? proxySettings(env) : undefined;
  return (await import('./undici-transport.js')).createUndiciTransport(proxy, timeoutMs);
}
