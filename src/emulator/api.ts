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
import { isJsonContentType, sendError, sendJson, sendNoContent, type ReadBody } from './respond.js';
import { monitorJson, type Store } from './store.js';
import { listPage } from './list.js';
import { monitorInput, parseJsonObject, validateChannelPatch, validateMonitor } from './validation.js';

export interface ApiContext {
  req: IncomingMessage;
  res: ServerResponse;
  body: ReadBody;
  route: Route;
  store: Store;
  tokens: ReadonlyMap<string, TokenInfo>;
  /** The raw query string (without "?"): only list operations read it. */
  query?: string;
}

/** Step 5: the body of a POST/PATCH as a JSON object, or an error already sent. */
function jsonBody(ctx: ApiContext): Record<string, unknown> | undefined {
  const { res, body, req } = ctx;
  if (body.tooLarge) {
    sendError(res, 413, `request body exceeds ${MAX_BODY_BYTES} bytes`);
    return undefined;
  }
  if (body.text.trim() !== '' && !isJsonContentType(req.headers['content-type'])) {
    sendError(res, 415, 'Content-Type must be application/json');
    return undefined;
  }
  const parsed = parseJsonObject(body.text);
  if (!parsed.ok) {
    sendError(res, parsed.status, parsed.message);
    return undefined;
  }
  return parsed.value;
}

export function handleApi(ctx: ApiContext): void {
  const { req, res, route, store } = ctx;
  const auth = authenticate(req.headers.authorization, ctx.tokens, (a) => store.isSuspended(a));
  if (!auth.ok) {
    sendError(res, auth.status, auth.message, auth.challenge ? { 'WWW-Authenticate': auth.challenge } : {});
    return;
  }
  if (route.kind === 'not-found') {
    sendError(res, 404, 'not found');
    return;
  }
  if (route.kind === 'method-not-allowed') {
    sendError(res, 405, `method ${req.method} not allowed; allowed: ${route.allow.join(', ')}`, {
      Allow: route.allow.join(', '),
    });
    return;
  }
  const scope = route.operation.spec['x-required-scope'] as Scope;
  if (!auth.scopes.has(scope)) {
    const denied = scopeError(scope);
    if (!denied.ok)
      sendError(res, denied.status, denied.message, denied.challenge ? { 'WWW-Authenticate': denied.challenge } : {});
    return;
  }
  const account = auth.account;
  const id = route.id;

  switch (route.operation.id) {
    case 'createMonitor': {
      const body = jsonBody(ctx);
      if (!body) return;
      const valid = validateMonitor(body);
      if (!valid.ok) return sendError(res, valid.status, valid.message);
      const monitor = store.createMonitor(account, monitorInput(valid.value.fields), valid.value.extras);
      return sendJson(res, 201, monitorJson(monitor), { Location: `${API_PREFIX}/monitors/${monitor.id}` });
    }
    case 'getMonitor': {
      const monitor = id === null ? undefined : store.getMonitor(account, id);
      if (!monitor) return sendError(res, 404, 'monitor not found');
      store.runPendingCheck(monitor);
      return sendJson(res, 200, monitorJson(monitor));
    }
    case 'updateMonitor': {
      const monitor = id === null ? undefined : store.getMonitor(account, id);
      if (!monitor) return sendError(res, 404, 'monitor not found');
      const body = jsonBody(ctx);
      if (!body) return;
      const valid = validateMonitor(body, monitor);
      if (!valid.ok) return sendError(res, valid.status, valid.message);
      store.updateMonitor(monitor, valid.value);
      return sendJson(res, 200, monitorJson(monitor));
    }
    case 'deleteMonitor': {
      if (id === null || !store.deleteMonitor(account, id)) return sendError(res, 404, 'monitor not found');
      return sendNoContent(res);
    }
    case 'updateChannel': {
      const channel = id === null ? undefined : store.getChannel(account, id);
      if (!channel) return sendError(res, 404, 'channel not found');
      const body = jsonBody(ctx);
      if (!body) return;
      const valid = validateChannelPatch(body, channel.kind);
      if (!valid.ok) return sendError(res, valid.status, valid.message);
      store.updateChannel(channel, valid.value);
      return sendJson(res, 200, { ok: true });
    }
    case 'listMonitors':
    case 'listChannels':
    case 'listReports': {
      const page = listPage(route.operation, store, account, ctx.query ?? '');
      if (!page.ok) return sendError(res, 400, page.message);
      return sendJson(res, 200, page.value);
    }
    case 'getReport': {
      const report = id === null ? undefined : store.getReport(account, id);
      if (!report) return sendError(res, 404, 'report not found');
      return sendJson(res, 200, report);
    }
  }
}
