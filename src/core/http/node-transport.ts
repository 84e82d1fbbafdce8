// The node:http(s) transport, for one request with no proxy: Node's HTTP stack
// is already loaded, so it spares importing undici (./select.ts, docs/performance.md).
import { Agent as HttpAgent, request as httpRequest, type ClientRequest } from 'node:http';
import { createRequire } from 'node:module';
import { runAttempt, type Transport, type TransportRequest, type TransportResponse } from './transport.js';

/**
 * node:https, and with it tls (~2 ms), is loaded for an https URL only, and
 * with require: an `import()` of a Node module builds its ES module facade,
 * which reads every export, and node:http's lazy WebSocket and EventSource
 * exports then load Node's own copy of undici (~8 MiB and ~15 ms on Node 26).
 */
const requireBuiltin = createRequire(import.meta.url);

/**
 * The pages of a list come one after another from one command: GET and HEAD
 * reuse one connection (a new one for each of 10,000 pages cost most of a long
 * list's time, and a TLS handshake each), idle for at most 4 s or less than the
 * server's announced keep-alive timeout, as undici's are. A write never goes on
 * a kept connection: a server closing an idle one just as a POST leaves would
 * make a create uncertain. Node unrefs an idle kept socket, so none holds the
 * process open.
 */
const KEPT = { keepAlive: true, timeout: 4_000 };
export function createNodeTransport(): Transport {
  const agents: { http?: HttpAgent; https?: HttpAgent } = {};
  const agentFor = (secure: boolean): HttpAgent => {
    if (secure) {
      const { Agent } = requireBuiltin('node:https') as typeof import('node:https');
      return (agents.https ??= new Agent(KEPT));
    }
    return (agents.http ??= new HttpAgent(KEPT));
  };
  return {
    send: (req) => send(req, agentFor),
    close: async () => {
      agents.http?.destroy();
      agents.https?.destroy();
    },
  };
}

function send(req: TransportRequest, agentFor: (secure: boolean) => HttpAgent): Promise<TransportResponse> {
  return runAttempt(req, (attempt) => {
    const url = new URL(req.url);
    const secure = url.protocol === 'https:';
    const body = req.body === undefined ? undefined : Buffer.from(req.body, 'utf8');
    const headers: Record<string, string> = { ...req.headers };
    if (body) headers['content-length'] = String(body.length);
    const kept = req.method === 'GET' || req.method === 'HEAD';
    if (!kept) headers.connection = 'close';
    const open = secure ? (requireBuiltin('node:https') as typeof import('node:https')).request : httpRequest;
    let request: ClientRequest;
    const start = (retried: boolean) => {
      request = open(url, { method: req.method, headers, agent: kept ? agentFor(secure) : false });
      const sent = request;
      let answered = false;
      // A kept connection the server closed while it sat idle fails as soon as it is reused: the GET
      // goes again at once on a new one, as Node's documentation advises (request.reusedSocket), rather
      // than waiting out a retry's backoff.
      sent.on('error', (error) =>
        sent.reusedSocket && !answered && !retried && !attempt.settled ? start(true) : attempt.fail(error),
      );
      // The connection (TCP, and TLS for https) is up: only then does the request leave. A kept
      // connection is up already.
      sent.once('socket', (socket) =>
        sent.reusedSocket ? attempt.connected() : socket.once(secure ? 'secureConnect' : 'connect', attempt.connected),
      );
      sent.on('response', (res) => {
        answered = true;
        attempt.head(res.statusCode ?? 0, res.headers);
        res.on('data', attempt.data);
        res.on('error', attempt.fail);
        const cut = () =>
          attempt.fail(Object.assign(new Error('the connection closed before the body ended'), { code: 'ECONNRESET' }));
        res.on('end', () => (res.complete ? attempt.end() : cut()));
        // Only a response closed before it was complete is cut (an Error and its stack for each of
        // 10,000 pages was a twentieth of a long list's time).
        res.on('close', () => res.complete || cut());
      });
      sent.end(body);
    };
    start(false);
    return (failure) => failure && request.destroy(failure);
  });
}
