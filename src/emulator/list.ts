// The list operations (GET /monitors, /channels, /reports): cursor pagination.
// Items are ordered by id, so a page boundary survives deletions; the cursor
// is the last id of the previous page, base64url-encoded (opaque to clients).
// The store keeps ids sorted, so a page costs a binary search and its own items.
// Published in openapi.yaml with x-pagination, which also validates the query (contract.ts).
import { queryProblem, type Operation } from './contract.js';
import { LIST_LIMIT_DEFAULT } from './model.js';
import { Refusal } from './respond.js';
import { monitorJson, type MonitorRecord, type Store } from './store.js';

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
  if (operation.id === 'listMonitors') {
    const status = params.get('status');
    const type = params.get('type');
    const keep = (m: MonitorRecord) => (status === null || m.status === status) && (type === null || m.type === type);
    const { page, more } = store.monitorsAfter(account, after, limit, keep);
    return answer(page.map(monitorJson), more);
  }
  if (operation.id === 'listReports') {
    const { page, more } = store.reportsAfter(account, after, limit);
    return answer(page, more);
  }
  // Three channels an account: sorted per page.
  const channels = store
    .listChannels(account)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .filter((c) => after === undefined || c.id > after);
  const page = channels.slice(0, limit).map((c) => ({ ...c, events: [...c.events] }));
  return answer(page, channels.length > limit);
}

/** The page's wire form: its items, and the cursor after the last one when more follow. */
function answer(data: Array<Record<string, unknown>>, more: boolean) {
  const last = data[data.length - 1];
  return { data, next_cursor: more && last ? encodeCursor(String(last.id)) : null };
}
