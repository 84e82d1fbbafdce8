// The undici transport: one keep-alive Agent per process (bulk commands share
// its pool), or EnvHttpProxyAgent when proxy variables are set, which honours
// HTTP_PROXY, HTTPS_PROXY and NO_PROXY the way curl does.
import { Agent, EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import { classify, TransportError, type Transport, type TransportRequest, type TransportResponse } from './transport.js';

const PROXY_VARS = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];

export function createUndiciTransport(env: Readonly<Record<string, string | undefined>>): Transport {
  const useProxy = PROXY_VARS.some((name) => env[name]);
  const dispatcher: Dispatcher = useProxy ? new EnvHttpProxyAgent() : new Agent({ keepAliveTimeout: 4_000 });

  async function send(req: TransportRequest): Promise<TransportResponse> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, req.timeoutMs);
    const onAbort = () => controller.abort();
    req.signal?.addEventListener('abort', onAbort, { once: true });
    const fail = (error: unknown, phase: 'request' | 'body'): TransportError => {
      if (timedOut) return new TransportError('timeout', `no complete answer within ${req.timeoutMs / 1000}s`, 'TIMEOUT', { cause: error });
      if (req.signal?.aborted) return new TransportError('aborted', 'aborted', 'ABORTED', { cause: error });
      return classify(error, phase);
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
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of res.body) {
          size += (chunk as Buffer).length;
          if (size > req.maxBodyBytes) {
            res.body.destroy();
            throw new TransportError('too-large', `response body larger than ${req.maxBodyBytes} bytes`, 'TOO_LARGE');
          }
          chunks.push(chunk as Buffer);
        }
      } catch (error) {
        throw fail(error, 'body');
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(res.headers)) {
        if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      }
      return { status: res.statusCode, headers, body: Buffer.concat(chunks) };
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
    }
  }

  return {
    send,
    close: () => dispatcher.close(),
  };
}
