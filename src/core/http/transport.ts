// One HTTP attempt. A transport knows how to put bytes on the wire and nothing
// about retries, tokens or the service: src/core/http/client.ts owns those.
import { setOwn } from '../json.js';

export interface TransportRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | undefined;
  /** Bounds the whole attempt: connect, headers and body. */
  timeoutMs: number;
  maxBodyBytes: number;
  signal?: AbortSignal | undefined;
}

export interface TransportResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export type TransportFailure =
  /** The connection was never up (refused, DNS, closed while connecting): no byte of the request left. */
  | 'connect'
  | 'timeout'
  | 'tls'
  /** The connection broke before a response arrived. */
  | 'reset'
  /** The response started but its body was cut short. */
  | 'incomplete'
  | 'too-large'
  /** The proxy would not open a tunnel: no byte of the request reached the server. */
  | 'proxy'
  /** The caller aborted (Ctrl-C). */
  | 'aborted';

/** What had arrived when a body failed: the status line and headers. */
export interface PartialResponse {
  status: number;
  headers: Record<string, string>;
  receivedBytes: number;
}

export class TransportError extends Error {
  /** Set when the failure came after the response headers ('incomplete', 'too-large', or a timeout mid-body). */
  response: PartialResponse | undefined;
  constructor(
    readonly kind: TransportFailure,
    message: string,
    readonly code: string | undefined,
    options?: { cause?: unknown; response?: PartialResponse | undefined },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TransportError';
    this.response = options?.response;
  }
}

export interface Transport {
  send(request: TransportRequest): Promise<TransportResponse>;
  close(): Promise<void>;
  /** The environment's proxy settings, for error hints ("HTTPS_PROXY=http://proxy:3128"); undefined without a proxy. */
  readonly proxy?: string | undefined;
}

// Node's TLS errors and OpenSSL's certificate verification codes, as they appear in err.code.
const TLS_CODE =
  /^(ERR_TLS_|ERR_SSL_)|CERT|^UNABLE_TO_|SELF_SIGNED|^INVALID_CA$|^INVALID_PURPOSE$|^PATH_LENGTH_EXCEEDED$|^HOSTNAME_MISMATCH$|CRL/;

/** What a transport tells the attempt as its request goes (runAttempt). */
export interface Attempt {
  readonly settled: boolean;
  /** The connection is up (TCP, TLS, a proxy's tunnel): from now on the request may leave. */
  connected: () => void;
  /** The status line and headers of the final answer. */
  head: (status: number, raw: Record<string, string | string[] | undefined>) => Record<string, string>;
  data: (chunk: Buffer) => void;
  end: () => void;
  fail: (error: unknown) => void;
}

/**
 * One attempt, for both transports: one timer bounds it as a whole (connect,
 * headers and every byte of the body), the caller's signal aborts it, the
 * body is capped, and a failure is sorted once. `start` puts the request on
 * the wire, reports through the Attempt, and returns what to do once the
 * attempt is settled (with the failure, to tear the request down). What was
 * sent is decided by one rule, the phase the failure came in (classify).
 */
export function runAttempt(
  req: TransportRequest,
  start: (attempt: Attempt) => (failure: Error | undefined) => void,
): Promise<TransportResponse> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let timedOut = false;
    let connected = false;
    let partial: PartialResponse | undefined;
    let cancel: ((failure: Error | undefined) => void) | undefined;
    const chunks: Buffer[] = [];
    const tooLarge = (what: string) => new TransportError('too-large', what, 'TOO_LARGE');
    const finish = (error: unknown, response?: TransportResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
      // Settled first: tearing the request down makes errors of its own, which change nothing now.
      cancel?.(response ? undefined : error instanceof Error ? error : new Error('aborted'));
      if (response) resolve(response);
      else reject(failureOf(error));
    };
    const failureOf = (error: unknown): TransportError => {
      const because = { cause: error, response: partial };
      if (req.signal?.aborted) return new TransportError('aborted', 'aborted', 'ABORTED', because);
      const seconds = req.timeoutMs / 1000;
      // undici's connector has the same bound as the attempt's timer (--timeout), and on a busy machine its own
      // timer can fire first: either way the connection did not come up in time, reported and retried alike.
      const err = error as { code?: unknown; cause?: { code?: unknown } } | undefined;
      const connectorTimedOut = (err?.code ?? err?.cause?.code) === 'UND_ERR_CONNECT_TIMEOUT';
      if ((timedOut || connectorTimedOut) && !connected)
        return new TransportError('connect', `not connected within ${seconds}s`, 'CONNECT_TIMEOUT', because);
      if (timedOut) return new TransportError('timeout', `no complete answer within ${seconds}s`, 'TIMEOUT', because);
      const failure = classify(error, !connected ? 'connect' : partial ? 'body' : 'request');
      failure.response ??= partial;
      return failure;
    };
    const timer = setTimeout(() => {
      timedOut = true;
      finish(new Error('timeout'));
    }, req.timeoutMs);
    const onAbort = () => finish(new Error('aborted'));
    // Interrupted before the send: nothing is started at all.
    if (req.signal?.aborted) return onAbort();
    req.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      cancel = start({
        get settled() {
          return settled;
        },
        connected: () => void (connected = true),
        head: (status, raw) => {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(raw)) {
            // setOwn: a header named "__proto__" is a header, not a prototype.
            if (value !== undefined)
              setOwn(headers, name.toLowerCase(), Array.isArray(value) ? value.join(', ') : value);
          }
          partial = { status, headers, receivedBytes: 0 };
          const declared = Number(headers['content-length']);
          if (Number.isFinite(declared) && declared > req.maxBodyBytes)
            finish(tooLarge(`the response declares ${declared} bytes`));
          return headers;
        },
        data: (chunk) => {
          partial!.receivedBytes += chunk.length;
          if (partial!.receivedBytes > req.maxBodyBytes)
            return finish(tooLarge(`the response body is larger than ${req.maxBodyBytes} bytes`));
          chunks.push(chunk);
        },
        end: () =>
          finish(undefined, { status: partial!.status, headers: partial!.headers, body: Buffer.concat(chunks) }),
        fail: (error) => finish(error),
      });
    } catch (error) {
      // A request the library refuses to start (an invalid header): nothing was sent.
      finish(error);
    }
  });
}

/**
 * Sorts a low-level error into a TransportFailure by the phase it came in.
 * Before the connection was up, nothing was sent: 'connect', or 'tls' and
 * 'proxy', which name what refused it; after it, what it was.
 */
export function classify(error: unknown, phase: 'connect' | 'request' | 'body'): TransportError {
  if (error instanceof TransportError) return error;
  const err = error as { code?: string; message?: string; cause?: { code?: string } };
  const code = err?.code ?? err?.cause?.code;
  const message = err?.message ?? String(error);
  // undici's ProxyAgent: the proxy answered the CONNECT with something other than 200.
  const status = /^Proxy response \((\d{3})\) !== 200/.exec(message)?.[1];
  if (status) {
    const text = `the proxy answered ${status} to the tunnel request`;
    return new TransportError('proxy', text, `PROXY_${status}`, { cause: error });
  }
  if (code && TLS_CODE.test(code)) return new TransportError('tls', message, code, { cause: error });
  if (phase === 'connect') return new TransportError('connect', message, code, { cause: error });
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'ETIMEDOUT')
    return new TransportError('timeout', message, code, { cause: error });
  return new TransportError(phase === 'body' ? 'incomplete' : 'reset', message, code, { cause: error });
}
