// Following a declared list operation to the end, page by page, by the one
// rule of src/core/api/spec.ts (declaredPagination): the cursor parameter fed from the
// previous page's next-cursor field, until that is null, absent or empty.
// Pages are yielded as they arrive, so rows stream.
//
// Bounded against a server that never ends: a cursor seen before, a page
// that repeats the previous one, or more than MAX_LIST_PAGES pages ends the
// listing with an error rather than a loop. Nothing is kept per item: the
// repeat checks keep a digest per page, so a list's memory stays flat
// however long it is.
import { createHash } from 'node:crypto';
import { ApiError } from '../errors.js';
import { isPlainObject, stringifyJson } from '../json.js';
import type { Api } from './client.js';
import type { ListOperation } from './spec.js';

/** 1,000,000 items at the emulator's largest page (100): far beyond any account. */
export const MAX_LIST_PAGES = 10_000;

export interface ListOptions {
  /** --param key=value pairs, already checked against the declared parameters. */
  params: ReadonlyArray<readonly [string, string]>;
  /** Stop after this many items (--limit). */
  limit?: number | undefined;
  /** Told the headers of each page before its items are yielded (e.g. the service's Date). */
  onHeaders?: ((headers: Record<string, string>) => void) | undefined;
}

/** The items of each page, in order, until the end or the limit. */
export async function* listItems(api: Api, op: ListOperation, options: ListOptions): AsyncGenerator<unknown[]> {
  const { cursor, limitParam } = op.pagination;
  const declaredMax = op.params.find((p) => p.name === limitParam)?.maximum;
  // Ask for big pages (the declared maximum), or no more than --limit wants.
  const pageSize = options.limit === undefined ? declaredMax : Math.min(declaredMax ?? Infinity, options.limit);
  const base: [string, string][] = options.params.map(([k, v]) => [k, v]);
  if (limitParam && pageSize !== undefined && !base.some(([k]) => k === limitParam))
    base.push([limitParam, String(pageSize)]);

  const url = api.baseUrl + op.path;
  let remaining = options.limit ?? Infinity;
  let query: [string, string][] = base;
  const seen = new Set<string>();
  let previous: string | undefined;
  for (let pages = 1; remaining > 0; pages++) {
    if (pages > MAX_LIST_PAGES) throw loopError(url, `more than ${MAX_LIST_PAGES} pages`);
    const body = await api.listPage(op.path, query, options.onHeaders);
    const items = pageItems(body, op, url);
    const page = digest(stringifyJson(items));
    if (items.length > 0 && page === previous) throw loopError(url, 'the same page twice');
    previous = page;
    const take = items.length <= remaining ? items : items.slice(0, remaining);
    remaining -= take.length;
    if (take.length > 0) yield take;
    if (remaining <= 0 || items.length === 0 || !cursor) return;
    const next = isPlainObject(body) ? body[cursor.nextField] : undefined;
    if (typeof next !== 'string' || next === '') return;
    const key = digest(next);
    if (seen.has(key)) throw loopError(url, `the cursor "${next.slice(0, 40)}" twice`);
    seen.add(key);
    query = [...base, [cursor.param, next]];
  }
}

/** A fixed-size stand-in for a page or a cursor, however long the server made it. */
function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64');
}

function pageItems(body: unknown, op: ListOperation, url: string): unknown[] {
  const items = op.itemsField === undefined ? body : isPlainObject(body) ? body[op.itemsField] : undefined;
  if (Array.isArray(items)) return items;
  const where = op.itemsField === undefined ? 'a JSON array' : `an array in "${op.itemsField}"`;
  throw listError(url, `unexpected response to GET ${url}: expected ${where}, as the service's document declares`);
}

/** A service that does not stop. */
function loopError(url: string, what: string): ApiError {
  return listError(url, `the service sent ${what} while listing ${url}; stopped to avoid a loop`);
}

/** A page the listing cannot go on from: answered 200, so the documented exit code of an unexpected response (1). */
function listError(url: string, message: string): ApiError {
  return new ApiError(message, { status: 200, method: 'GET', url });
}
