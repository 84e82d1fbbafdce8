// The service's document (src/core/api/spec.ts) and following a declared list (src/core/api/list.ts).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/emulator/openapi.js';
import {
  analyzeSpec,
  loadSpec,
  readCachedSpec,
  specCachePath,
  SPEC_MAX_AGE_MS,
  type SpecFetcher,
} from '../../src/core/api/spec.js';
import { listItems, MAX_LIST_PAGES } from '../../src/core/api/list.js';
import type { Api } from '../../src/core/api/client.js';

const emulatorDoc = buildOpenApiDocument('http://127.0.0.1:1/v1');

/** A minimal OpenAPI document with one GET /monitors operation. */
function docWith(list: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { openapi: '3.1.0', paths: { '/monitors': { get: list } }, ...extra };
}
const json = (schema: unknown, headers?: unknown) => ({
  responses: { '200': { description: 'ok', headers, content: { 'application/json': { schema } } } },
});
const q = (name: string, schema: unknown = { type: 'string' }) => ({ name, in: 'query', schema });

describe('analyzeSpec', () => {
  it('reads the emulator document: cursor pagination, filters, item fields, create and update bodies', () => {
    const spec = analyzeSpec(emulatorDoc);
    expect(spec.present).toBe(true);
    const list = spec.list('monitors');
    expect(list?.pagination).toEqual({ cursor: { param: 'cursor', nextField: 'next_cursor' }, limitParam: 'limit' });
    expect(list?.itemsField).toBe('data');
    expect(list?.userParams.map((p) => p.name)).toEqual(['limit', 'status', 'type']);
    expect(list?.userParams[2]?.enum).toEqual(['http', 'tcp', 'ping', 'dns']);
    expect(spec.list('channels')?.path).toBe('/channels');
    expect(spec.list('reports')?.path).toBe('/reports');
    expect(spec.itemFields('monitors')?.slice(0, 4)).toEqual(['id', 'name', 'type', 'target']);
    const create = spec.body('create');
    expect(create?.fields.find((f) => f.name === 'type')?.enum).toEqual(['http', 'tcp', 'ping', 'dns']);
    expect(create?.readOnly).toContain('report_id');
    expect(create?.additional).toBe(true);
    expect(spec.body('update')?.fields.map((f) => f.name)).toContain('paused');
  });

  it('declares nothing for a missing, invalid or non-OpenAPI document', () => {
    for (const doc of [undefined, null, 'text', [], {}, { paths: { '/monitors': { get: {} } } }]) {
      const spec = analyzeSpec(doc);
      expect(spec.present).toBe(false);
      expect(spec.list('monitors')).toBeUndefined();
      expect(spec.body('create')).toBeUndefined();
    }
  });

  it('declares no list when the document has no GET on the collection', () => {
    const spec = analyzeSpec({ openapi: '3.0.0', paths: { '/monitors': { post: {} } } });
    expect(spec.present).toBe(true);
    expect(spec.list('monitors')).toBeUndefined();
  });

  it('pages only as x-pagination declares: parameter and field names alone declare nothing', () => {
    // Names that look like a cursor, a next field and a page size, without x-pagination: one response.
    const guessed = analyzeSpec(
      docWith({
        parameters: [q('page_token'), q('page_size', { type: 'integer', maximum: 50 }), q('team')],
        ...json({ type: 'object', properties: { items: { type: 'array' }, next_page_token: { type: 'string' } } }),
      }),
    ).list('monitors');
    expect(guessed?.pagination).toEqual({});
    expect(guessed?.itemsField).toBeUndefined();
    expect(guessed?.userParams.map((p) => p.name)).toEqual(['page_token', 'page_size', 'team']);
    // The same list with x-pagination naming them: followed, and the cursor is cpk's, not a --param.
    const declared = analyzeSpec(
      docWith({
        parameters: [q('page_token'), q('page_size', { type: 'integer', maximum: 50 }), q('team')],
        'x-pagination': {
          style: 'cursor',
          cursorParam: 'page_token',
          nextField: 'next_page_token',
          itemsField: 'items',
          limitParam: 'page_size',
        },
        ...json({ type: 'object', properties: { items: { type: 'array' }, next_page_token: { type: 'string' } } }),
      }),
    ).list('monitors');
    expect(declared?.pagination).toEqual({
      cursor: { param: 'page_token', nextField: 'next_page_token' },
      limitParam: 'page_size',
    });
    expect(declared?.itemsField).toBe('items');
    expect(declared?.userParams.map((p) => p.name)).toEqual(['page_size', 'team']);
  });

  it('ignores what an x-pagination names but the operation does not declare', () => {
    const list = analyzeSpec(
      docWith({
        parameters: [q('cursor')],
        'x-pagination': { style: 'cursor', cursorParam: 'nope', nextField: 'next', limitParam: 'size' },
        ...json({ type: 'array' }),
      }),
    ).list('monitors');
    expect(list?.pagination).toEqual({ cursor: undefined, limitParam: undefined });
  });

  it('survives $ref cycles and refs outside the document', () => {
    const doc = {
      openapi: '3.0.0',
      components: { schemas: { A: { $ref: '#/components/schemas/B' }, B: { $ref: '#/components/schemas/A' } } },
      paths: {
        '/monitors': {
          get: json({ $ref: '#/components/schemas/A' }),
          post: { requestBody: { content: { 'application/json': { schema: { $ref: 'http://evil/x.json' } } } } },
        },
        '/channels': { get: { $ref: '#/components/schemas/A' } },
        // Not valid percent-encoding: a key that names nothing, not a URIError.
        '/reports': { get: { $ref: '#/components/%E0' } },
      },
    };
    const spec = analyzeSpec(doc);
    expect(spec.list('monitors')?.pagination).toEqual({});
    expect(spec.body('create')).toBeUndefined();
    expect(spec.list('channels')).toBeUndefined();
    expect(spec.list('reports')).toBeUndefined();
  });
});

describe('loadSpec: cache and revalidation', () => {
  const baseUrl = 'http://127.0.0.1:9/v1';
  function fetcher(answers: Array<() => { status: number; headers?: Record<string, string>; body?: unknown }>) {
    const calls: Array<{ etag?: string | undefined; lastModified?: string | undefined }> = [];
    const f: SpecFetcher = {
      baseUrl,
      fetchOpenApi: async (conditional) => {
        calls.push(conditional);
        const answer = answers.shift();
        if (!answer) throw new Error('unexpected fetch');
        const a = answer();
        return { status: a.status, headers: a.headers ?? {}, body: a.body };
      },
    };
    return { f, calls };
  }
  const env = () => ({ CPK_CACHE_DIR: mkdtempSync(join(tmpdir(), 'cpk-spec-')) });

  it('fetches once, serves from the cache for an hour, then revalidates with ETag and Last-Modified', async () => {
    const e = env();
    let now = 1_000_000;
    const { f, calls } = fetcher([
      () => ({
        status: 200,
        headers: { etag: '"v1"', 'last-modified': 'Sun, 22 Nov 2026 10:00:00 GMT' },
        body: emulatorDoc,
      }),
      () => ({ status: 304 }),
    ]);
    const options = { env: e, now: () => now };
    expect((await loadSpec(f, options)).list('monitors')).toBeDefined();
    expect((await loadSpec(f, options)).list('monitors')).toBeDefined();
    expect(calls).toHaveLength(1);
    now += SPEC_MAX_AGE_MS + 1;
    expect((await loadSpec(f, options)).list('monitors')).toBeDefined();
    expect(calls[1]).toEqual({ etag: '"v1"', lastModified: 'Sun, 22 Nov 2026 10:00:00 GMT' });
    expect(readCachedSpec(baseUrl, e)?.fetchedAt).toBe(now);
  });

  it('--refresh-spec revalidates at once; a new document replaces the cached one', async () => {
    const e = env();
    const { f, calls } = fetcher([
      () => ({ status: 200, body: emulatorDoc }),
      () => ({ status: 200, body: { openapi: '3.0.0', paths: {} } }),
    ]);
    await loadSpec(f, { env: e });
    const spec = await loadSpec(f, { env: e, refresh: true });
    expect(calls).toHaveLength(2);
    expect(spec.list('monitors')).toBeUndefined();
  });

  it('keeps the stale copy when the service cannot be reached, and declares nothing without one', async () => {
    const e = env();
    let now = 0;
    const lines: string[] = [];
    const { f } = fetcher([
      () => ({ status: 200, body: emulatorDoc }),
      () => {
        throw new Error('connection refused');
      },
      () => {
        throw new Error('connection refused');
      },
    ]);
    await loadSpec(f, { env: e, now: () => now });
    now += SPEC_MAX_AGE_MS + 1;
    const stale = await loadSpec(f, { env: e, now: () => now, debug: (l) => lines.push(l) });
    expect(stale.list('monitors')).toBeDefined();
    expect(lines.join('\n')).toContain('using the stale copy');
    const none = await loadSpec(f, { env: env() });
    expect(none.present).toBe(false);
  });

  it('ignores a corrupted cache file, a cache of another base URL, and an unwritable cache directory', async () => {
    const e = env();
    const path = specCachePath(baseUrl, e);
    const { f } = fetcher([() => ({ status: 200, body: emulatorDoc })]);
    await loadSpec(f, { env: e });
    writeFileSync(path, '{"baseUrl":');
    expect(readCachedSpec(baseUrl, e)).toBeUndefined();
    writeFileSync(path, JSON.stringify({ baseUrl: 'http://other/v1', fetchedAt: Date.now(), document: emulatorDoc }));
    expect(readCachedSpec(baseUrl, e)).toBeUndefined();
    const file = join(mkdtempSync(join(tmpdir(), 'cpk-spec-')), 'file');
    writeFileSync(file, 'not a directory');
    const lines: string[] = [];
    const { f: f2 } = fetcher([() => ({ status: 200, body: emulatorDoc })]);
    const spec = await loadSpec(f2, { env: { CPK_CACHE_DIR: file }, debug: (l) => lines.push(l) });
    expect(spec.list('monitors')).toBeDefined();
    expect(lines.join('\n')).toContain('could not write the cache');
    expect(readFileSync(file, 'utf8')).toBe('not a directory');
  });
});

describe('listItems', () => {
  const baseUrl = 'http://127.0.0.1:9/v1';
  function fakeApi(pages: Record<string, { body: unknown }>) {
    const asked: string[] = [];
    const api = {
      baseUrl,
      listPage: async (path: string, query: ReadonlyArray<readonly [string, string]>) => {
        const key = `${path}?${new URLSearchParams(query.map(([k, v]): [string, string] => [k, v])).toString()}`;
        asked.push(key);
        const page = pages[key];
        if (!page) throw new Error(`no page ${key}`);
        return page.body;
      },
    } as unknown as Api;
    return { api, asked };
  }
  const collect = async (gen: AsyncGenerator<unknown[]>) => {
    const pages: unknown[][] = [];
    for await (const page of gen) pages.push(page);
    return pages;
  };
  const cursorOp = analyzeSpec(emulatorDoc).list('monitors')!;

  it('follows cursors to the end, asking for the declared maximum page size, with --param values', async () => {
    const { api, asked } = fakeApi({
      '/monitors?status=up&limit=100': { body: { data: [{ id: 'a' }], next_cursor: 'c1' } },
      '/monitors?status=up&limit=100&cursor=c1': { body: { data: [{ id: 'b' }], next_cursor: null } },
    });
    expect(await collect(listItems(api, cursorOp, { params: [['status', 'up']] }))).toEqual([
      [{ id: 'a' }],
      [{ id: 'b' }],
    ]);
    expect(asked).toHaveLength(2);
  });

  it('stops at --limit, asking for no more than it needs', async () => {
    const { api, asked } = fakeApi({
      '/monitors?limit=3': { body: { data: [{ id: 'a' }, { id: 'b' }, { id: 'c' }], next_cursor: 'c1' } },
    });
    expect((await collect(listItems(api, cursorOp, { params: [], limit: 3 }))).flat()).toHaveLength(3);
    expect(asked).toEqual(['/monitors?limit=3']);
  });

  it('ends with an error, not a loop, when a server repeats a cursor', async () => {
    const { api } = fakeApi({
      '/monitors?limit=100': { body: { data: [{ id: 'a' }], next_cursor: 'same' } },
      '/monitors?limit=100&cursor=same': { body: { data: [{ id: 'b' }], next_cursor: 'same' } },
    });
    await expect(collect(listItems(api, cursorOp, { params: [] }))).rejects.toThrow(/twice.*stopped to avoid a loop/);
  });

  it('says so when a page is not the declared shape', async () => {
    const { api } = fakeApi({ '/monitors?limit=100': { body: { items: [] } } });
    await expect(collect(listItems(api, cursorOp, { params: [] }))).rejects.toThrow(/expected an array in "data"/);
  });

  it('reads a list without x-pagination as one response', async () => {
    const one = analyzeSpec(docWith({ parameters: [q('page')], ...json({ type: 'array' }) })).list('monitors')!;
    const { api, asked } = fakeApi({ '/monitors?': { body: [{ id: 'a' }, { id: 'b' }] } });
    expect((await collect(listItems(api, one, { params: [] }))).flat()).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(asked).toEqual(['/monitors?']);
  });

  it('ends with an error after MAX_LIST_PAGES pages of a cursor that never runs out', async () => {
    let asked = 0;
    const api = {
      baseUrl,
      listPage: async () => {
        asked++;
        return { data: [{ id: `m${asked}` }], next_cursor: `c${asked}` };
      },
    } as unknown as Api;
    let items = 0;
    const run = async () => {
      for await (const page of listItems(api, cursorOp, { params: [] })) items += page.length;
    };
    await expect(run()).rejects.toThrow(
      `the service sent more than ${MAX_LIST_PAGES} pages while listing ${baseUrl}/monitors; stopped to avoid a loop`,
    );
    expect(asked).toBe(MAX_LIST_PAGES);
    expect(items).toBe(MAX_LIST_PAGES);
  });

  it('ends with an error when pages repeat under fresh cursors', async () => {
    let asked = 0;
    const api = {
      baseUrl,
      listPage: async () => ({ data: [{ id: 'same' }], next_cursor: `c${++asked}` }),
    } as unknown as Api;
    await expect(collect(listItems(api, cursorOp, { params: [] }))).rejects.toThrow(/the same page twice/);
    expect(asked).toBe(2);
  });
});
