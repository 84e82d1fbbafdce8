// The /v1 API operations. Evaluation order for every request (documented in
// the OpenAPI document as x-evaluation-order):
//   1. authentication (401) and account state (403 suspended)
//   2. routing: unknown path 404 "not found", known path + wrong method 405
//   3. scope of the operation (403)
//   4. existence of the addressed resource (404 "<kind> not found")
//   5. body: 413 too large, 415 not JSON, 400 malformed / not an object
//   6. field validation (422)
// so a caller learns about the most fundamental problem first, and an
// unauthenticated caller learns nothing about which paths or ids exist.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate, scopeError, type TokenInfo } from './auth.js';
import type { Route } from './contract.js';
import { API_PREFIX, MAX_BODY_BYTES, type Scope } from './model.js';
import { isJsonContentType, refuseRoute, sendError, sendJson, sendNoContent, type ReadBody } from './respond.js';
import { monitorJson, type Store } from './store.js';
import { listPage } from './list.js';
import { channelProblem, monitorProblem, parseJsonObject } from './validation.js';

interface ApiContext {
  req: IncomingMessage;
  res: ServerResponse;
  body: ReadBody;
  route: Route;
  store: Store;
  tokens: ReadonlyMap<string, TokenInfo>;
  /** The raw query string (without "?"): only list operations read it. */
  query?: string;
}

/** Steps 5 and 6: the body of a POST/PATCH, if `problemOf` finds nothing wrong, or nothing with the error sent. */
function validBody(
  ctx: ApiContext,
  problemOf: (body: Record<string, unknown>) => string | null,
): Record<string, unknown> | void {
  const { res, body, req } = ctx;
  if (body.tooLarge) return sendError(res, 413, `request body exceeds ${MAX_BODY_BYTES} bytes`);
  if (body.text.trim() !== '' && !isJsonContentType(req.headers['content-type']))
    return sendError(res, 415, 'Content-Type must be application/json');
  const parsed = parseJsonObject(body.text);
  if (typeof parsed === 'string') return sendError(res, 400, parsed);
  const problem = problemOf(parsed);
  return problem === null ? parsed : sendError(res, 422, problem);
}

export function handleApi(ctx: ApiContext): void {
  const { req, res, route, store } = ctx;
  const refuse = (outcome: { status: number; message: string; challenge?: string }) =>
    sendError(res, outcome.status, outcome.message, outcome.challenge ? { 'WWW-Authenticate': outcome.challenge } : {});
  const auth = authenticate(req.headers.authorization, ctx.tokens, (a) => store.isSuspended(a));
  if (!auth.ok) return refuse(auth);
  if (route.kind !== 'operation') return refuseRoute(res, route, req.method ?? 'GET');
  const scope = route.operation.spec['x-required-scope'] as Scope;
  if (!auth.scopes.has(scope)) return refuse(scopeError(scope));
  const account = auth.account;
  const id = route.id;

  switch (route.operation.id) {
    case 'createMonitor': {
      const body = validBody(ctx, (b) => monitorProblem(b));
      if (!body) return;
      const monitor = store.createMonitor(account, body);
      return sendJson(res, 201, monitorJson(monitor), { Location: `${API_PREFIX}/monitors/${monitor.id}` });
    }
    case 'getMonitor': {
      const monitor = store.getMonitor(account, id);
      if (!monitor) return sendError(res, 404, 'monitor not found');
      store.runPendingCheck(account, monitor);
      return sendJson(res, 200, monitorJson(monitor));
    }
    case 'updateMonitor': {
      const monitor = store.getMonitor(account, id);
      if (!monitor) return sendError(res, 404, 'monitor not found');
      const body = validBody(ctx, (b) => monitorProblem(b, monitor));
      if (!body) return;
      store.updateMonitor(account, monitor, body);
      return sendJson(res, 200, monitorJson(monitor));
    }
    case 'deleteMonitor':
      if (!store.deleteMonitor(account, id)) return sendError(res, 404, 'monitor not found');
      return sendNoContent(res);
    case 'updateChannel': {
      const channel = store.getChannel(account, id);
      if (!channel) return sendError(res, 404, 'channel not found');
      const body = validBody(ctx, (b) => channelProblem(b, channel.kind));
      if (!body) return;
      store.updateChannel(account, channel, body);
      return sendJson(res, 200, { ok: true });
    }
    case 'getReport': {
      const report = store.getReport(account, id);
      return report ? sendJson(res, 200, report) : sendError(res, 404, 'report not found');
    }
    default: {
      const page = listPage(route.operation, store, account, ctx.query ?? '');
      return page.ok ? sendJson(res, 200, page.value) : sendError(res, 400, page.message);
    }
  }
}
