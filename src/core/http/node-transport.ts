// The node:http(s) transport, for one request with no proxy: Node's HTTP stack
// is already loaded, so it spares importing undici (./select.ts, docs/performance.md).
import { request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { runAttempt, type Transport, type TransportRequest, type TransportResponse } from './transport.js';

/**
 * node:https, and with it tls (~2 ms), is loaded for an https URL only, and
 * with require: an `import()` of a Node module builds its ES module facade,
 * which reads every export, and node:http's lazy WebSocket and EventSource
 * exports then load Node's own copy of undici (~8 MiB and ~15 ms on Node 26).
 */
const requireBuiltin = createRequire(import.meta.url);

export function createNodeTransport(): Transport {
  return { send, close: async () => {} };
}

function send(req: TransportRequest): Promise<TransportResponse> {
  return runAttempt(req, (attempt) => {
    const url = new URL(req.url);
    const secure = url.protocol === 'https:';
    const body = req.body === undefined ? undefined : Buffer.from(req.body, 'utf8');
    const headers: Record<string, string> = { ...req.headers };
    if (body) headers['content-length'] = String(body.length);
    // One request per process: no keep-alive socket should hold the process open.
    headers.connection = 'close';
    const open = secure ? (requireBuiltin('node:https') as typeof import('node:https')).request : httpRequest;
    const request = open(url, { method: req.method, headers, agent: false });
    request.on('error', attempt.fail);
    // The connection (TCP, and TLS for https) is up: only then does the request leave.
    request.once('socket', (socket) => socket.once(secure ? 'secureConnect' : 'connect', attempt.connected));
    request.on('response', (res) => {
      attempt.head(res.statusCode ?? 0, res.headers);
      res.on('data', attempt.data);
      res.on('error', attempt.fail);
      const cut = () =>
        attempt.fail(Object.assign(new Error('the connection closed before the body ended'), { code: 'ECONNRESET' }));
      res.on('end', () => (res.complete ? attempt.end() : cut()));
      // Every response closes after it ends: only one closed before it was complete is cut (an Error and its
      // stack for each of 10,000 pages was a twentieth of a long list's time).
      res.on('close', () => res.complete || cut());
    });
    request.end(body);
    return (failure) => failure && request.destroy(failure);
  });
}
