// Admin routes under /__emulator: fault queue and request log. They are not
// part of the emulated service, so they answer a plain 404 (indistinguishable
// from any unknown path) unless X-Emulator-Admin carries the admin secret.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { redactAuthorization, redactTokens } from './auth.js';
import { FaultError, normalizeFault, normalizeOutage, type Fault, type FaultQueue, type Outage } from './faults.js';
import { ADMIN_HEADER, ADMIN_PREFIX } from './model.js';
import { sendError, sendJson, type ReadBody } from './respond.js';
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

export interface AdminContext {
  req: IncomingMessage;
  res: ServerResponse;
  path: string;
  body: ReadBody;
  adminSecret: string;
  faults: FaultQueue;
  requests: RecordedRequest[];
  /** The tokens the emulator knows: masked in the request log wherever they appear. */
  tokens?: Iterable<string>;
  /** Outages the simulated checks obey (GET/POST/DELETE /__emulator/outages). */
  outages?: Outage[];
  /** The state, for the checks' history (and export, import, reset). */
  store?: Store;
}

/** Constant-time comparison; hashing first makes the lengths equal. */
export function secretMatches(given: string | string[] | undefined, secret: string): boolean {
  if (typeof given !== 'string') return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(secret).digest();
  return timingSafeEqual(a, b);
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
export function redactRequest(r: RecordedRequest, secrets: Iterable<string> = []): RecordedRequest {
  const all = [...secrets, ...carriedSecrets(r.headers)].sort((a, b) => b.length - a.length);
  const mask = (text: string) => redactTokens(text, all);
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(r.headers)) {
    if (value === undefined) continue;
    if (name === 'authorization' && typeof value === 'string') headers[name] = redactAuthorization(value);
    else if (name === 'proxy-authorization' || name === ADMIN_HEADER) headers[name] = '…';
    else headers[name] = Array.isArray(value) ? value.map(mask) : mask(value);
  }
  return {
    method: r.method,
    path: mask(r.path),
    headers,
    body: mask(r.body),
    receivedAt: r.receivedAt,
    status: r.status,
    ...(r.latencyMs === undefined ? {} : { latencyMs: r.latencyMs }),
  };
}

const ADMIN_ROUTES: Record<string, string[]> = {
  [`${ADMIN_PREFIX}/faults`]: ['GET', 'POST', 'DELETE'],
  [`${ADMIN_PREFIX}/requests`]: ['GET', 'DELETE'],
  [`${ADMIN_PREFIX}/outages`]: ['GET', 'POST', 'DELETE'],
  [`${ADMIN_PREFIX}/checks`]: ['GET'],
  [`${ADMIN_PREFIX}/state`]: ['GET', 'PUT', 'DELETE'],
};

/** The request body as JSON (an object, or an array when `arrays`), or an error already sent. */
function jsonOf(ctx: AdminContext, arrays: boolean): { ok: true; value: unknown } | { ok: false } {
  const { res } = ctx;
  if (ctx.body.tooLarge) {
    sendError(res, 413, 'request body too large');
    return { ok: false };
  }
  const text = ctx.body.text.trim();
  if (arrays && text.startsWith('[')) {
    try {
      return { ok: true, value: JSON.parse(text) };
    } catch {
      sendError(res, 400, 'malformed JSON body');
      return { ok: false };
    }
  }
  const object = parseJsonObject(text);
  if (!object.ok) {
    sendError(res, 400, object.message);
    return { ok: false };
  }
  return { ok: true, value: object.value };
}

export function handleAdmin(ctx: AdminContext): void {
  const { req, res, path, faults, requests } = ctx;
  if (!secretMatches(req.headers[ADMIN_HEADER], ctx.adminSecret)) return sendError(res, 404, 'not found');
  const allowed = ADMIN_ROUTES[path];
  if (!allowed) return sendError(res, 404, 'not found');
  const method = req.method ?? 'GET';
  if (!allowed.includes(method)) {
    return sendError(res, 405, `method ${method} not allowed; allowed: ${allowed.join(', ')}`, {
      Allow: allowed.join(', '),
    });
  }

  if (path === `${ADMIN_PREFIX}/requests`) {
    if (method === 'GET')
      return sendJson(res, 200, { requests: requests.map((r) => redactRequest(r, ctx.tokens ?? [])) });
    const cleared = requests.length;
    requests.length = 0;
    return sendJson(res, 200, { ok: true, cleared });
  }

  if (path === `${ADMIN_PREFIX}/outages`) {
    const outages = ctx.outages ?? [];
    if (method === 'GET') return sendJson(res, 200, { outages });
    if (method === 'DELETE') return sendJson(res, 200, { ok: true, cleared: outages.splice(0).length });
    const parsed = jsonOf(ctx, false);
    if (!parsed.ok) return;
    try {
      outages.push(normalizeOutage(parsed.value));
    } catch (err) {
      if (err instanceof FaultError) return sendError(res, 422, err.message);
      throw err;
    }
    return sendJson(res, 201, { ok: true, outages });
  }

  if (path === `${ADMIN_PREFIX}/state` && ctx.store) {
    // Export (GET), import replacing everything (PUT), reset to the start (DELETE).
    if (method === 'GET') return sendJson(res, 200, ctx.store.snapshot());
    if (method === 'DELETE') {
      ctx.store.reset();
      return sendJson(res, 200, { ok: true });
    }
    const parsed = jsonOf(ctx, false);
    if (!parsed.ok) return;
    try {
      ctx.store.replace(parsed.value);
    } catch (err) {
      return sendError(res, 422, (err as Error).message);
    }
    return sendJson(res, 200, { ok: true });
  }

  if (path === `${ADMIN_PREFIX}/checks`) {
    const id = new URL(req.url ?? '/', 'http://x').searchParams.get('monitor');
    if (id === null) return sendError(res, 400, 'the monitor query parameter is required: ?monitor=mon_...');
    const checks = ctx.store?.checkHistory(id);
    if (checks === undefined) return sendError(res, 404, 'monitor not found');
    return sendJson(res, 200, { monitor: id, checks });
  }

  if (method === 'GET') return sendJson(res, 200, { faults: faults.list() });
  if (method === 'DELETE') return sendJson(res, 200, { ok: true, cleared: faults.clear() });

  // POST: one fault object, or an array of them queued in order; all or nothing.
  const body = jsonOf(ctx, true);
  if (!body.ok) return;
  const parsed = body.value;
  const list = Array.isArray(parsed) ? parsed : [parsed];
  let normalized: Fault[];
  try {
    normalized = list.map(normalizeFault);
  } catch (err) {
    if (err instanceof FaultError) return sendError(res, 422, err.message);
    throw err;
  }
  for (const fault of normalized) faults.add(fault);
  return sendJson(res, 201, { ok: true, queued: normalized.length, pending: faults.list().length });
}
