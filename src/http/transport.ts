// One HTTP attempt. A transport knows how to put bytes on the wire and nothing
// about retries, tokens or the service: src/http/client.ts owns those.

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
  /** The caller aborted (Ctrl-C). */
  | 'aborted';

export class TransportError extends Error {
  constructor(
    readonly kind: TransportFailure,
    message: string,
    readonly code: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'TransportError';
  }
}

export interface Transport {
  send(request: TransportRequest): Promise<TransportResponse>;
  close(): Promise<void>;
}

const CONNECT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);

/** Sorts a low-level error into a TransportFailure. */
export function classify(error: unknown, phase: 'request' | 'body'): TransportError {
  if (error instanceof TransportError) return error;
  const err = error as { code?: string; message?: string; cause?: { code?: string } };
  const code = err?.code ?? err?.cause?.code;
  const message = err?.message ?? String(error);
  if (code && CONNECT_CODES.has(code)) return new TransportError('connect', message, code, { cause: error });
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'ETIMEDOUT') {
    return new TransportError('timeout', message, code, { cause: error });
  }
  if (code && (code.startsWith('ERR_TLS') || code.startsWith('CERT_') || code.includes('CERT') || code.startsWith('ERR_SSL'))) {
    return new TransportError('tls', message, code, { cause: error });
  }
  return new TransportError(phase === 'body' ? 'incomplete' : 'reset', message, code, { cause: error });
}
