// The undici transport: one keep-alive Agent per process (bulk commands share
// its pool), or EnvHttpProxyAgent when proxy variables are set, which honours
// HTTP_PROXY, HTTPS_PROXY and NO_PROXY (docs/reliability-and-security.md, "Proxies and private CAs").
// Only undici's public API: its agents, buildConnector and the dispatch handler.
import { Duplex } from 'node:stream';
// This module is itself imported only when a command needs undici (./select.ts).
import * as undici from 'undici';
import type { buildConnector, Dispatcher } from 'undici';
import { isIdempotent } from './retry.js';
import type { ProxySettings } from './proxy.js';
import {
  runAttempt,
  TransportError,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from './transport.js';

/**
 * Whether a POST or PATCH may reuse an idle connection of this origin
 * (docs/reliability-and-security.md, "Reliability"): only when the origin
 * announced how long it keeps idle ones, and for that time less undici's 2 s
 * margin (`Keep-Alive: timeout=5` keeps one for 3 s; 2 or less, not at all).
 * undici reads the announced time itself; where it reads none, the pool for
 * these requests keeps an idle connection 1 ms, so no reading of the header
 * can make a connection outlast the server's promise. Otherwise the request
 * goes on a connection of its own (`Connection: close`), which no server
 * closes before reading it.
 */
export function mayReuseForUnsafe(keepAlive: string | undefined): boolean {
  // Parameters of RFC 9112's Keep-Alive: `timeout=N` among comma-separated pairs.
  const timeout = /(?:^|[\s,;])timeout=(\d+)(?:$|[\s,;])/i.exec(keepAlive ?? '')?.[1];
  return timeout !== undefined && Number(timeout) > 2;
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
    // undici writes its heads as latin1 strings, corked: they reach the socket
    // as they came and in one write, not copied into Buffers one by one.
    decodeStrings: false,
    read: () => void socket.resume(),
    writev: (chunks, done) => {
      head ??= Buffer.alloc(0);
      socket.cork();
      // The last write's callback: the socket finishes its writes in order.
      chunks.forEach(({ chunk, encoding }, i) =>
        socket.write(chunk, encoding, i === chunks.length - 1 ? done : undefined),
      );
      socket.uncork();
    },
    final: (done) => void socket.end(done),
    // Ends when the socket has closed, as the socket's own close would.
    destroy: (error, done) => {
      if (socket.closed) return done(error);
      socket.once('close', () => done(error));
      socket.destroy();
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

/** `proxy`: the settings of the proxy that serves the base URL (./select.ts), or undefined; `timeoutMs`: --timeout. */
export function createUndiciTransport(proxy: ProxySettings | undefined, timeoutMs: number): Transport {
  /** For POST and PATCH (mayReuseForUnsafe): `kept` where the origin announced its timeout, else `fresh`. */
  let unsafePools: { kept: Dispatcher; fresh: Dispatcher } | undefined;
  /** Per origin, whether its last answer to a POST or PATCH announced a keep-alive timeout; absent until then. */
  const announces = new Map<string, boolean>();
  /** A proxy URL fit for a message: credentials dropped (it parses: proxySettings refused any that does not). */
  const shown = (value: string) => new URL(value).origin;

  // Every connector's timeout is --timeout: the TCP connect and TLS
  // handshake, and with a proxy the connect to it (proxyTls) and the TLS
  // handshake inside its tunnel (requestTls). undici's default of 10 s held
  // the process past --timeout after a proxy that answered CONNECT and then
  // said nothing.
  const bounded = { timeout: timeoutMs };
  // Each origin's pool (and, with a proxy, each tunnel's and the proxy's)
  // connects through interimSkipping.
  const factory = (origin: string | URL, options: object): Dispatcher => {
    const { connect } = options as { connect: buildConnector.connector | buildConnector.BuildOptions };
    const connector = typeof connect === 'function' ? connect : undici.buildConnector(connect);
    return new undici.Pool(origin, { ...options, connect: interimSkipping(connector) });
  };
  // proxyTunnel false: an http:// target goes to the proxy as a forward
  // (absolute-URI) request, as curl -x does; CONNECT only for https (squid
  // and tinyproxy refuse CONNECT to port 80 by default).
  const make = (options: { keepAliveTimeout: number; pipelining?: number }): Dispatcher =>
    proxy
      ? new undici.EnvHttpProxyAgent({
          ...proxy,
          ...options,
          factory,
          connect: bounded,
          proxyTunnel: false,
          proxyTls: bounded,
          requestTls: bounded,
        })
      : new undici.Agent({ ...options, factory, connect: bounded });
  const shared = make({ keepAliveTimeout: 4_000 });

  /**
   * A connection refused while a proxy is set: the proxy's refusal, not the
   * target's (cpk is given a proxy only for a base URL it applies to, ./select.ts;
   * a target the proxy cannot reach is the proxy's 502, not a refusal).
   */
  function refusedProxy(error: unknown, target: URL): TransportError | undefined {
    if ((error as { code?: string })?.code !== 'ECONNREFUSED' || !proxy) return undefined;
    const via = (target.protocol === 'https:' && proxy.httpsProxy) || proxy.httpProxy;
    const message = `the proxy ${shown(via)} refused the connection (ECONNREFUSED)`;
    return new TransportError('proxy', message, 'ECONNREFUSED', { cause: error });
  }

  function send(req: TransportRequest): Promise<TransportResponse> {
    const url = new URL(req.url);
    let dispatcher = shared;
    // A POST or PATCH, until the origin's first answer says whether it announces
    // a keep-alive timeout, goes through an agent of its own, closed after it.
    let once: Dispatcher | undefined;
    if (!isIdempotent(req.method)) {
      unsafePools ??= { kept: make({ keepAliveTimeout: 1 }), fresh: make({ keepAliveTimeout: 1, pipelining: 0 }) };
      const known = announces.get(url.origin);
      dispatcher =
        known === true
          ? unsafePools.kept
          : known === false
            ? unsafePools.fresh
            : (once = make({ keepAliveTimeout: 1 }));
    }
    return runAttempt(req, (attempt) => {
      let controller: Dispatcher.DispatchController | undefined;
      dispatcher.dispatch(
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: req.method as Dispatcher.HttpMethod,
          headers: req.headers,
          body: req.body,
          headersTimeout: req.timeoutMs,
          bodyTimeout: req.timeoutMs,
        },
        {
          // undici starts writing the request on a connected socket: before
          // that, nothing of it left (the connect, TLS or tunnel never came up).
          onRequestStart(started) {
            controller = started;
            attempt.connected();
            // Out of time or interrupted while connecting: send nothing now.
            if (attempt.settled) started.abort(new Error('aborted'));
          },
          onResponseStart(_, status, raw) {
            if (status < 200) return;
            const headers = attempt.head(status, raw);
            // The answer to `Connection: close` (the fresh pool) announces nothing.
            if (dispatcher !== shared && dispatcher !== unsafePools?.fresh)
              announces.set(url.origin, mayReuseForUnsafe(headers['keep-alive']));
          },
          onResponseData: (_, chunk) => attempt.data(chunk),
          onResponseEnd: () => attempt.end(),
          onResponseError: (_, error) => attempt.fail(refusedProxy(error, url) ?? error),
        },
      );
      return (failure) => {
        // Its one connection is never reused: closed now (the answer is read or abandoned).
        if (once) void once.destroy().catch(() => {});
        if (failure) controller?.abort(failure);
      };
    });
  }

  return {
    send,
    // Every request has ended by the time cpk closes (each is awaited), so
    // destroy only drops idle keep-alive sockets; it never waits on a server.
    close: async () => {
      await Promise.all([shared, unsafePools?.kept, unsafePools?.fresh].map((d) => d?.destroy()));
    },
    proxy:
      Object.entries({ HTTPS_PROXY: proxy?.httpsProxy, HTTP_PROXY: proxy?.httpProxy })
        .flatMap(([name, value]) => (value ? [`${name}=${shown(value)}`] : []))
        .join(', ') || undefined,
  };
}
