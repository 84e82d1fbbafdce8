// Fault injection: queued, one-shot (or n-shot) misbehaviours that replace the
// normal answer to matching /v1 requests, so client scripts can be tested
// against gateways that fail, lie about lengths, reset or never answer.
// A faulted request never reaches authentication or the store, but for commit-reset's: it is handled as usual, and
// only its answer is lost (server.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import { isPlainObject } from '../core/json.js';
import { API_PREFIX } from './model.js';
import { Refusal } from './respond.js';

export const FAULT_KINDS = [
  'status',
  'html',
  'truncated',
  'stall',
  'reset',
  'hang',
  'redirect',
  'commit-reset',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface Fault {
  method?: string;
  path?: string;
  times?: number;
  status?: number;
  /** Sent as it is, or a JSON object or array sent as its JSON text. */
  body?: string | Record<string, unknown> | unknown[];
  headers?: Record<string, string>;
  retryAfter?: string;
  kind?: FaultKind;
  location?: string;
  delayMs?: number;
}

/** Each kind's default status, also published in the admin document. */
const DEFAULT_STATUS = { status: 503, html: 502, truncated: 200, stall: 200, redirect: 307 } as const;
const MAX_DELAY_MS = 600_000;
const FAULT_KEYS = 'method path times status body headers retryAfter kind location delayMs'.split(' ');
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** A fault or outage the admin routes refuse (422), or `injectFault` throws. */
function need(ok: boolean, message: string): void {
  if (!ok) throw new Refusal(422, message);
}

const isInteger = (v: unknown, min: number, max: number): boolean =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
const isHeaderValue = (v: unknown): v is string => typeof v === 'string' && HEADER_VALUE.test(v);
const absent = (v: unknown) => v === undefined;

/** A JSON object of only the `keys` given, or a Refusal naming the first other one. */
function fieldsOf(input: unknown, what: string, keys: readonly string[]): Record<string, unknown> {
  need(isPlainObject(input), `${what} must be a JSON object`);
  const fields = input as Record<string, unknown>;
  for (const key of Object.keys(fields)) need(keys.includes(key), `unknown ${what} field: ${key}`);
  return fields;
}

/** A fault as queued, with how many more requests it will hit. */
export type QueuedFault = Fault & { remaining: number };

/** Checks and normalises a fault for the queue (method upper-cased, defaults filled); throws a Refusal. */
export function normalizeFault(input: unknown): QueuedFault {
  const f = fieldsOf(input, 'fault', FAULT_KEYS);
  const kind = (f.kind ?? 'status') as FaultKind;
  need(FAULT_KINDS.includes(kind), `kind must be one of ${FAULT_KINDS.join(', ')}`);
  need(
    absent(f.method) || (typeof f.method === 'string' && /^[A-Za-z]+$/.test(f.method)),
    'method must be an HTTP method name',
  );
  need(
    absent(f.path) || (typeof f.path === 'string' && f.path.startsWith('/')),
    'path must be a string starting with /',
  );
  const times = f.times ?? 1;
  need(isInteger(times, 1, Number.MAX_SAFE_INTEGER), 'times must be a positive integer');
  const [min, max] = kind === 'redirect' ? [300, 399] : [200, 599];
  need(
    absent(f.status) || isInteger(f.status, min, max),
    `status must be an integer between ${min} and ${max} for kind ${kind}`,
  );
  need(
    absent(f.body) || typeof f.body === 'string' || isPlainObject(f.body) || Array.isArray(f.body),
    'body must be a string, or a JSON object or array',
  );
  const headers = f.headers ?? {};
  need(isPlainObject(headers), 'headers must be an object of strings');
  for (const [name, value] of Object.entries(headers)) {
    need(HEADER_NAME.test(name), `invalid header name: ${name}`);
    need(isHeaderValue(value), `invalid value for header ${name}`);
  }
  need(absent(f.retryAfter) || isHeaderValue(f.retryAfter), 'retryAfter must be a string');
  need(absent(f.location) || (isHeaderValue(f.location) && f.location !== ''), 'location must be a non-empty string');
  need(kind !== 'redirect' || f.location !== undefined, 'location is required for kind redirect');
  need(
    absent(f.delayMs) || isInteger(f.delayMs, 0, MAX_DELAY_MS),
    `delayMs must be an integer between 0 and ${MAX_DELAY_MS}`,
  );
  const given: Record<string, unknown> = { ...f, times, method: (f.method as string | undefined)?.toUpperCase() };
  const out: Record<string, unknown> = { kind };
  for (const key of FAULT_KEYS) if (key !== 'kind' && given[key] !== undefined) out[key] = given[key];
  return { ...out, remaining: times } as QueuedFault;
}

/**
 * Consumes one use of the first queued fault matching the request. One without `path` hits API requests only, not
 * the public document; a path matches exactly, or as a prefix when it ends with "*".
 */
export function takeFault(queue: QueuedFault[], method: string, path: string): Fault | undefined {
  const index = queue.findIndex((fault) => {
    if (fault.method !== undefined && fault.method !== method.toUpperCase()) return false;
    if (fault.path === undefined) return path !== `${API_PREFIX}/openapi.json`;
    return fault.path.endsWith('*') ? path.startsWith(fault.path.slice(0, -1)) : path === fault.path;
  });
  const fault = queue[index];
  if (fault && --fault.remaining <= 0) queue.splice(index, 1);
  return fault;
}

const TRUNCATED_BODY = JSON.stringify({
  id: 'mon_aaaaaaaaaaaa',
  name: 'truncated response',
  status: 'up',
  note: 'this body is cut short by an injected fault; the connection closes before Content-Length bytes arrive',
});

function defaultHtml(status: number): string {
  const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
  return `<!DOCTYPE html>\n<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center><hr><center>emulated-gateway</center></body></html>\n`;
}

/** The standard error object body used when a fault does not give its own body. */
function injectedErrorBody(status: number, requestId: string): string {
  const reason = (STATUS_CODES[status] ?? 'error').toLowerCase();
  return JSON.stringify({ error: `${reason} (injected fault)`, request_id: requestId });
}

/** Writes (or withholds) the faulty answer. `requestId` is already set as a header. */
export function applyFault(fault: Fault, req: IncomingMessage, res: ServerResponse, requestId: string): void {
  const kind = fault.kind ?? 'status';
  if (kind === 'hang') return; // the socket stays open until the client gives up or close() runs
  // A TCP RST where supported (Node >= 16.17), so clients see ECONNRESET.
  // commit-reset resets too, once the request was handled (server.ts does that part).
  if (kind === 'reset' || kind === 'commit-reset') return void req.socket.resetAndDestroy();
  const status = (res.statusCode = fault.status ?? DEFAULT_STATUS[kind]);
  let body: Buffer | undefined;
  if (kind === 'redirect') {
    res.setHeader('Location', fault.location ?? '/');
    res.setHeader('Content-Length', '0');
  } else if (kind !== 'truncated' && kind !== 'stall' && (status === 204 || status === 304)) {
    // These statuses cannot carry a body (RFC 9110); headers only.
  } else {
    const fallback =
      kind === 'html' ? defaultHtml(status) : kind === 'status' ? injectedErrorBody(status, requestId) : TRUNCATED_BODY;
    const given = typeof fault.body === 'string' || fault.body === undefined ? fault.body : JSON.stringify(fault.body);
    body = Buffer.from(given ?? fallback, 'utf8');
    res.setHeader('Content-Type', kind === 'html' ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8');
    res.setHeader('Content-Length', String(body.length));
  }
  if (fault.retryAfter !== undefined) res.setHeader('Retry-After', fault.retryAfter);
  for (const [name, value] of Object.entries(fault.headers ?? {})) res.setHeader(name, value);
  if (body && (kind === 'truncated' || kind === 'stall'))
    // Half the promised bytes, then the connection dies (truncated) or stays silent until someone gives up (stall).
    return void res.write(body.subarray(0, Math.floor(body.length / 2)), () => {
      if (kind === 'truncated') req.socket.destroy();
    });
  res.end(body);
}

/** An outage: the checks of every monitor whose target contains `target` (any case) come out down or slow. */
export interface Outage {
  target: string;
  outcome: 'down' | 'slow';
}

/** Checks and normalises an outage; throws a Refusal. */
export function normalizeOutage(input: unknown): Outage {
  const o = fieldsOf(input, 'outage', ['target', 'outcome']);
  need(typeof o.target === 'string' && o.target !== '', 'target must be a non-empty string');
  const outcome = o.outcome ?? 'down';
  need(outcome === 'down' || outcome === 'slow', 'outcome must be down or slow');
  return { target: o.target as string, outcome: outcome as Outage['outcome'] };
}
