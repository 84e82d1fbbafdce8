// Following a declared list operation to the end, page by page, as the
// service's document says it pages (src/api/spec.ts): a cursor parameter fed
// from a field of the previous page, a `Link: rel="next"` header, or a page
// number. Pages are yielded as they arrive, so rows stream.
//
// Bounded against a server that never ends: a cursor (or next link) seen
// before, or a page that repeats the previous one, ends the listing with an
// error rather than a loop.
import { ApiError } from '../errors.js';
import { isPlainObject } from '../parse/fields.js';
import type { Api } from './client.js';
import type { ListOperation } from './spec.js';

export interface ListOptions {
  /** --param key=value pairs, already checked against the declared parameters. */
  params: ReadonlyArray<readonly [string, string]>;
  /** Stop after this many items (--limit). */
  limit?: number | undefined;
}

/** The items of each page, in order, until the end or the limit. */
export async function* listItems(api: Api, op: ListOperation, options: ListOptions): AsyncGenerator<unknown[]> {
  const { pagination } = op;
  const limitSpec = op.params.find((p) => p.name === pagination.limitParam);
  // Ask for big pages (the declared maximum), or no more than --limit wants.
  let pageSize: number | undefined = limitSpec?.maximum;
  if (options.limit !== undefined)
    pageSize = pageSize === undefined ? options.limit : Math.min(pageSize, options.limit);
  const base: [string, string][] = options.params.map(([k, v]) => [k, v]);
  const limitParam = pagination.limitParam;
  if (limitParam && pageSize !== undefined && !base.some(([k]) => k === limitParam))
    base.push([limitParam, String(pageSize)]);

  let remaining = options.limit ?? Infinity;
  let path = op.path;
  let query: [string, string][] = base;
  let pageNumber = pagination.style === 'page' ? pagination.firstPage : 0;
  if (pagination.style === 'page') query = [...base, [pagination.pageParam, String(pageNumber)]];
  const seen = new Set<string>();
  let previous: string | undefined;
  while (remaining > 0) {
    const { body, headers } = await api.listPage(path, query);
    const items = pageItems(body, op, api.baseUrl + path);
    const fingerprint = JSON.stringify(items);
    if (items.length > 0 && fingerprint === previous) throw loopError(api.baseUrl + path, 'the same page twice');
    previous = fingerprint;
    const take = items.slice(0, remaining);
    remaining -= take.length;
    if (take.length > 0) yield take;
    if (remaining <= 0 || items.length === 0) return;
    if (pagination.style === 'cursor') {
      const next = isPlainObject(body) ? body[pagination.nextField] : undefined;
      if (typeof next !== 'string' || next === '') return;
      if (seen.has(next)) throw loopError(api.baseUrl + path, `cursor "${next.slice(0, 40)}" twice`);
      seen.add(next);
      query = [...base.filter(([k]) => k !== pagination.cursorParam), [pagination.cursorParam, next]];
    } else if (pagination.style === 'link') {
      const next = nextLink(headers.link, api.baseUrl);
      if (next === undefined) return;
      if (seen.has(next)) throw loopError(api.baseUrl + path, 'the same next link twice');
      seen.add(next);
      const url = new URL(next);
      path = url.pathname.slice(new URL(api.baseUrl).pathname.replace(/\/$/, '').length) || '/';
      query = [...url.searchParams.entries()];
    } else if (pagination.style === 'page') {
      pageNumber += 1;
      query = [...base, [pagination.pageParam, String(pageNumber)]];
    } else {
      return;
    }
  }
}

function pageItems(body: unknown, op: ListOperation, url: string): unknown[] {
  const items = op.itemsField === undefined ? body : isPlainObject(body) ? body[op.itemsField] : undefined;
  if (!Array.isArray(items)) {
    const where = op.itemsField === undefined ? 'a JSON array' : `an array in "${op.itemsField}"`;
    throw new ApiError(`unexpected response to GET ${url}: expected ${where}, as the service's document declares`, {
      status: 200,
      method: 'GET',
      url,
    });
  }
  return items;
}

function loopError(url: string, what: string): ApiError {
  return new ApiError(`the service sent ${what} while listing ${url}; stopped to avoid a loop`, {
    status: 200,
    method: 'GET',
    url,
  });
}

/**
 * The rel="next" target of a Link header, if it is below the base URL (cpk
 * never follows a link to another origin: the token would go with it).
 */
export function nextLink(header: string | undefined, baseUrl: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (!match || !/;\s*rel="?([^";]*\s)?next(\s[^";]*)?"?\s*(;|$)/i.test(match[2] ?? '')) continue;
    let url: URL;
    try {
      url = new URL(match[1] ?? '', baseUrl + '/');
    } catch {
      return undefined;
    }
    const base = new URL(baseUrl);
    const basePath = base.pathname.replace(/\/$/, '');
    if (url.origin !== base.origin || !(url.pathname === basePath || url.pathname.startsWith(basePath + '/')))
      return undefined;
    return url.toString();
  }
  return undefined;
}
