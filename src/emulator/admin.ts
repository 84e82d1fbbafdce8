// Admin routes under /__emulator: fault queue and request log. They are not
// part of the emulated service, so they answer a plain 404 (indistinguishable
// from any unknown path) unless X-Emulator-Admin carries the admin secret.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { redactAuthorization, redactTokens } from './auth.js';
import { FaultError, normalizeFault, normalizeOutage, type FaultQueue, type Outage } from './faults.js';
import { matchRoute } from './contract.js';
import { ADMIN_HEADER } from './model.js';
import { refuseRoute, sendError, sendJson, type ReadBody } from './respond.js';
import type { Store } from './store.js';
import { parseJsonObject } from './validation.js';

export interface RecordedRequest {
  method: string;
  /** Raw URL as received, e.g. '/v1/monitors/a%2Fb?x=1'. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Arrival time, ms since the epoch (Date.now()): lets tests check the waits between attempts. */
  receivedAt: number;
  /** The status answered; null while unanswered, or when no answer was sent (a reset, a hang). */
  status: number | null;
  /** Milliseconds from arrival to the end of the answer (absent while unanswered). */
  latencyMs?: number;
}

interface AdminContext {
  req: IncomingMessage;
  res: ServerResponse;
  path: string;
  body: ReadBody;
  adminSecret: string;
  faults: FaultQueue;
  requests: RecordedRequest[];
  /** The tokens the emulator knows: masked in the request log wherever they appear. */
  tokens: Iterable<string>;
  /** Outages the simulated checks obey (GET/POST/DELETE /__emulator/outages). */
  outages: Outage[];
  /** The state, for the checks' history (and export, import, reset). */
  store: Store;
}

/** Constant-time comparison; hashing first makes the lengths equal. */
function secretMatches(given: string | string[] | undefined, secret: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return typeof given === 'string' && timingSafeEqual(digest(given), digest(secret));
}

/** The credential a request carried in a header (Authorization's after its scheme, X-Api-Key's), to mask wherever it recurs. */
export function carriedSecrets(headers: IncomingHttpHeaders): string[] {
  const out: string[] = [];
  for (const name of ['authorization', 'proxy-authorization', 'x-api-key']) {
    const value = headers[name];
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      // "Bearer <token>": the token; a bare value (X-Api-Key's): all of it.
      const credential = /^\S+\s+(\S.*)$/.exec(one.trim())?.[1];
      out.push(credential ?? one.trim());
    }
  }
  return out;
}

/**
 * Copy of a recorded request safe to hand out: a token is shown by its last
 * 4 characters wherever it appears (path, query, body, any header: cookie,
 * x-api-key), whether the emulator knows it (`secrets`), the request carried
 * it, or it merely looks like one; a proxy's credentials and the admin secret
 * not at all.
 */
function redactRequest(r: RecordedRequest, secrets: Iterable<string> = []): RecordedRequest {
  const all = [...secrets, ...carriedSecrets(r.headers)].sort((a, b) => b.length - a.length);
  const mask = (text: string) => redactTokens(text, all);
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(r.headers)) {
    if (value === undefined) continue;
    if (name === 'authorization' && typeof value === 'string') headers[name] = redactAuthorization(value);
    else if (name === 'proxy-authorization' || name === ADMIN_HEADER) headers[name] = '…';
    else headers[name] = Array.isArray(value) ? value.map(mask) : mask(value);
  }
  return { ...r, path: mask(r.path), headers, body: mask(r.body) };
}

/** The request body as JSON (an object, or an array when `arrays`), or undefined with an error already sent. */
function jsonOf(ctx: AdminContext, arrays: boolean): unknown {
  const { res } = ctx;
  if (ctx.body.tooLarge) return sendError(res, 413, 'request body too large');
  const text = ctx.body.text.trim();
  if (arrays && text.startsWith('[')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return sendError(res, 400, 'malformed JSON body');
    }
  }
  const object = parseJsonObject(text);
  return typeof object === 'string' ? sendError(res, 400, object) : object;
}

/**
 * What `check` returns, or undefined after answering 422 with the message of the
 * FaultError it throws (of any error with `anyError`: a state that does not fit); other errors propagate.
 */
function unlessInvalid<T>(res: ServerResponse, check: () => T, anyError = false): T | undefined {
  try {
    return check();
  } catch (err) {
    if (!anyError && !(err instanceof FaultError)) throw err;
    sendError(res, 422, (err as Error).message);
    return undefined;
  }
}

/** The admin operations, by the admin document's operationId. */
const HANDLERS: Record<string, (ctx: AdminContext) => void> = {
  listRequests: ({ res, requests, tokens }) =>
    sendJson(res, 200, { requests: requests.map((r) => redactRequest(r, tokens)) }),
  clearRequests: ({ res, requests }) => sendJson(res, 200, { ok: true, cleared: requests.splice(0).length }),
  listOutages: ({ res, outages }) => sendJson(res, 200, { outages }),
  clearOutages: ({ res, outages }) => sendJson(res, 200, { ok: true, cleared: outages.splice(0).length }),
  addOutage(ctx) {
    const parsed = jsonOf(ctx, false);
    if (parsed !== undefined && unlessInvalid(ctx.res, () => ctx.outages.push(normalizeOutage(parsed))))
      sendJson(ctx.res, 201, { ok: true, outages: ctx.outages });
  },
  exportState: ({ res, store }) => sendJson(res, 200, store.snapshot()),
  resetState({ res, store }) {
    store.reset();
    sendJson(res, 200, { ok: true });
  },
  importState(ctx) {
    const parsed = jsonOf(ctx, false);
    if (parsed !== undefined && unlessInvalid(ctx.res, () => (ctx.store.replace(parsed), true), true))
      sendJson(ctx.res, 200, { ok: true });
  },
  listChecks({ req, res, store }) {
    const id = new URL(req.url ?? '/', 'http://x').searchParams.get('monitor');
    if (id === null) return sendError(res, 400, 'the monitor query parameter is required: ?monitor=mon_...');
    const checks = store.checkHistory(id);
    if (checks === undefined) return sendError(res, 404, 'monitor not found');
    sendJson(res, 200, { monitor: id, checks });
  },
  listFaults: ({ res, faults }) => sendJson(res, 200, { faults: faults.list() }),
  clearFaults: ({ res, faults }) => sendJson(res, 200, { ok: true, cleared: faults.clear() }),
  // One fault object, or an array of them queued in order; all or nothing.
  queueFault(ctx) {
    const parsed = jsonOf(ctx, true);
    if (parsed === undefined) return;
    const normalized = unlessInvalid(ctx.res, () => (Array.isArray(parsed) ? parsed : [parsed]).map(normalizeFault));
    if (normalized === undefined) return;
    for (const fault of normalized) ctx.faults.add(fault);
    sendJson(ctx.res, 201, { ok: true, queued: normalized.length, pending: ctx.faults.list().length });
  },
};

export function handleAdmin(ctx: AdminContext): void {
  const { req, res, path } = ctx;
  const route = matchRoute(req.method ?? 'GET', path);
  // Without the secret, nothing here exists.
  if (!secretMatches(req.headers[ADMIN_HEADER], ctx.adminSecret)) return sendError(res, 404, 'not found');
  if (route.kind !== 'operation') return refuseRoute(res, route, req.method ?? 'GET');
  HANDLERS[route.operation.id]?.(ctx);
}
