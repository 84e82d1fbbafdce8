// Local emulator of the cpk monitoring service: HTTP plumbing and the request
// pipeline. Per request:
//   record (/v1 only) -> read body -> area?
//     outside /v1 and /__emulator        -> 404
//     /__emulator/*                      -> admin.ts (404 without the secret)
//     /v1/*                              -> queued fault? -> random failure? -> latency
//                                           -> openapi.json (public) or api.ts
//                                           (a commit-reset fault: api.ts, then a reset instead of the answer)
// It never opens an outbound connection: checks are simulated in store.ts.
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { BlockList, isIPv4, isIPv6, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { carriedSecrets, handleAdmin, type RecordedRequest } from './admin.js';
import { handleApi } from './api.js';
import { buildTokenTable, redactTokens, type DeclaredToken } from './auth.js';
import { seededRandom, TICK_MS } from './checks.js';
import { applyFault, normalizeFault, takeFault, type Fault, type Outage, type QueuedFault } from './faults.js';
import { ADMIN_PREFIX, API_PREFIX, DEFAULT_DEV_TOKEN, DEV_ACCOUNT } from './model.js';
import { buildAdminDocument, buildOpenApiDocument } from './openapi.js';
import { openPersistence } from './persist.js';
import { boundedCopy, newRequestId, readBody, Refusal, refuseRoute, send, type Reply } from './respond.js';
import { matchRoute, type Exchange } from './contract.js';
import { monitorJson, Store, type PersistedState } from './store.js';

export type { Fault } from './faults.js';
export type { RecordedRequest } from './admin.js';

export interface EmulatorOptions {
  /** Interface to listen on (default '127.0.0.1'). */
  host?: string;
  /** Port (default 4010); 0 picks a free port. */
  port?: number;
  /** The development token: all scopes, account acct_dev. Must start with cpk_. */
  token?: string;
  /** Secret for the /__emulator admin routes (default: 24 random hex characters). */
  adminSecret?: string;
  /** Delay added before every API response (not the OpenAPI document). */
  latencyMs?: number;
  /** 0..1 probability that an API request is answered with a 503 error object. */
  failRate?: number;
  /** RNG for failRate and monitor ids (default Math.random / crypto). */
  random?: () => number;
  /** Receives one line per request, e.g. "GET /v1/monitors/x 404 2ms"; never contains tokens. */
  log?: (line: string) => void;
  /** Keep the state in this file across restarts, each change on disk before its answer (persist.ts). */
  persistFile?: string;
  /** How many requests the log keeps (default REQUEST_LOG_LIMIT). */
  requestLogLimit?: number;
  /** Makes monitor ids and check outcomes reproducible (ids from a generator seeded with it unless `random` is given). */
  seed?: number;
  /** Runs the checks' schedule this many times faster than the wall clock (default 1). */
  timeScale?: number;
  /**
   * The time in ms (default Date.now): what timestamps, the checks' schedule and the reports' periods read.
   * A test moves it forward to run checks without waiting (a report runs the checks due before it is made).
   */
  clock?: () => number;
  /** Tokens declared beside the development token, each of its account (created when new). */
  tokens?: DeclaredToken[];
  /** A state to start from (`cpk emulator --import FILE`, the format `exportState()` gives). */
  state?: unknown;
  /** How many bytes the log keeps, bodies, headers and paths together (default REQUEST_LOG_BYTES). */
  requestLogBytes?: number;
  /** Every /v1 and admin answer sent in full but a fault's, for the suite's checkResponse (contract.ts). */
  onResponse?: (exchange: Exchange) => void;
}

export interface Emulator {
  url: string;
  baseUrl: string;
  /** The address the server is bound to, as the system reports it (127.0.0.1, ::, 0.0.0.0). */
  address: string;
  token: string;
  adminSecret: string;
  /** Every /v1 request (API and openapi.json) in arrival order, faulted ones included; headers unredacted. */
  requests: RecordedRequest[];
  injectFault(fault: Fault): void;
  /** The whole state as JSON-safe data (what `GET /__emulator/state` and `--export-on-exit` give). */
  exportState(): PersistedState;
  monitors(accountId?: string): Array<Record<string, unknown>>;
  channels(accountId?: string): Array<Record<string, unknown>>;
  close(): Promise<void>;
}

const DOCUMENT_PATH = `${API_PREFIX}/openapi.json`;
/** The request log's bounds, in entries and in bytes (docs/emulator.md, "Bounds"). */
const REQUEST_LOG_LIMIT = 10_000;
const REQUEST_LOG_BYTES = 32 * 1024 * 1024;
export const REQUEST_LOG_BODY_BYTES = 16 * 1024;

/** What a log entry holds, in bytes (UTF-8), plus a little for the object itself. */
function recordBytes(record: RecordedRequest): number {
  let size = 256 + Buffer.byteLength(record.path) + Buffer.byteLength(record.body);
  for (const [name, value] of Object.entries(record.headers))
    size += name.length + (value === undefined ? 0 : Buffer.byteLength(String(value)));
  return size;
}

/**
 * Sets a logged request's body, kept as UTF-8 bytes outside V8's heap and read back as text. V8 grows its
 * heap to a multiple of what lives in it: 32 MiB of bodies held as strings made it grow by some 90 MiB
 * under a flood of large requests, while the same bytes in a Buffer count once.
 */
function keepBody(record: RecordedRequest, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  Object.defineProperty(record, 'body', { get: () => bytes.toString('utf8'), enumerable: true, configurable: true });
}

/** What the types cannot say of the options (the CLI checks its flags before). */
function checkOptions(opts: EmulatorOptions): void {
  const { port, latencyMs, failRate, adminSecret } = opts;
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535))
    throw new Error('port must be an integer between 0 and 65535');
  if (latencyMs !== undefined && !(Number.isFinite(latencyMs) && latencyMs >= 0))
    throw new Error('latencyMs must be a non-negative number');
  if (failRate !== undefined && !(failRate >= 0 && failRate <= 1)) throw new Error('failRate must be between 0 and 1');
  if (adminSecret === '') throw new Error('adminSecret must be a non-empty string');
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * The warning for an emulator bound beyond loopback (0.0.0.0, ::, a LAN
 * address), or undefined on loopback. It warns rather than refuses, as
 * Prism and WireMock listen where they are told: a container or a shared
 * test host is a reason to listen widely. But the
 * seeded tokens are published (docs/emulator.md), so whoever can connect has
 * full access; declaring tokens would not change that, since the seeded ones
 * are always accepted.
 */
export function exposureWarning(address: string): string | undefined {
  const family = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : undefined;
  if (family !== undefined && LOOPBACK.check(address, family)) return undefined;
  return `listening on ${address}, which other machines can reach: the emulator's test tokens are published (docs/emulator.md), so anyone who connects has full access; use --host 127.0.0.1 unless the network is yours alone`;
}

type Area = 'document' | 'api' | 'admin' | 'outside';

function areaOf(path: string): Area {
  if (path === DOCUMENT_PATH) return 'document';
  if (path === API_PREFIX || path.startsWith(`${API_PREFIX}/`)) return 'api';
  if (path === ADMIN_PREFIX || path.startsWith(`${ADMIN_PREFIX}/`)) return 'admin';
  return 'outside';
}

export async function startEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  checkOptions(opts);
  const {
    host = '127.0.0.1',
    token = DEFAULT_DEV_TOKEN,
    latencyMs = 0,
    failRate = 0,
    log,
    random = Math.random,
  } = opts;
  const tokens = buildTokenTable(token, opts.tokens); // throws on a token without cpk_
  // Longest first, so that a token holding another is masked whole.
  const tokenList = [...tokens.keys()].sort((a, b) => b.length - a.length);
  const adminSecret = opts.adminSecret ?? randomBytes(12).toString('hex');
  const logLimit = opts.requestLogLimit ?? REQUEST_LOG_LIMIT;
  const seed = opts.seed ?? Math.floor(Math.random() * 2 ** 32);
  const outages: Outage[] = [];
  const clock = opts.clock ?? Date.now;
  const store = new Store(opts.random ?? (opts.seed === undefined ? undefined : seededRandom(opts.seed)), {
    seed,
    outages: () => outages,
    accounts: [...new Set((opts.tokens ?? []).map((t) => t.account))],
    clock,
    timeScale: opts.timeScale,
  });
  if (opts.state !== undefined) store.restore(opts.state);
  const persist = opts.persistFile === undefined ? undefined : await openPersistence(opts.persistFile, store);
  const faults: QueuedFault[] = [];
  // Monitors are checked on their interval; what a scheduled check changes is saved in the background.
  const scheduler = setInterval(() => {
    if (store.runDueChecks(clock()) > 0) persist?.changed();
  }, TICK_MS).unref();
  const requests: RecordedRequest[] = [];
  const logBytesMax = opts.requestLogBytes ?? REQUEST_LOG_BYTES;
  const logSizes = new WeakMap<RecordedRequest, number>();
  let logBytes = 0;
  /** Counts a logged request's bytes; over the budget, the oldest go until 90% of it is left (the newest stays). */
  const countLogged = (record: RecordedRequest) => {
    logSizes.set(record, recordBytes(record));
    logBytes += logSizes.get(record) ?? 0;
    if (logBytes <= logBytesMax) return;
    // Requests the admin route cleared, or the ring dropped, are counted out here.
    logBytes = requests.reduce((sum, r) => sum + (logSizes.get(r) ?? 0), 0);
    if (logBytes <= logBytesMax) return;
    let drop = 0;
    while (drop < requests.length - 1 && logBytes > logBytesMax * 0.9) logBytes -= logSizes.get(requests[drop++]!) ?? 0;
    requests.splice(0, drop);
  };
  let document: Record<string, unknown> = {};
  let adminDocument: Record<string, unknown> = {};
  // Aborted by close(): no delay outlives the emulator.
  const closed = new AbortController();

  /** Resolves true after `ms`, or false as soon as the emulator closes. */
  const delay = (ms: number): Promise<boolean> =>
    new Promise((resolve) => {
      if (closed.signal.aborted || ms <= 0) return resolve(!closed.signal.aborted);
      const stop = () => {
        clearTimeout(timer);
        resolve(false);
      };
      const timer = setTimeout(() => {
        closed.signal.removeEventListener('abort', stop);
        resolve(true);
      }, ms);
      closed.signal.addEventListener('abort', stop, { once: true });
    });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const method = req.method ?? 'GET';
    const rawUrl = req.url ?? '/';
    const path = rawUrl.split('?', 1)[0] ?? '';
    const area = areaOf(path);
    const requestId = newRequestId();
    res.setHeader('X-Request-Id', requestId);

    // Recorded on arrival (body filled in once read) so the log keeps arrival order.
    const record: RecordedRequest | undefined =
      area === 'document' || area === 'api'
        ? {
            method,
            path: rawUrl,
            headers: { ...req.headers },
            body: '',
            receivedAt: Date.now(),
            request_id: requestId,
            status: null,
          }
        : undefined;
    if (record) {
      requests.push(record);
      if (requests.length > logLimit) requests.shift(); // the last REQUEST_LOG_LIMIT requests
      // The answer beside the request: its status (null when none was sent) and how long it took.
      res.once('close', () => {
        record.status = res.writableFinished ? res.statusCode : null;
        record.latencyMs = Math.round((performance.now() - started) * 10) / 10;
      });
    }

    let label: string | undefined; // for answers that are not a normal response
    let sent: Buffer | undefined; // the body of a reply (a fault's is not one)
    const onResponse = opts.onResponse;
    // Once sent in full (never one cut off); Node sends no body in answer to HEAD.
    if (onResponse && area !== 'outside')
      res.once('finish', () => {
        const type = res.getHeader('Content-Type');
        const body = sent && (method === 'HEAD' ? Buffer.alloc(0) : sent);
        if (body) onResponse({ method, url: rawUrl, status: res.statusCode, contentType: type as string, body });
      });
    if (log) {
      res.once('close', () => {
        const outcome = label ?? (res.writableFinished ? String(res.statusCode) : 'aborted');
        try {
          log(
            `${method} ${redactTokens(rawUrl, [...tokenList, ...carriedSecrets(req.headers)], { tail: false })} ${outcome} ${Math.round(performance.now() - started)}ms`,
          );
        } catch {
          // A throwing logger must not take the emulator down.
        }
      });
    }

    const body = await readBody(req);
    if (record) {
      keepBody(record, boundedCopy(body.text, REQUEST_LOG_BODY_BYTES));
      countLogged(record);
    }
    if (closed.signal.aborted || req.socket.destroyed) return;

    /** The reply; undefined when a fault answered (or the emulator closed). */
    const answer = async (): Promise<Reply | undefined> => {
      if (area === 'outside') throw new Refusal(404, 'not found');
      // An import or reset through the admin routes is saved like any change.
      if (area === 'admin')
        return durably(() =>
          handleAdmin({
            req,
            path,
            body,
            adminSecret,
            faults,
            requests,
            tokens: tokenList,
            outages,
            store,
            document: adminDocument,
          }),
        );

      const apiLatency = area === 'api' ? latencyMs : 0;
      const fault = takeFault(faults, method, path);
      if (fault?.kind === 'commit-reset') return commitThenReset(fault);
      if (fault) {
        if (!(await delay(apiLatency + (fault.delayMs ?? 0)))) return;
        const kind = fault.kind ?? 'status';
        if (kind === 'reset' || kind === 'hang') label = kind;
        if (kind === 'truncated' || kind === 'stall') label = `${fault.status ?? 200} ${kind}`;
        applyFault(fault, req, res, String(res.getHeader('X-Request-Id')));
        return;
      }
      // random() is only consulted with a failure rate: with failRate 0 an injected RNG feeds the monitor ids alone.
      const fails = area === 'api' && failRate > 0 && random() < failRate;
      if (!(await delay(apiLatency))) return;
      if (fails) throw new Refusal(503, 'service unavailable (simulated failure)');

      const route = matchRoute(method, path);
      if (area === 'document')
        return route.kind === 'operation' ? { status: 200, body: document } : refuseRoute(route, method);
      const query = rawUrl.slice(path.length + 1);
      return durably(() => handleApi({ req, body, route, store, tokens, query }));
    };

    /**
     * The request goes through as usual (a write is applied, and saved with --persist), then the connection is
     * reset where the answer would have gone: the client cannot tell whether its write happened.
     */
    const commitThenReset = async (fault: Fault): Promise<undefined> => {
      const withoutFault = async () => {
        if (!(await delay((area === 'api' ? latencyMs : 0) + (fault.delayMs ?? 0)))) return;
        const route = matchRoute(method, path);
        if (area === 'api')
          await durably(() => handleApi({ req, body, route, store, tokens, query: rawUrl.slice(path.length + 1) }));
      };
      // A refusal (401, 422...) is lost with the answer, as a success would be.
      await withoutFault().catch(() => undefined);
      label = 'commit-reset';
      req.socket.resetAndDestroy();
      return undefined;
    };
    const reply = await answer().catch((error: unknown) => {
      if (error instanceof Refusal) return error;
      if (res.headersSent) return void res.destroy();
      return new Refusal(500, 'internal emulator error');
    });
    if (reply) sent = send(res, reply);
  }

  /** With --persist, a reply that shows a change (a get may run a check too) waits until it is on disk. */
  async function durably(handler: () => Reply): Promise<Reply> {
    const before = store.version;
    const reply = handler();
    if (persist && store.version !== before) await persist.save();
    return reply;
  }

  const server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));

  // Requests Node cannot parse never reach the handler: answered in every other error's shape, not Node's bare one.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const requestId = newRequestId();
    const message = { 400: 'malformed HTTP request', 408: 'request timeout', 431: 'request headers too large' }[status];
    const body = JSON.stringify({ error: message, request_id: requestId });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  });

  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  server.listen(opts.port ?? 4010, host);
  await once(server, 'listening'); // rejects on 'error' (a port in use)
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('emulator did not bind a TCP port');
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  const baseUrl = url + API_PREFIX;
  document = buildOpenApiDocument(baseUrl);
  adminDocument = buildAdminDocument(baseUrl);

  let closing: Promise<void> | undefined;
  return {
    url,
    baseUrl,
    address: address.address,
    token,
    adminSecret,
    requests,
    injectFault(fault: Fault): void {
      faults.push(normalizeFault(fault));
    },
    exportState() {
      return store.snapshot();
    },
    monitors(accountId = DEV_ACCOUNT) {
      return store.listMonitors(accountId).map(monitorJson);
    },
    channels(accountId = DEV_ACCOUNT) {
      return store.listChannels(accountId).map((c) => structuredClone(c) as unknown as Record<string, unknown>);
    },
    close(): Promise<void> {
      closing ??= new Promise<void>((resolve) => {
        clearInterval(scheduler);
        const saved = persist?.flush() ?? Promise.resolve();
        closed.abort();
        // Resolve only once every socket has emitted 'close' (libuv closes handles after the server reports
        // closed), so no log line or socket event of this emulator fires after close() resolved.
        const socketsClosed = [...sockets].map(
          (socket) => new Promise<void>((done) => socket.once('close', () => done())),
        );
        const serverClosed = new Promise<void>((done) => server.close(() => done()));
        // Destroys keep-alive sockets and requests left hanging by faults.
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
        // libuv frees the listening handle in the close-callbacks phase after
        // 'close' was emitted; two turns of the loop get past that phase.
        void Promise.all([serverClosed, saved, ...socketsClosed]).then(() => setImmediate(() => setImmediate(resolve)));
      });
      return closing;
    },
  };
}
