// The /v1 API operations, each request checked in the order openapi.yaml's x-evaluation-order states
// (1 authentication, 2 routing, 3 scope, 4 existence, 5 body, 6 fields), so a caller learns about the most
// fundamental problem first, and an unauthenticated caller learns nothing about which paths or ids exist.
import type { IncomingMessage } from 'node:http';
import { authenticate, scopeRefusal, type TokenInfo } from './auth.js';
import type { Route } from './contract.js';
import { API_PREFIX, MAX_BODY_BYTES, MONITOR_WRITABLE_FIELDS, type Scope } from './model.js';
import { nearestDoubles, setOwn } from '../core/json.js';
import { foreignCharset, isJsonContentType, Refusal, refuseRoute, type ReadBody, type Reply } from './respond.js';
import { monitorJson, type Store } from './store.js';
import { listPage } from './list.js';
import { channelProblem, monitorProblem, parseJsonObject } from './validation.js';

/** A monitor's own fields are typed; any other field is the client's, kept as sent (its schema is open). */
const monitorTyped = (field: string) => (MONITOR_WRITABLE_FIELDS as readonly string[]).includes(field);

interface ApiContext {
  req: IncomingMessage;
  body: ReadBody;
  route: Route;
  store: Store;
  tokens: ReadonlyMap<string, TokenInfo>;
  /** The raw query string (without "?"): only list operations read it. */
  query?: string;
}

/**
 * Steps 5 and 6: the body of a POST/PATCH, refused unless `problemOf` finds
 * nothing wrong with it. Its numbers are read exactly: the fields the service
 * types (`typed`) hold their nearest double, the fields of an open object
 * keep what the client wrote, as they pass through.
 */
function validBody(
  ctx: ApiContext,
  problemOf: (body: Record<string, unknown>) => string | null,
  typed: (field: string) => boolean,
) {
  const { body, req } = ctx;
  if (body.tooLarge) throw new Refusal(413, `request body exceeds ${MAX_BODY_BYTES} bytes`);
  if (body.text.trim() !== '' && !isJsonContentType(req.headers['content-type']))
    throw new Refusal(415, 'Content-Type must be application/json');
  const charset = foreignCharset(req.headers['content-type']);
  if (charset !== undefined) throw new Refusal(415, `charset ${charset} is not supported: send the body as UTF-8`);
  const parsed = parseJsonObject(body.text, { exact: true });
  for (const [field, value] of Object.entries(parsed)) if (typed(field)) setOwn(parsed, field, nearestDoubles(value));
  const problem = problemOf(parsed);
  if (problem !== null) throw new Refusal(422, problem);
  return parsed;
}

export function handleApi(ctx: ApiContext): Reply {
  const { req, route, store } = ctx;
  const auth = authenticate(req.headersDistinct.authorization, ctx.tokens, (a) => store.isSuspended(a));
  if (route.kind !== 'operation') return refuseRoute(route, req.method ?? 'GET');
  const scope = route.operation.spec['x-required-scope'] as Scope;
  if (!auth.scopes.has(scope)) throw scopeRefusal(scope);
  const account = auth.account;
  const id = route.id;
  const monitor = () => store.getMonitor(account, id) ?? notFound('monitor');

  switch (route.operation.id) {
    case 'createMonitor': {
      const created = store.createMonitor(account, validBody(ctx, monitorProblem, monitorTyped));
      return { status: 201, body: monitorJson(created), headers: { Location: `${API_PREFIX}/monitors/${created.id}` } };
    }
    case 'getMonitor': {
      const found = monitor();
      store.runPendingCheck(account, found);
      return { status: 200, body: monitorJson(found) };
    }
    case 'updateMonitor': {
      const found = monitor();
      const body = validBody(ctx, (b) => monitorProblem(b, found), monitorTyped);
      store.updateMonitor(account, found, body);
      return { status: 200, body: monitorJson(found) };
    }
    case 'deleteMonitor':
      if (!store.deleteMonitor(account, id)) notFound('monitor');
      return { status: 204 };
    case 'updateChannel': {
      const channel = store.getChannel(account, id) ?? notFound('channel');
      const body = validBody(
        ctx,
        (b) => channelProblem(b, channel.kind),
        () => true,
      );
      store.updateChannel(account, channel, body);
      return { status: 200, body: { ok: true } };
    }
    case 'getReport':
      return { status: 200, body: store.getReport(account, id) ?? notFound('report') };
    default:
      return { status: 200, body: listPage(route.operation, store, account, ctx.query ?? '') };
  }
}

function notFound(kind: string): never {
  throw new Refusal(404, `${kind} not found`);
}
