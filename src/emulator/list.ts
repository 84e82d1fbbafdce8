// The list operations (GET /monitors, /channels, /reports): cursor pagination.
// Items are ordered by id, so a page boundary survives deletions; the cursor
// is the last id of the previous page, base64url-encoded (opaque to clients).
// Published in openapi.yaml with x-pagination, which also validates the query (contract.ts).
import { queryProblem, type Operation } from './contract.js';
import { LIST_LIMIT_DEFAULT } from './model.js';
import { Refusal } from './respond.js';
import { monitorJson, type Store } from './store.js';

const encodeCursor = (id: string): string => Buffer.from(id, 'utf8').toString('base64url');

/** The id a cursor encodes, or undefined when it is not one this emulator gave. */
function decodeCursor(cursor: string): string | undefined {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  return encodeCursor(id) === cursor ? id : undefined;
}

/** A page of the list, or a 400 Refusal thrown. */
export function listPage(operation: Operation, store: Store, account: string, query: string) {
  // Unknown parameters (a typo is not silently ignored), bad limits and filters: the document's.
  const problem = queryProblem(operation, query);
  if (problem !== null) throw new Refusal(400, problem);
  const params = new URLSearchParams(query);
  const limit = Number(params.get('limit') ?? LIST_LIMIT_DEFAULT);
  const cursor = params.get('cursor') || undefined;
  const after = cursor === undefined ? undefined : decodeCursor(cursor);
  if (cursor !== undefined && after === undefined) throw new Refusal(400, 'invalid cursor');
  let items: Array<{ id: string; json: () => unknown }>;
  if (operation.id === 'listMonitors') {
    const status = params.get('status');
    const type = params.get('type');
    items = store
      .listMonitors(account)
      .filter((m) => (status === null || m.status === status) && (type === null || m.type === type))
      .map((m) => ({ id: m.id, json: () => monitorJson(m) }));
  } else if (operation.id === 'listChannels') {
    items = store.listChannels(account).map((c) => ({ id: c.id, json: () => ({ ...c, events: [...c.events] }) }));
  } else {
    items = store.listReports(account).map((r) => ({ id: String(r.id), json: () => r }));
  }
  items.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const start = after === undefined ? 0 : items.findIndex((item) => item.id > after);
  const page = start < 0 ? [] : items.slice(start, start + limit);
  const more = start >= 0 && start + limit < items.length;
  const last = page[page.length - 1];
  return { data: page.map((item) => item.json()), next_cursor: more && last ? encodeCursor(last.id) : null };
}
