// The undici transport: one keep-alive Agent per process (bulk commands share
// its pool), or EnvHttpProxyAgent when proxy variables are set, which honours
// HTTP_PROXY, HTTPS_PROXY and NO_PROXY (README, "Proxies and private CAs").
// One attempt is bounded as a whole by one timer: connect, headers and every
// byte of the body, so a server that stalls mid-body cannot stretch it.
import { subscribe } from 'node:diagnostics_channel';
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { Duplex } from 'node:stream';
import type { buildConnector, Dispatcher, EnvHttpProxyAgent } from 'undici';
import { setOwn } from '../parse/fields.js';
import { isIdempotent } from './retry.js';
import { proxySettings, type Env } from './select.js';
import {
  attemptFailure,
  TransportError,
  unsentFailure,
  unsentTimeout,
  type PartialResponse,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from './transport.js';

/** A proxy URL fit for a message: credentials dropped. */
function showProxy(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return 'a proxy URL that does not parse';
  }
}

type PoolOptions = {
  keepAliveTimeout: number;
  connect: { timeout: number } | buildConnector.connector;
  pipelining?: number;
};
type RequestFn = (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
interface UndiciParts {
  /** Agent, or EnvHttpProxyAgent when proxy settings are given: for requests that may be repeated. */
  dispatcher: Dispatcher;
  /**
   * For POST and PATCH (mayReuseForUnsafe), made at the first: `kept` reuses
   * connections an origin promised to keep; `fresh` opens one per request
   * (`Connection: close`); `once()` is a dispatcher for one request whose
   * connection is never reused, to learn whether an origin announces a
   * timeout (the answer to `Connection: close` never does).
   */
  unsafe: () => { kept: Dispatcher; fresh: Dispatcher; once: () => Dispatcher };
  request: RequestFn;
}

/**
 * Issue 12 item 18: whether a POST or PATCH may reuse an idle connection.
 *
 * A server that closes idle keep-alive connections without saying when (no
 * `Keep-Alive: timeout`) races a client that reuses one: a request written an
 * instant after the server closed is never read, and the client sees the same
 * "other side closed" (undici's UND_ERR_SOCKET, after the request's bytes
 * were written) as from a server that read the request and then died. A GET
 * is retried; a POST cannot be, since it may have created a monitor, so it
 * would be reported as "may have been applied" though it never arrived.
 * undici already re-queues a request that was never written, and checks an
 * idle socket for a FIN before writing; no client can tell the two cases
 * apart once the bytes have left.
 *
 * So a request that may not be repeated goes on a new connection, unless the
 * server announced how long it keeps idle connections open: then the
 * connection is reused within that time less undici's 2 s margin (an answer
 * with `Keep-Alive: timeout=5` makes a connection reusable for 3 s). Until an
 * origin's first answer says which, each POST or PATCH has a connection of its
 * own, closed after the answer; to an origin that announces nothing, they go
 * with `Connection: close`, as node:http sends every request. A server closes
 * no connection before reading the first request on it, so a create that was
 * never received is never reported as possibly applied; a server that read
 * the request and then closed still is.
 */
export function mayReuseForUnsafe(keepAlive: string | undefined): boolean {
  if (keepAlive === undefined) return false;
  // Only a timeout undici reads the same way (its parser is /timeout=(\d+)/,
  // case and spacing exact): one it misreads or ignores would leave the
  // connection to its own default, which may outlast the server's.
  const undiciReads = /timeout=(\d+)/.exec(keepAlive)?.[1];
  const parameter = /(?:^|[\s,;])timeout=(\d+)(?:$|[\s,;])/.exec(keepAlive)?.[1];
  // undici drops a connection whose announced timeout is 2 s or less (its margin).
  return parameter !== undefined && parameter === undiciReads && Number(parameter) > 2;
}

/**
 * undici's index loads fetch, WebSocket, caches and more: ~40 ms before the
 * first request. The Agent and the request API alone take ~14 ms, and bulk
 * commands are measured against a script that does the same work (README,
 * "Performance"). The proxy agents need the index: it adds the `connect` API
 * their tunnels use to every dispatcher. undici has no `exports` map, so the
 * files are reachable; if a release moves them, cpk falls back to the index.
 */
export function loadUndici(proxy: ReturnType<typeof proxySettings>, connectTimeoutMs = 10_000): UndiciParts {
  baselineWasmOnly();
  const load = createRequire(import.meta.url);
  // connect.timeout bounds the TCP connect and the TLS handshake: undici's
  // default is 10 s whatever --timeout says (issue 12 item 2).
  const options: PoolOptions = { keepAliveTimeout: 4_000, connect: { timeout: connectTimeoutMs } };
  // POST and PATCH have pools of their own (mayReuseForUnsafe): no connection
  // a GET left idle, with no announced timeout, carries one. pipelining 0:
  // `Connection: close`, one request per connection.
  const pools = (make: (o: PoolOptions) => Dispatcher) => {
    let made: ReturnType<UndiciParts['unsafe']> | undefined;
    return () =>
      (made ??= { kept: make(options), fresh: make({ ...options, pipelining: 0 }), once: () => make(options) });
  };
  const undici = load('undici') as typeof import('undici');
  const request = undici.Dispatcher.prototype.request as unknown as RequestFn;
  if (!proxy) options.connect = interimSkipping(undici.buildConnector({ timeout: connectTimeoutMs }));
  const Proxied: typeof EnvHttpProxyAgent = undici.EnvHttpProxyAgent;
  // proxyTunnel false: an http:// target goes to the proxy as a forward
  // (absolute-URI) request, as curl -x does; CONNECT only for https (squid and
  // tinyproxy refuse CONNECT to port 80 by default; issue 12 item 14).
  // proxyTls and requestTls bound the connect to the proxy and the TLS
  // handshake inside its tunnel: each has its own connector, whose default of
  // 10 s would hold the process past --timeout after a proxy that answers the
  // CONNECT and then says nothing.
  const bounded = { timeout: connectTimeoutMs };
  const make = (o: PoolOptions) =>
    proxy
      ? new Proxied({ ...proxy, ...o, proxyTunnel: false, proxyTls: bounded, requestTls: bounded })
      : new undici.Agent(o);
  return { dispatcher: make(options), unsafe: pools(make), request };
}

/**
 * A client must accept a 1xx answer it did not ask for and read the final
 * answer after it (RFC 9110, section 15.2); undici's HTTP/1.1 client instead
 * drops the connection at an interim `100 Continue`, so a create the server
 * applied was reported as "may have been applied". cpk never sends `Expect`
 * nor upgrades, so every interim answer (1xx but 101) that starts a response
 * is left out before undici's parser sees it. A response starts where the
 * connection starts, or at the first byte read after cpk wrote (undici writes
 * the next request on a connection only once the previous answer ended).
 */
export function interimSkipping(connect: buildConnector.connector): buildConnector.connector {
  return (options, callback) =>
    connect(options, (error, socket) => {
      if (error !== null) return callback(error, null);
      callback(null, skipInterim(socket) as unknown as typeof socket);
    });
}

const INTERIM = /^HTTP\/1\.[01] 1(?!01)\d\d[ \r]/;
const STATUS_PREFIX = 'HTTP/1.1 1';

function skipInterim(socket: import('node:net').Socket): Duplex {
  // Bytes of a response's start being examined; undefined while a final answer passes through.
  let head: Buffer | undefined = Buffer.alloc(0);
  const wrapped = new Duplex({
    read: () => void socket.resume(),
    write: (chunk: Buffer, encoding, done) => {
      head ??= Buffer.alloc(0);
      socket.write(chunk, encoding, done);
    },
    final: (done) => void socket.end(done),
    destroy: (error, done) => {
      socket.destroy(error ?? undefined);
      done(error);
    },
  });
  const pass = (chunk: Buffer) => {
    if (!wrapped.push(chunk)) socket.pause();
  };
  socket.on('data', (chunk: Buffer) => {
    if (head === undefined) return pass(chunk);
    head = Buffer.concat([head, chunk]);
    for (;;) {
      const start = head.subarray(0, 13).toString('latin1');
      // Too short to tell, and it could still be an interim status line: wait for more.
      if (start.length < 13 && STATUS_PREFIX.startsWith(start.replace(/^HTTP\/1\.0/, 'HTTP/1.1').slice(0, 10))) return;
      const end = INTERIM.test(start) ? head.indexOf('\r\n\r\n') : -2;
      if (end === -1 && head.length < 64 * 1024) return;
      if (end < 0) {
        const rest = head;
        head = undefined;
        return pass(rest);
      }
      head = head.subarray(end + 4);
      if (head.length === 0) return;
    }
  });
  socket.on('end', () => {
    if (head?.length) wrapped.push(head);
    wrapped.push(null);
  });
  socket.on('error', (error) => wrapped.destroy(error));
  socket.on('close', () => wrapped.destroy());
  return wrapped;
}

/**
 * undici parses HTTP/1.1 with llhttp compiled to WebAssembly at the first
 * connection. On Node 20, V8 then optimizes the whole module with TurboFan on
 * a background thread, and the process cannot exit until that is done: every
 * command that used undici (bulk, manifests, proxies) waited ~120 ms after
 * its last byte of output, twice the cost of the request itself. Liftoff, the
 * baseline compiler, parses our small answers as fast as anyone needs, and
 * leaves nothing behind. The flag is read when a module is compiled, so it
 * must be set before undici's first connection; cpk runs no other WebAssembly.
 */
export function baselineWasmOnly(): void {
  setFlagsFromString('--liftoff-only');
}

/**
 * The errors undici met while connecting (TCP, TLS, a proxy's tunnel), as it
 * publishes them. undici fails a request with one of these only while the
 * request waits for its connection, before any byte of it is written: such a
 * request certainly did not reach the server (issue 12 item 18).
 */
const connectErrors = new WeakSet<object>();

/**
 * Whether undici started writing an attempt's request on a connected socket.
 * undici makes its request object while cpk's send() dispatches it (the
 * attempt being sent is `dispatching` then), and says so on
 * `undici:request:create`; it publishes `undici:client:sendHeaders` right
 * before it writes the headers. An attempt out of time before that
 * certainly did not reach the server: a connect, TLS handshake or proxy
 * tunnel that never completed is not "may have been applied".
 */
interface Attempt {
  /** undici's request object of this attempt is known: only then can `writing` be trusted. */
  mapped: boolean;
  writing: boolean;
}
let dispatching: Attempt | undefined;
const attempts = new WeakMap<object, Attempt>();

let watching = false;
function watchUndici(): void {
  if (watching) return;
  watching = true;
  subscribe('undici:client:connectError', (message) => {
    const error = (message as { error?: unknown }).error;
    if (error !== null && typeof error === 'object') connectErrors.add(error);
  });
  subscribe('undici:request:create', (message) => {
    const request = (message as { request?: unknown }).request;
    // The first request made is the attempt's own; a proxy's CONNECT, made after it, is not.
    if (dispatching && request !== null && typeof request === 'object') {
      attempts.set(request, dispatching);
      dispatching.mapped = true;
    }
    dispatching = undefined;
  });
  subscribe('undici:client:sendHeaders', (message) => {
    const request = (message as { request?: unknown }).request;
    const attempt = request !== null && typeof request === 'object' ? attempts.get(request) : undefined;
    if (attempt) attempt.writing = true;
  });
}

export function createUndiciTransport(env: Env): Transport {
  const proxy = proxySettings(env);
  // Made at the first request, which knows --timeout (the same for every
  // request of a command).
  let undici: UndiciParts | undefined;
  /**
   * Per origin, whether its last answer to a POST or PATCH announced a
   * keep-alive timeout cpk can honour (true) or none (false); absent until
   * the first answer.
   */
  const announces = new Map<string, boolean>();
  let unsafePools: ReturnType<UndiciParts['unsafe']> | undefined;
  const proxyText = proxy
    ? [
        proxy.httpsProxy && `HTTPS_PROXY=${showProxy(proxy.httpsProxy)}`,
        proxy.httpProxy && `HTTP_PROXY=${showProxy(proxy.httpProxy)}`,
      ]
        .filter(Boolean)
        .join(', ')
    : undefined;

  /** A connection refused by the proxy itself (its host and port), as the proxy's failure rather than the target's. */
  function refusedProxy(error: unknown): TransportError | undefined {
    if (!proxy) return undefined;
    const err = error as { code?: string; address?: string; port?: number };
    if (err?.code !== 'ECONNREFUSED' || err.port === undefined) return undefined;
    for (const raw of [proxy.httpsProxy, proxy.httpProxy]) {
      if (!raw) continue;
      try {
        const u = new URL(raw);
        const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
        const host = u.hostname.replace(/^\[|\]$/g, '');
        if (port === err.port && (err.address === undefined || err.address === host || host === 'localhost'))
          return new TransportError(
            'proxy',
            `the proxy ${showProxy(raw)} refused the connection (ECONNREFUSED)`,
            'ECONNREFUSED',
            {
              cause: error,
            },
          );
      } catch {
        // a proxy URL that does not parse: undici reported it already
      }
    }
    return undefined;
  }

  async function send(req: TransportRequest): Promise<TransportResponse> {
    undici ??= loadUndici(proxy, req.timeoutMs);
    watchUndici();
    const { request } = undici;
    const unsafe = !isIdempotent(req.method);
    const origin = new URL(req.url).origin;
    // A POST or PATCH reuses a connection only where the origin announced its
    // keep-alive timeout; until its first answer says, each goes on a
    // connection of its own, closed after the answer.
    let once: Dispatcher | undefined;
    let dispatcher = undici.dispatcher;
    if (unsafe) {
      const pools = (unsafePools ??= undici.unsafe());
      const known = announces.get(origin);
      dispatcher = known === true ? pools.kept : known === false ? pools.fresh : (once = pools.once());
    }
    const controller = new AbortController();
    let timedOut = false;
    // Set once undici starts writing this request on a connected socket (see watchUndici).
    const attempt: Attempt = { mapped: false, writing: false };
    // The timer bounds the attempt even where undici does not listen to the
    // signal: a proxy that never answers the CONNECT (issue 12 item 1).
    let expire: (error: Error) => void = () => {};
    const expired = new Promise<never>((_, reject) => (expire = reject));
    expired.catch(() => {});
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
      expire(new Error('timeout'));
    }, req.timeoutMs);
    const onAbort = () => controller.abort();
    req.signal?.addEventListener('abort', onAbort, { once: true });
    // Aborted before the send: the listener above never fires, so send nothing.
    if (req.signal?.aborted) controller.abort();
    let partial: PartialResponse | undefined;
    const fail = (error: unknown, phase: 'request' | 'body'): TransportError => {
      const failure = attemptFailure(error, phase, {
        aborted: req.signal?.aborted === true,
        timedOut,
        timeoutMs: req.timeoutMs,
        partial,
      });
      // Out of time before a byte was written (a connect that never completed): certainly not sent.
      // An attempt whose request undici made later (queued) is not known: it may have been sent.
      return failure.kind === 'timeout' && attempt.mapped && !attempt.writing
        ? unsentTimeout(req.timeoutMs, failure)
        : failure;
    };
    try {
      let res: Dispatcher.ResponseData;
      try {
        const url = new URL(req.url);
        // undici makes its request object within this call: it is tied to this attempt.
        dispatching = attempt;
        let pending: Promise<Dispatcher.ResponseData>;
        try {
          pending = request.call(dispatcher, {
            origin: url.origin,
            path: `${url.pathname}${url.search}`,
            method: req.method as Dispatcher.HttpMethod,
            headers: req.headers,
            body: req.body,
            signal: controller.signal,
            headersTimeout: req.timeoutMs,
            bodyTimeout: req.timeoutMs,
          });
        } finally {
          dispatching = undefined;
        }
        pending.catch(() => {});
        res = await Promise.race([pending, expired]);
      } catch (error) {
        const failure = refusedProxy(error) ?? fail(error, 'request');
        // Cut while connecting (a TLS handshake reset, say): nothing was sent.
        if (failure.kind === 'reset' && error !== null && typeof error === 'object' && connectErrors.has(error))
          throw unsentFailure(failure);
        throw failure;
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(res.headers)) {
        // defineProperty: a header named "__proto__" is a header, not a prototype.
        if (value !== undefined) setOwn(headers, name.toLowerCase(), Array.isArray(value) ? value.join(', ') : value);
      }
      partial = { status: res.statusCode, headers, receivedBytes: 0 };
      // The answer to `Connection: close` (pools.fresh) announces nothing.
      if (unsafe && dispatcher !== unsafePools?.fresh) announces.set(origin, mayReuseForUnsafe(headers['keep-alive']));
      const chunks: Buffer[] = [];
      try {
        const declared = Number(headers['content-length']);
        if (Number.isFinite(declared) && declared > req.maxBodyBytes) {
          throw new TransportError('too-large', `the response declares ${declared} bytes`, 'TOO_LARGE');
        }
        // Events rather than `for await`: bulk commands read thousands of
        // small bodies, and the async iterator costs more than the bytes.
        await new Promise<void>((resolve, reject) => {
          res.body.on('data', (chunk: Buffer) => {
            partial!.receivedBytes += chunk.length;
            if (partial!.receivedBytes > req.maxBodyBytes) {
              reject(
                new TransportError(
                  'too-large',
                  `the response body is larger than ${req.maxBodyBytes} bytes`,
                  'TOO_LARGE',
                ),
              );
              return;
            }
            chunks.push(chunk);
          });
          res.body.once('end', resolve);
          res.body.once('error', reject);
        });
      } catch (error) {
        res.body.destroy();
        throw fail(error, 'body');
      }
      return { status: res.statusCode, headers, body: Buffer.concat(chunks) };
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
      // Its one connection is never reused: closed now (the answer is read or abandoned).
      if (once) void once.destroy().catch(() => {});
    }
  }

  return {
    send,
    // Every request has ended by the time cpk closes (each is awaited), so
    // destroy only drops idle keep-alive sockets; it never waits on a server.
    close: async () => {
      if (undici)
        await Promise.all([undici.dispatcher, unsafePools?.kept, unsafePools?.fresh].map((d) => d?.destroy()));
    },
    proxy: proxyText,
  };
}
