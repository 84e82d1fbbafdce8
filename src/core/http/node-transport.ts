// The node:http(s) transport, for the common case of one request with no
// proxy: Node's own HTTP stack is already loaded, so a single `cpk monitors get`
// does not pay for importing undici and its WebAssembly parser (docs/performance.md). Bulk commands and proxies use the undici transport; both sit
// under src/core/http/client.ts, which owns retries, timeouts, redaction and errors.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { setOwn } from '../json.js';
import {
  attemptFailure,
  TransportError,
  type PartialResponse,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from './transport.js';

/** node:https, and with it tls (~2 ms), is loaded for an https URL only. */
let https: typeof import('node:https') | undefined;
function httpsRequest(): typeof import('node:https').request {
  https ??= createRequire(import.meta.url)('node:https') as typeof import('node:https');
  return https.request;
}

export function createNodeTransport(): Transport {
  return { send, close: async () => {} };
}

function send(req: TransportRequest): Promise<TransportResponse> {
  return new Promise<TransportResponse>((resolve, reject) => {
    const url = new URL(req.url);
    const requestFn = url.protocol === 'https:' ? httpsRequest() : httpRequest;
    let partial: PartialResponse | undefined;
    let settled = false;
    let timedOut = false;
    let phase: 'request' | 'body' = 'request';
    // The connection (TCP, and TLS for https) is up: only then does the request leave.
    let established = false;

    const finish = (error: unknown, response?: TransportResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
      if (response) return resolve(response);
      reject(
        attemptFailure(error, phase, {
          aborted: req.signal?.aborted === true,
          timedOut,
          timeoutMs: req.timeoutMs,
          partial,
          connected: established,
        }),
      );
    };

    const body = req.body === undefined ? undefined : Buffer.from(req.body, 'utf8');
    const headers: Record<string, string> = { ...req.headers };
    if (body) headers['content-length'] = String(body.length);
    // One request per process: no keep-alive socket should hold the process open.
    headers.connection = 'close';
    const clientRequest = requestFn(url, { method: req.method, headers, agent: false });
    // Before anything can destroy the request: a signal aborted before the
    // send destroys it at once, and an 'error' with no listener would throw.
    clientRequest.on('error', (error) => finish(error));
    clientRequest.once('socket', (socket) => {
      socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => (established = true));
    });

    const abort = (reason: Error) => {
      clientRequest.destroy(reason);
      finish(reason);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      abort(new Error('timeout'));
    }, req.timeoutMs);
    const onAbort = () => abort(new Error('aborted'));
    if (req.signal?.aborted) return onAbort();
    req.signal?.addEventListener('abort', onAbort, { once: true });

    clientRequest.on('response', (res: IncomingMessage) => {
      phase = 'body';
      const responseHeaders: Record<string, string> = {};
      for (const [name, value] of Object.entries(res.headers)) {
        // defineProperty: a header named "__proto__" is a header, not a prototype.
        if (value !== undefined)
          setOwn(responseHeaders, name.toLowerCase(), Array.isArray(value) ? value.join(', ') : value);
      }
      const status = res.statusCode ?? 0;
      partial = { status, headers: responseHeaders, receivedBytes: 0 };
      const declared = Number(responseHeaders['content-length']);
      if (Number.isFinite(declared) && declared > req.maxBodyBytes) {
        // finish first: destroying the response emits 'aborted', which would
        // make an over-cap body look cut short (and be fetched again).
        finish(new TransportError('too-large', `the response declares ${declared} bytes`, 'TOO_LARGE'));
        return void res.destroy();
      }
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => {
        partial!.receivedBytes += chunk.length;
        if (partial!.receivedBytes > req.maxBodyBytes) {
          finish(
            new TransportError('too-large', `the response body is larger than ${req.maxBodyBytes} bytes`, 'TOO_LARGE'),
          );
          return void res.destroy();
        }
        chunks.push(chunk);
      });
      res.on('error', (error) => finish(error));
      res.on('aborted', () =>
        finish(Object.assign(new Error('the connection closed before the body ended'), { code: 'ECONNRESET' })),
      );
      res.on('end', () => {
        if (!res.complete)
          return finish(
            Object.assign(new Error('the connection closed before the body ended'), { code: 'ECONNRESET' }),
          );
        finish(undefined, { status, headers: responseHeaders, body: Buffer.concat(chunks) });
      });
    });
    clientRequest.end(body);
  });
}
