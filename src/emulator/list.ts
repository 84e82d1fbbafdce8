// The list operations (GET /monitors, /channels, /reports): cursor pagination.
// Items are ordered by id, so a page boundary survives deletions; the cursor
// is the last id of the previous page, base64url-encoded (opaque to clients).
// Page shape: {"data": [...], "next_cursor": "<cursor>" | null}. Published in
// the OpenAPI document (openapi.ts) with x-pagination.
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, MONITOR_STATUSES, MONITOR_TYPES } from './model.js';
import { monitorJson, type Store } from './store.js';

type Result = { ok: true; value: { data: unknown[]; next_cursor: string | null } } | { ok: false; message: string };
type ListOperation = 'listMonitors' | 'listChannels' | 'listReports';

/** Query parameters each list accepts (anything else is a 400, so typos are not silently ignored). */
export const LIST_PARAMETERS: Record<ListOperation, readonly string[]> = {
  listMonitors: ['limit', 'cursor', 'status', 'type'],
  listChannels: ['limit', 'cursor'],
  listReports: ['limit', 'cursor'],
};

export const encodeCursor = (id: string): string => Buffer.from(id, 'utf8').toString('base64url');

function decodeCursor(cursor: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  return encodeCursor(id) === cursor ? id : undefined;
}

export function listPage(operation: ListOperation, store: Store, account: string, query: string): Result {
  const params = new URLSearchParams(query);
  for (const key of new Set(params.keys())) {
    if (!LIST_PARAMETERS[operation].includes(key))
      return {
        ok: false,
        message: `unknown query parameter ${key}; allowed: ${LIST_PARAMETERS[operation].join(', ')}`,
      };
  }
  let limit = LIST_LIMIT_DEFAULT;
  const rawLimit = params.get('limit');
  if (rawLimit !== null) {
    if (!/^\d{1,4}$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > LIST_LIMIT_MAX)
      return { ok: false, message: `invalid limit: expected an integer from 1 to ${LIST_LIMIT_MAX}` };
    limit = Number(rawLimit);
  }
  let after: string | undefined;
  const rawCursor = params.get('cursor');
  if (rawCursor !== null && rawCursor !== '') {
    after = decodeCursor(rawCursor);
    if (after === undefined) return { ok: false, message: 'invalid cursor' };
  }
  let items: Array<{ id: string; json: () => unknown }>;
  if (operation === 'listMonitors') {
    const status = params.get('status');
    const type = params.get('type');
    if (status !== null && !(MONITOR_STATUSES as readonly string[]).includes(status))
      return { ok: false, message: `invalid status: expected one of ${MONITOR_STATUSES.join(', ')}` };
    if (type !== null && !(MONITOR_TYPES as readonly string[]).includes(type))
      return { ok: false, message: `invalid type: expected one of ${MONITOR_TYPES.join(', ')}` };
    items = store
      .listMonitors(account)
      .filter((m) => (status === null || m.status === status) && (type === null || m.type === type))
      .map((m) => ({ id: m.id, json: () => monitorJson(m) }));
  } else if (operation === 'listChannels') {
    items = store.listChannels(account).map((c) => ({ id: c.id, json: () => ({ ...c, events: [...c.events] }) }));
  } else {
    items = store.listReports(account).map((r) => ({ id: String(r.id), json: () => r }));
  }
  items.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const start = after === undefined ? 0 : items.findIndex((item) => item.id > after);
  const page = start < 0 ? [] : items.slice(start, start + limit);
  const more = start >= 0 && start + limit < items.length;
  const last = page[page.length - 1];
  return {
    ok: true,
    value: { data: page.map((item) => item.json()), next_cursor: more && last ? encodeCursor(last.id) : null },
  };
}
