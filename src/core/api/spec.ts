// The service's own description of itself, `{base}/openapi.json`
// (docs/monitors.md, "Finding your monitors"): what it declares is the
// service's own word and cpk may use it; what it does not, cpk does not assume.
//
// It is never on the path of the six endpoint commands (create, get, update,
// delete, channels update, reports get): only list, completion, validation
// and help read it, and help and completion read the cache only
// (readCachedSpec), never the network. A missing or invalid document means
// "nothing declared"; an unreachable one too, except for a caller that chooses
// between the service's path and a local one by it (needAnswer): "the service
// declares nothing" must be the service's word, never a network failure's.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir, type Env } from '../paths.js';
import { ApiError } from '../errors.js';
import { readFileText } from '../io.js';
import { decodeOrKeep } from '../http/path.js';
import { isPlainObject, ownField, parseJson, type JsonObject } from '../json.js';

/** How long a cached document is trusted before it is revalidated. */
export const SPEC_MAX_AGE_MS = 60 * 60 * 1000;
/** $ref chains longer than this are treated as undeclared (cycles, hostile documents). */
const MAX_REF_DEPTH = 32;

export type Noun = 'monitors' | 'channels' | 'reports';

export interface CachedSpec {
  /** The base URL the document describes (a hash collision is never taken for a hit). */
  baseUrl: string;
  /** When it was fetched or last revalidated (ms since the epoch). */
  fetchedAt: number;
  etag?: string | undefined;
  lastModified?: string | undefined;
  /** The document; null when the service answered without one (404, not JSON): nothing declared. */
  document: unknown;
}

export function specCachePath(baseUrl: string, env: Env): string {
  const key = createHash('sha256').update(baseUrl).digest('hex').slice(0, 16);
  return join(cacheDir(env), 'openapi', `${key}.json`);
}

/** The cached document of a base URL, or undefined (never throws, never touches the network). */
export function readCachedSpec(baseUrl: string, env: Env): CachedSpec | undefined {
  try {
    // Read as a fetched document is (nesting bounded): the file may have been changed since.
    const read = parseJson(readFileText(specCachePath(baseUrl, env)));
    const parsed = read.ok ? read.value : undefined;
    if (!isPlainObject(parsed) || parsed.baseUrl !== baseUrl || typeof parsed.fetchedAt !== 'number') return undefined;
    const { fetchedAt, etag, lastModified, document } = parsed;
    const string = (value: unknown) => (typeof value === 'string' ? value : undefined);
    return { baseUrl, fetchedAt, etag: string(etag), lastModified: string(lastModified), document: document ?? null };
  } catch {
    return undefined;
  }
}

export function cachedSpecInfo(baseUrl: string, env: Env): SpecInfo {
  return analyzeSpec(readCachedSpec(baseUrl, env)?.document);
}

/** The part of the API a spec loader needs: an unauthenticated GET of the document, conditional. */
export interface SpecFetcher {
  readonly baseUrl: string;
  fetchOpenApi(conditional: { etag?: string | undefined; lastModified?: string | undefined }): Promise<{
    status: number;
    headers: Record<string, string>;
    body: unknown;
  }>;
}

export interface LoadSpecOptions {
  env: Env;
  /** --refresh-spec: revalidate now, whatever the cache's age. */
  refresh?: boolean;
  now?: () => number;
  /** --debug lines: why the cache was used, refreshed or ignored. */
  debug?: ((line: string) => void) | undefined;
  /**
   * The caller picks a path by what the document declares (a list, or the local inventory instead): a
   * fetch that fails without the service saying it has no document (unreachable, a timeout, a server
   * error) is thrown as any request's failure is, rather than read as "nothing declared".
   */
  needAnswer?: boolean;
}

/**
 * The service's document, from the cache while it is fresh, else fetched
 * (conditionally when a copy exists). Unless `needAnswer`, never throws: a
 * failure to fetch keeps the stale copy, and without one the answer is
 * "nothing declared".
 */
export async function loadSpec(fetcher: SpecFetcher, options: LoadSpecOptions): Promise<SpecInfo> {
  const now = options.now ?? Date.now;
  const debug = options.debug ?? (() => {});
  const cached = readCachedSpec(fetcher.baseUrl, options.env);
  if (cached && !options.refresh && now() - cached.fetchedAt < SPEC_MAX_AGE_MS) {
    debug(`openapi: using the cached document (${Math.round((now() - cached.fetchedAt) / 1000)}s old)`);
    return analyzeSpec(cached.document);
  }
  let next: CachedSpec;
  try {
    const res = await fetcher.fetchOpenApi(
      cached?.document ? { etag: cached.etag, lastModified: cached.lastModified } : {},
    );
    if (res.status === 304 && cached) {
      debug('openapi: the cached document is still current (304)');
      next = { ...cached, fetchedAt: now() };
    } else {
      const document = isPlainObject(res.body) ? res.body : null;
      debug(document ? 'openapi: fetched the service document' : 'openapi: the service answered without a document');
      next = {
        baseUrl: fetcher.baseUrl,
        fetchedAt: now(),
        etag: res.headers.etag,
        lastModified: res.headers['last-modified'],
        document,
      };
    }
  } catch (error) {
    // A service without a document (404, or another refusal of the request) says
    // "nothing declared" for an hour too; a network failure, a server error, a
    // timeout or rate limit (408, 429) keeps what we had, and asks again next time.
    const status = error instanceof ApiError ? error.status : undefined;
    if (status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429) {
      debug(`openapi: no document (status ${status}): nothing declared`);
      next = { baseUrl: fetcher.baseUrl, fetchedAt: now(), document: null };
    } else {
      if (options.needAnswer) throw error;
      debug(
        `openapi: could not fetch the document (${(error as Error).message}); ${cached ? 'using the stale copy' : 'nothing declared'}`,
      );
      return analyzeSpec(cached?.document);
    }
  }
  await writeCache(next, options.env, debug);
  return analyzeSpec(next.document);
}

/**
 * `use` of the service's document, and when `refuses` its result, of the service's current one (a conditional
 * request): nothing is refused on the word of a copy the service may have changed within the hour it is kept.
 */
export async function useSpec<T>(
  fetcher: SpecFetcher,
  options: LoadSpecOptions,
  use: (spec: SpecInfo) => T | Promise<T>,
  refuses: (result: T) => boolean,
): Promise<T> {
  const result = await use(await loadSpec(fetcher, options));
  if (options.refresh || !refuses(result)) return result;
  options.debug?.('openapi: the document refuses this; asking the service for its current one');
  return use(await loadSpec(fetcher, { ...options, refresh: true }));
}

async function writeCache(entry: CachedSpec, env: Env, debug: (line: string) => void): Promise<void> {
  try {
    const path = specCachePath(entry.baseUrl, env);
    mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
    const { writeFileAtomic } = await import('../atomic-file.js');
    await writeFileAtomic(path, JSON.stringify(entry));
  } catch (error) {
    debug(`openapi: could not write the cache (${(error as Error).message})`);
  }
}

// ---------------------------------------------------------------------------
// Analysis: pure functions of the document.

/** How a list pages, as its `x-pagination` declares it (declaredPagination). */
export interface Pagination {
  /** The query parameter that carries the cursor and the page's field that holds the next one; undefined: one response. */
  cursor?: { param: string; nextField: string } | undefined;
  /** The query parameter that sets the page size, when declared. */
  limitParam?: string | undefined;
}

/** A declared query parameter or body field: what cpk reads of its rules (the service checks the rest). */
export interface FieldInfo {
  name: string;
  enum?: unknown[] | undefined;
  maximum?: number | undefined;
}

export interface ListOperation {
  /** The path below the base URL, e.g. "/monitors". */
  path: string;
  /** Where the items are in a page (x-pagination's itemsField), or undefined when the page is the array itself. */
  itemsField: string | undefined;
  pagination: Pagination;
  /** Every declared query parameter (pagination ones included). */
  params: FieldInfo[];
  /** Parameters a user may set with --param: the declared ones but the cursor. */
  userParams: FieldInfo[];
}

/** A body the document declares: its fields, and its rules for a validator. */
export interface DeclaredBody {
  fields: FieldInfo[];
  /** false when the document says no other field is accepted (additionalProperties: false). */
  additional: boolean;
  /** Fields the service refuses in this body (readOnly, or x-read-only-fields). */
  readOnly: string[];
  /** The body's JSON Schema, made self-contained: the document's local `$ref`s resolve in it. */
  schema: DeclaredSchema;
}

export interface SpecInfo {
  /** true when there is a document that is an OpenAPI description. */
  present: boolean;
  list(noun: Noun): ListOperation | undefined;
  body(kind: BodyKind): DeclaredBody | undefined;
  /** Property names of the items of a noun's list, in the document's order, when declared. */
  itemFields(noun: Noun): string[] | undefined;
}

/** A monitor's create (POST /monitors) or update (PATCH /monitors/{id}) body, or a channel's update (PATCH /channels/{id}). */
export type BodyKind = 'create' | 'update' | 'channel-update';

export interface DeclaredSchema {
  /** `{allOf: [body], components, definitions}`: the body's rules, with what its `$ref`s point at. */
  schema: JsonObject;
  /** The JSON Schema dialect: OpenAPI 3.1 documents use 2020-12, older ones draft-07-like schemas. */
  dialect: '2020-12' | 'draft-07';
}

/** Follows a document's local `$ref`s (deref). */
type Resolve = (value: unknown) => JsonObject | undefined;

const NOTHING: SpecInfo = {
  present: false,
  list: () => undefined,
  body: () => undefined,
  itemFields: () => undefined,
};

export function analyzeSpec(document: unknown): SpecInfo {
  if (!isPlainObject(document) || !(typeof document.openapi === 'string' || typeof document.swagger === 'string'))
    return NOTHING;
  const paths = isPlainObject(document.paths) ? document.paths : {};
  const resolve: Resolve = (value) => deref(document, value);
  const operation = (path: string, method: string): JsonObject | undefined => {
    const item = resolve(ownField(paths, path));
    return item ? resolve(ownField(item, method)) : undefined;
  };
  const itemPath = (noun: Noun): string | undefined =>
    Object.keys(paths).find((p) => new RegExp(`^/${noun}/\\{[^/{}]+\\}$`).test(p));

  return {
    present: true,
    list(noun) {
      const op = operation(`/${noun}`, 'get');
      if (!op) return undefined;
      const pathItem = resolve(ownField(paths, `/${noun}`));
      const infos = [...queryParameters(pathItem?.parameters, resolve), ...queryParameters(op.parameters, resolve)];
      const { pagination, itemsField } = declaredPagination(op, infos, resolve);
      return {
        path: `/${noun}`,
        itemsField,
        pagination,
        params: infos,
        // The page size may be set (--param limit=10); the cursor is cpk's to follow.
        userParams: infos.filter((p) => p.name !== pagination.cursor?.param),
      };
    },
    body(kind) {
      const itemP = itemPath(kind === 'channel-update' ? 'channels' : 'monitors');
      const op = kind === 'create' ? operation('/monitors', 'post') : itemP && operation(itemP, 'patch');
      const schema = op ? jsonSchema(resolve(op.requestBody), resolve) : undefined;
      if (!schema) return undefined;
      const root: JsonObject = { allOf: [schema] };
      for (const key of ['components', 'definitions']) {
        const value = ownField(document, key);
        if (isPlainObject(value)) root[key] = value;
      }
      const version = typeof document.openapi === 'string' ? document.openapi : '';
      const dialect = version.startsWith('3.1.') ? '2020-12' : 'draft-07';
      return { ...describeObject(schema, resolve), schema: { schema: root, dialect } };
    },
    itemFields(noun) {
      const op = operation(`/${noun}`, 'get');
      const page = op && successSchema(op, resolve);
      const items = op && page && itemsSchema(page, declaredPagination(op, [], resolve).itemsField, resolve);
      const props = resolve(items?.properties);
      return props ? Object.keys(props) : undefined;
    },
  };
}

/** Follows local `$ref`s (`#/components/...`), bounded; undefined for anything that is not an object. */
function deref(document: JsonObject, value: unknown): JsonObject | undefined {
  let current = value;
  for (let depth = 0; depth <= MAX_REF_DEPTH; depth++) {
    if (!isPlainObject(current)) return undefined;
    const ref = current.$ref;
    if (typeof ref !== 'string') return current;
    if (!ref.startsWith('#/')) return undefined;
    let target: unknown = document;
    for (const raw of ref.slice(2).split('/')) {
      const key = decodeOrKeep(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      target = isPlainObject(target) ? ownField(target, key) : undefined;
    }
    current = target;
  }
  return undefined;
}

function queryParameters(value: unknown, resolve: Resolve): FieldInfo[] {
  const params = Array.isArray(value) ? value.map(resolve) : [];
  return params.flatMap((p) =>
    p && typeof p.name === 'string' && p.in === 'query' ? [fieldOf(p.name, resolve(p.schema))] : [],
  );
}

function fieldOf(name: string, schema: JsonObject | undefined): FieldInfo {
  return {
    name,
    enum: Array.isArray(schema?.enum) ? schema.enum : undefined,
    maximum: typeof schema?.maximum === 'number' ? schema.maximum : undefined,
  };
}

/** The JSON schema of an operation's first declared 2xx response. */
function successSchema(op: JsonObject, resolve: Resolve): JsonObject | undefined {
  const responses = resolve(op.responses);
  if (!responses) return undefined;
  const code = Object.keys(responses)
    .filter((c) => /^2(\d\d|XX)$/i.test(c))
    .sort()[0];
  return code ? jsonSchema(resolve(responses[code]), resolve) : undefined;
}

/** The schema of a request body's or a response's JSON content (its first JSON media type). */
function jsonSchema(holder: JsonObject | undefined, resolve: Resolve): JsonObject | undefined {
  const content = resolve(holder?.content);
  const mediaType = content && Object.keys(content).find((m) => /json/i.test(m));
  return mediaType ? resolve(resolve(content[mediaType])?.schema) : undefined;
}

function itemsSchema(page: JsonObject, itemsField: string | undefined, resolve: Resolve): JsonObject | undefined {
  if (itemsField === undefined)
    return page.type === 'array' || (Array.isArray(page.type) && page.type.includes('array'))
      ? resolve(page.items)
      : undefined;
  const props = resolve(page.properties);
  return props ? resolve(resolve(ownField(props, itemsField))?.items) : undefined;
}

/**
 * The list's x-pagination, the one pagination rule cpk follows: what it
 * names is used only where the operation declares it (the cursor and page
 * size among its query parameters). Nothing is guessed from parameter or
 * field names: a list without it is one response.
 */
function declaredPagination(
  op: JsonObject,
  params: FieldInfo[],
  resolve: Resolve,
): { pagination: Pagination; itemsField: string | undefined } {
  const x = resolve(op['x-pagination']);
  if (!x) return { pagination: {}, itemsField: undefined };
  const names = new Set(params.map((p) => p.name));
  const declared = (value: unknown) => (typeof value === 'string' && names.has(value) ? value : undefined);
  const param = x.style === 'cursor' ? declared(x.cursorParam) : undefined;
  const nextField = typeof x.nextField === 'string' && x.nextField !== '' ? x.nextField : undefined;
  return {
    pagination: {
      cursor: param !== undefined && nextField !== undefined ? { param, nextField } : undefined,
      limitParam: declared(x.limitParam),
    },
    itemsField: typeof x.itemsField === 'string' && x.itemsField !== '' ? x.itemsField : undefined,
  };
}

/** The fields of an object schema (allOf merged). */
function describeObject(schema: JsonObject, resolve: Resolve): Omit<DeclaredBody, 'schema'> {
  const fields = new Map<string, FieldInfo>();
  const readOnly = new Set<string>();
  let additional = true;
  const visit = (s: JsonObject, depth: number) => {
    if (depth > MAX_REF_DEPTH) return;
    if (Array.isArray(s.allOf)) for (const part of s.allOf) visit(resolve(part) ?? {}, depth + 1);
    if (s.additionalProperties === false) additional = false;
    const extra = s['x-read-only-fields'];
    if (Array.isArray(extra)) for (const r of extra) if (typeof r === 'string') readOnly.add(r);
    const props = resolve(s.properties) ?? {};
    for (const name of Object.keys(props)) {
      // A property that is a $ref to an enum schema: its rules are the referenced schema's.
      const p = resolve(props[name]);
      if (p?.readOnly === true) readOnly.add(name);
      fields.set(name, fieldOf(name, p));
    }
  };
  visit(schema, 0);
  return { fields: [...fields.values()], additional, readOnly: [...readOnly] };
}
