// One HTTP attempt. A transport knows how to put bytes on the wire and nothing
// about retries, tokens or the service: src/core/http/client.ts owns those.

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
  /** The connection was never made (refused, DNS): no byte of the request left. */
  | 'connect'
  /** The attempt ran past its time. */
  | 'timeout'
  /** TLS handshake or certificate failure. */
  | 'tls'
  /** The connection broke before a response arrived. */
  | 'reset'
  /** The response started but its body was cut short. */
  | 'incomplete'
  /** The response body is larger than cpk accepts. */
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

const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

// Node's TLS errors (ERR_TLS_*, ERR_SSL_*) and OpenSSL's certificate
// verification codes (UNABLE_TO_VERIFY_LEAF_SIGNATURE, SELF_SIGNED_CERT_IN_CHAIN,
// CERT_HAS_EXPIRED, HOSTNAME_MISMATCH, ...), as they appear in err.code.
const TLS_CODE =
  /^(ERR_TLS_|ERR_SSL_)|CERT|^UNABLE_TO_|SELF_SIGNED|^INVALID_CA$|^INVALID_PURPOSE$|^PATH_LENGTH_EXCEEDED$|^HOSTNAME_MISMATCH$|CRL/;

/**
 * The error of a failed attempt, for both transports: aborted by the caller,
 * out of time, or as classify() sorts it; with what had arrived of the response.
 *
 * One rule decides what was sent: a failure before the connection was up (the
 * TCP connect, the TLS handshake, a proxy's tunnel: `connected` false) left no
 * byte of the request, so it is a 'connect' failure, which any method may
 * retry; after, a POST or PATCH "may have been applied".
 */
export function attemptFailure(
  error: unknown,
  phase: 'request' | 'body',
  attempt: {
    aborted: boolean;
    timedOut: boolean;
    timeoutMs: number;
    partial: PartialResponse | undefined;
    connected: boolean;
  },
): TransportError {
  let failure: TransportError;
  if (attempt.aborted) failure = new TransportError('aborted', 'aborted', 'ABORTED', { cause: error });
  else if (attempt.timedOut && !attempt.connected)
    failure = new TransportError('connect', `not connected within ${attempt.timeoutMs / 1000}s`, 'CONNECT_TIMEOUT', {
      cause: error,
    });
  else if (attempt.timedOut)
    failure = new TransportError('timeout', `no complete answer within ${attempt.timeoutMs / 1000}s`, 'TIMEOUT', {
      cause: error,
    });
  else {
    failure = classify(error, phase);
    if (failure.kind === 'reset' && !attempt.connected)
      failure = new TransportError('connect', failure.message, failure.code, { cause: error });
  }
  failure.response ??= attempt.partial;
  return failure;
}

/** Sorts a low-level error into a TransportFailure. */
export function classify(error: unknown, phase: 'request' | 'body'): TransportError {
  if (error instanceof TransportError) return error;
  const err = error as { code?: string; message?: string; cause?: { code?: string } };
  const code = err?.code ?? err?.cause?.code;
  const message = err?.message ?? String(error);
  if (code && CONNECT_CODES.has(code)) return new TransportError('connect', message, code, { cause: error });
  // undici's ProxyAgent: the proxy answered the CONNECT with something other than 200.
  const proxyStatus = /^Proxy response \((\d{3})\) !== 200/.exec(message);
  if (proxyStatus)
    return new TransportError(
      'proxy',
      `the proxy answered ${proxyStatus[1]} to the tunnel request`,
      `PROXY_${proxyStatus[1]}`,
      {
        cause: error,
      },
    );
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'ETIMEDOUT') {
    return new TransportError('timeout', message, code, { cause: error });
  }
  if (code && TLS_CODE.test(code)) {
    return new TransportError('tls', message, code, { cause: error });
  }
  return new TransportError(phase === 'body' ? 'incomplete' : 'reset', message, code, { cause: error });
}
