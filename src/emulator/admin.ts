// Admin routes under /__emulator: fault queue and request log. They are not
// part of the emulated service, so they answer a plain 404 (indistinguishable
// from any unknown path) unless X-Emulator-Admin carries the admin secret.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { redactAuthorization, redactTokens } from './auth.js';
import { normalizeFault, normalizeOutage, type Outage, type QueuedFault } from './faults.js';
import { matchRoute } from './contract.js';
import { ADMIN_HEADER } from './model.js';
import { Refusal, refuseRoute, type ReadBody, type Reply } from './respond.js';
import type { Store } from './store.js';
import { parseJsonObject } from './validation.js';
import { matchesPattern, normalizePattern } from './verify.js';

export interface RecordedRequest {
  method: string;
  /** Raw URL as received, e.g. '/v1/monitors/a%2Fb?x=1'. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Arrival time, ms since the epoch (Date.now()): lets tests check the waits between attempts. */
  receivedAt: number;
  /**
   * The id sent back in X-Request-Id (and in an error body's request_id, whose name it takes): an error a script
   * logged leads to its request here.
   */
  request_id: string;
  /** The status answered; null while unanswered, or when no answer was sent (a reset, a hang). */
  status: number | null;
  /** Milliseconds from arrival to the end of the answer (absent while unanswered). */
  latencyMs?: number;
}

interface AdminContext {
  req: IncomingMessage;
  path: string;
  body: ReadBody;
  adminSecret: string;
  faults: QueuedFault[];
  requests: RecordedRequest[];
  /** The tokens the emulator knows: masked in the request log wherever they appear. */
  tokens: Iterable<string>;
  /** Outages the simulated checks obey (GET/POST/DELETE /__emulator/outages). */
  outages: Outage[];
  /** The state, for the checks' history (and export, import, reset). */
  store: Store;
  /** The admin routes' own document, served under the secret like every route it describes. */
  document: Record<string, unknown>;
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
 * A recorded request safe to hand out: a token known, carried or token-shaped is shown by its last 4 characters
 * wherever it appears; a proxy's credentials and the admin secret not at all.
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

/** The request body as JSON (an object, or an array when `arrays`); a 400 or 413 Refusal when it is not. */
function jsonOf(body: ReadBody, arrays: boolean): unknown {
  if (body.tooLarge) throw new Refusal(413, 'request body too large');
  const text = body.text.trim();
  if (!arrays || !text.startsWith('[')) return parseJsonObject(text);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Refusal(400, 'malformed JSON body');
  }
}

/** The admin operations, by the admin document's operationId. */
const HANDLERS: Record<string, (ctx: AdminContext) => Reply> = {
  getAdminDocument: ({ document }) => ({ status: 200, body: document }),
  listRequests: ({ requests, tokens }) => ({
    status: 200,
    body: { requests: requests.map((r) => redactRequest(r, tokens)) },
  }),
  // Verification, as WireMock's /__admin/requests/count and /find: matched against the log as listRequests shows it.
  countRequests: ({ body, requests, tokens }) => {
    const pattern = normalizePattern(jsonOf(body, false));
    return {
      status: 200,
      body: { count: requests.filter((r) => matchesPattern(pattern, redactRequest(r, tokens))).length },
    };
  },
  findRequests: ({ body, requests, tokens }) => {
    const pattern = normalizePattern(jsonOf(body, false));
    const found = requests.map((r) => redactRequest(r, tokens)).filter((r) => matchesPattern(pattern, r));
    return { status: 200, body: { requests: found } };
  },
  clearRequests: ({ requests }) => ({ status: 200, body: { ok: true, cleared: requests.splice(0).length } }),
  listOutages: ({ outages }) => ({ status: 200, body: { outages } }),
  // An outage starts and ends now: the checks due before it run first, as they would have (reports count them).
  clearOutages: ({ outages, store }) => {
    store.runDueChecks();
    return { status: 200, body: { ok: true, cleared: outages.splice(0).length } };
  },
  addOutage({ body, outages, store }) {
    const outage = normalizeOutage(jsonOf(body, false));
    store.runDueChecks();
    outages.push(outage);
    return { status: 201, body: { ok: true, outages } };
  },
  exportState: ({ store }) => ({ status: 200, body: store.snapshot() }),
  resetState({ store }) {
    store.reset();
    return { status: 200, body: { ok: true } };
  },
  importState({ body, store }) {
    const state = jsonOf(body, false);
    try {
      store.replace(state);
    } catch (error) {
      throw new Refusal(422, (error as Error).message); // a state that does not fit
    }
    return { status: 200, body: { ok: true } };
  },
  listChecks({ req, store }) {
    const id = new URL(req.url ?? '/', 'http://x').searchParams.get('monitor');
    if (id === null) throw new Refusal(400, 'the monitor query parameter is required: ?monitor=mon_...');
    const checks = store.checkHistory(id);
    if (checks === undefined) throw new Refusal(404, 'monitor not found');
    return { status: 200, body: { monitor: id, checks } };
  },
  listFaults: ({ faults }) => ({ status: 200, body: { faults } }),
  clearFaults: ({ faults }) => ({ status: 200, body: { ok: true, cleared: faults.splice(0).length } }),
  // One fault object, or an array of them queued in order; all or nothing.
  queueFault({ body, faults }) {
    const parsed = jsonOf(body, true);
    const normalized = (Array.isArray(parsed) ? parsed : [parsed]).map(normalizeFault);
    for (const fault of normalized) faults.push(fault);
    return { status: 201, body: { ok: true, queued: normalized.length, pending: faults.length } };
  },
};

export function handleAdmin(ctx: AdminContext): Reply {
  const { req, path } = ctx;
  const route = matchRoute(req.method ?? 'GET', path);
  // Without the secret, nothing here exists.
  if (!secretMatches(req.headers[ADMIN_HEADER], ctx.adminSecret)) throw new Refusal(404, 'not found');
  if (route.kind !== 'operation') return refuseRoute(route, req.method ?? 'GET');
  return (HANDLERS[route.operation.id] as (ctx: AdminContext) => Reply)(ctx);
}
