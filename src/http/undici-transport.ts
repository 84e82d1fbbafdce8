// The undici transport: one keep-alive Agent per process (bulk commands share
// its pool), or EnvHttpProxyAgent when proxy variables are set, which honours
// HTTP_PROXY, HTTPS_PROXY and NO_PROXY (README, "Proxies and private CAs").
// One attempt is bounded as a whole by one timer: connect, headers and every
// byte of the body, so a server that stalls mid-body cannot stretch it.
import { Agent, EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import { setOwn } from '../parse/fields.js';
import { proxySettings, type Env } from './select.js';
import { classify, TransportError, type PartialResponse, type Transport, type TransportRequest, type TransportResponse } from './transport.js';

/** A proxy URL fit for a message: credentials dropped. */
function showProxy(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return 'a proxy URL that does not parse';
  }
}

export function createUndiciTransport(env: Env): Transport {
  const proxy = proxySettings(env);
  const dispatcher: Dispatcher = proxy
    ? new EnvHttpProxyAgent({ ...proxy, keepAliveTimeout: 4_000 })
    : new Agent({ keepAliveTimeout: 4_000 });
  const proxyText = proxy
    ? [proxy.httpsProxy && `HTTPS_PROXY=${showProxy(proxy.httpsProxy)}`, proxy.httpProxy && `HTTP_PROXY=${showProxy(proxy.httpProxy)}`]
        .filter(Boolean)
        .join(', ')
    : undefined;

  async function send(req: TransportRequest): Promise<TransportResponse> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, req.timeoutMs);
    const onAbort = () => controller.abort();
    req.signal?.addEventListener('abort', onAbort, { once: true });
    let partial: PartialResponse | undefined;
    const fail = (error: unknown, phase: 'request' | 'body'): TransportError => {
      let failure: TransportError;
      if (req.signal?.aborted) failure = new TransportError('aborted', 'aborted', 'ABORTED', { cause: error });
      else if (timedOut) failure = new TransportError('timeout', `no complete answer within ${req.timeoutMs / 1000}s`, 'TIMEOUT', { cause: error });
      else failure = classify(error, phase);
      failure.response ??= partial;
      return failure;
    };
    try {
      let res: Dispatcher.ResponseData;
      try {
        res = await request(req.url, {
          method: req.method as Dispatcher.HttpMethod,
          headers: req.headers,
          body: req.body,
          signal: controller.signal,
          dispatcher,
          headersTimeout: req.timeoutMs,
          bodyTimeout: req.timeoutMs,
        });
      } catch (error) {
        throw fail(error, 'request');
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(res.headers)) {
        // defineProperty: a header named "__proto__" is a header, not a prototype.
        if (value !== undefined) setOwn(headers, name.toLowerCase(), Array.isArray(value) ? value.join(', ') : value);
      }
      partial = { status: res.statusCode, headers, receivedBytes: 0 };
      const chunks: Buffer[] = [];
      try {
        const declared = Number(headers['content-length']);
        if (Number.isFinite(declared) && declared > req.maxBodyBytes) {
          throw new TransportError('too-large', `the response declares ${declared} bytes`, 'TOO_LARGE');
        }
        for await (const chunk of res.body) {
          partial.receivedBytes += (chunk as Buffer).length;
          if (partial.receivedBytes > req.maxBodyBytes) {
            throw new TransportError('too-large', `the response body is larger than ${req.maxBodyBytes} bytes`, 'TOO_LARGE');
          }
          chunks.push(chunk as Buffer);
        }
      } catch (error) {
        res.body.destroy();
        throw fail(error, 'body');
      }
      return { status: res.statusCode, headers, body: Buffer.concat(chunks) };
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
    }
  }

  return {
    send,
    // Every request has ended by the time cpk closes (each is awaited), so
    // destroy only drops idle keep-alive sockets; it never waits on a server.
    close: () => dispatcher.destroy(),
    proxy: proxyText,
  };
}
