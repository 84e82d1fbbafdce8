// Low-level HTTP helpers shared by the API and admin handlers: request ids,
// replies and refusals, and size-limited body reading. A handler returns its
// reply or throws a Refusal; the server writes either (server.ts), so nothing
// is sent before a change it shows is saved (--persist).
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Route } from './contract.js';
import { MAX_BODY_BYTES } from './model.js';
import { stringifyJson } from '../core/json.js';

export function newRequestId(): string {
  return `req_${randomBytes(8).toString('hex')}`;
}

/** An answer: its status, its JSON body (none for 204) and any other headers. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: OutgoingHttpHeaders;
}

/** An error answer, thrown: `{"error": message, "request_id": ...}` with this status. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: OutgoingHttpHeaders = {},
  ) {
    super(message);
  }
}

/** Writes a reply or a refusal (with the X-Request-Id header's id) unless the response is gone; returns the body. */
export function send(res: ServerResponse, answer: Reply | Refusal): Buffer {
  const body =
    answer instanceof Refusal
      ? { error: answer.message, request_id: String(res.getHeader('X-Request-Id') ?? '') }
      : answer.body;
  const { status, headers = {} } = answer;
  const bytes = body === undefined ? Buffer.alloc(0) : Buffer.from(stringifyJson(body), 'utf8');
  if (res.destroyed || res.headersSent) return bytes;
  res.statusCode = status;
  if (body !== undefined) {
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', String(bytes.length));
    res.setHeader('Cache-Control', 'no-store');
  }
  for (const [name, v] of Object.entries(headers)) if (v !== undefined) res.setHeader(name, v);
  res.end(bytes);
  return bytes;
}

/** 404 for a path no document declares, 405 (with Allow) for a method its path does not have. */
export function refuseRoute(route: Exclude<Route, { kind: 'operation' }>, method: string): never {
  if (route.kind === 'not-found') throw new Refusal(404, 'not found');
  const allow = route.allow.join(', ');
  throw new Refusal(405, `method ${method} not allowed; allowed: ${allow}`, { Allow: allow });
}

export interface ReadBody {
  /** The body as UTF-8 text, cut at MAX_BODY_BYTES. */
  text: string;
  /** True when more than MAX_BODY_BYTES arrived (the rest was drained and dropped). */
  tooLarge: boolean;
}

/** Reads the whole body, keeping at most MAX_BODY_BYTES: the rest is drained, so the client reads a 413, not EPIPE. */
export async function readBody(req: IncomingMessage): Promise<ReadBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      if (size <= MAX_BODY_BYTES) chunks.push(chunk.subarray(0, MAX_BODY_BYTES + 1 - size));
      size += chunk.length;
    }
  } catch {
    // An aborted upload still resolves: the handler then finds the socket gone.
  }
  const text = Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES).toString('utf8');
  return { text, tooLarge: size > MAX_BODY_BYTES };
}

/** Is the Content-Type a JSON media type (application/json or any application/...+json)? */
export const isJsonContentType = (value = ''): boolean => /^\s*application\/(?:[^;]*\+)?json\s*(?:;|$)/i.test(value);

/**
 * The charset a Content-Type names other than UTF-8, or undefined. JSON is UTF-8 (RFC 8259 §8.1) and the body
 * is read as such, so a body declared in another charset would be silently misread: it is refused instead.
 */
export function foreignCharset(value = ''): string | undefined {
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(value)?.[1];
  return charset === undefined || /^utf-?8$/i.test(charset) ? undefined : charset;
}

/**
 * `text` cut to at most `maxBytes` bytes of UTF-8 at a character boundary, as a fresh string: a plain slice would
 * be a view that keeps the whole body alive for as long as the copy lives.
 */
export function boundedCopy(text: string, maxBytes: number): string {
  // At most 3 bytes of UTF-8 per UTF-16 unit: a text this short fits whole, and is kept as it is.
  if (text.length * 3 <= maxBytes) return text;
  const bytes = Buffer.from(text.slice(0, maxBytes), 'utf8');
  if (bytes.length <= maxBytes && text.length <= maxBytes) return bytes.toString('utf8');
  let end = Math.min(maxBytes, bytes.length);
  // Back off continuation bytes (10xxxxxx) so the cut falls between characters.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return `${bytes.subarray(0, end).toString('utf8')}…(truncated, ${text.length} characters)`;
}
