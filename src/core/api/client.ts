// The service's six endpoints and its public OpenAPI document, typed. This
// layer knows the interface (../shared/service-interface.md) and nothing about
// terminals. Where the interface leaves a shape open ("not shown"), the type is
// an open object and nothing beyond the documented fields is assumed.
import { ApiError, ExitCode } from '../errors.js';
import type { HttpClient, HttpResponse, RequestDescription, RequestSpec } from '../http/client.js';
import { isPlainObject, ownField, type JsonObject } from '../json.js';

/** Fields accepted on creation; any other field passes through. */
export interface MonitorInput extends JsonObject {
  name?: string;
  type?: string;
  target?: string;
  interval_seconds?: number;
}

/** What create and update return: id and status are required; more may come. */
export interface MonitorRef extends JsonObject {
  id: string;
  status: string;
}

export interface DeleteResult {
  /** The server's body, or undefined when it sent none (e.g. 204). */
  body: unknown;
  status: number;
}

export interface ChannelUpdateResult extends JsonObject {
  ok: boolean;
}

/**
 * How each endpoint's request is built, in one place: Api sends them, and
 * --dry-run describes exactly the same request without sending it.
 */
export const endpoints = {
  createMonitor: (input: MonitorInput) => ({ method: 'POST', segments: ['monitors'], body: input }),
  getMonitor: (id: string) => ({ method: 'GET', segments: ['monitors', id] }),
  updateMonitor: (id: string, changes: JsonObject) => ({ method: 'PATCH', segments: ['monitors', id], body: changes }),
  deleteMonitor: (id: string) => ({ method: 'DELETE', segments: ['monitors', id] }),
  updateChannel: (id: string, changes: JsonObject) => ({ method: 'PATCH', segments: ['channels', id], body: changes }),
  getReport: (id: string) => ({ method: 'GET', segments: ['reports', id] }),
  /** The public OpenAPI document: sent without a token (interface, section 5). */
  getOpenApi: () => ({ method: 'GET', segments: ['openapi.json'], auth: false }),
} satisfies Record<string, (...args: never[]) => RequestSpec>;

/**
 * Told of every monitor (and every listed channel) the service returned, of every one it says is
 * gone, and of a list that held them all: the command line's local inventory (src/config/inventory.ts) listens.
 */
export interface MonitorObserver {
  seen(monitor: JsonObject, kind?: 'monitors' | 'channels'): void;
  gone(id: string, kind?: 'monitors' | 'channels'): void;
  /** Now, on the observer's clock: when a list is about to be asked for. */
  mark?(): number;
  /** Every one of `kind` was just listed, the list asked for at `since` (mark()). */
  wholeList?(kind: 'monitors' | 'channels', since: number): void;
}

/** The service's endpoints, typed; its HttpClient is private, so nothing above this layer sees HTTP. */
export class Api {
  readonly #http: HttpClient;
  constructor(
    http: HttpClient,
    private readonly observer?: MonitorObserver,
  ) {
    this.#http = http;
  }

  async createMonitor(input: MonitorInput): Promise<MonitorRef> {
    const res = await this.#http.request(endpoints.createMonitor(input));
    let ref: MonitorRef;
    try {
      ref = expectMonitorRef(res);
    } catch (error) {
      // A 2xx to a create without a usable body: the monitor was most likely made.
      throw new ApiError(
        `${(error as Error).message}; the service answered ${res.status}, so the monitor was probably created, but cpk cannot tell its id: look for it before creating it again`,
        res,
        { exitCode: ExitCode.FAILURE },
      );
    }
    this.observer?.seen({ ...ref, name: ownField(ref, 'name') ?? input.name });
    return ref;
  }

  async getMonitor(id: string): Promise<JsonObject> {
    const monitor = expectObject(await this.watch(id, this.#http.request(endpoints.getMonitor(id))));
    this.observer?.seen({ ...monitor, id: ownField(monitor, 'id') ?? id });
    return monitor;
  }

  async updateMonitor(id: string, changes: JsonObject): Promise<MonitorRef> {
    const ref = expectMonitorRef(await this.watch(id, this.#http.request(endpoints.updateMonitor(id, changes))));
    this.observer?.seen({ ...ref, name: ownField(ref, 'name') ?? ownField(changes, 'name') });
    return ref;
  }

  async deleteMonitor(id: string): Promise<DeleteResult> {
    const res = await this.watch(id, this.#http.request(endpoints.deleteMonitor(id)));
    this.observer?.gone(id);
    return { body: res.body, status: res.status };
  }

  /** Monitors or channels the service lists (src/core/api/list.ts): the inventory learns of them too. */
  sawList(noun: 'monitors' | 'channels' | 'reports', items: readonly unknown[]): void {
    if (!this.observer || noun === 'reports') return;
    for (const item of items) if (isPlainObject(item)) this.observer.seen(item, noun);
  }

  /** When a list is about to be asked for, for sawWholeList. */
  listStarted(): number {
    return this.observer?.mark?.() ?? 0;
  }

  /**
   * The service listed every one of `noun`, read to its end without a filter, from `since` (listStarted()):
   * the inventory forgets the ids it knew that the list did not hold (a service whose state was reset).
   */
  sawWholeList(noun: 'monitors' | 'channels' | 'reports', since: number): void {
    if (noun !== 'reports') this.observer?.wholeList?.(noun, since);
  }

  /** A monitor answered 404 is gone: the observer forgets it. */
  private async watch(id: string, request: Promise<HttpResponse>): Promise<HttpResponse> {
    try {
      return await request;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) this.observer?.gone(id);
      throw error;
    }
  }

  /**
   * Updates a channel. A 2xx whose body says `"ok": false` is not a success a
   * script should trust: it is judged here, once, as an ApiError (exit 1) for
   * the command, apply and the programmatic client alike.
   */
  async updateChannel(id: string, changes: JsonObject): Promise<ChannelUpdateResult> {
    let res: HttpResponse;
    try {
      res = await this.#http.request(endpoints.updateChannel(id, changes));
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) this.observer?.gone(id, 'channels');
      throw error;
    }
    const body = expectObject(res);
    const ok = ownField(body, 'ok');
    if (typeof ok !== 'boolean') throw unexpected(res, 'a boolean "ok"');
    if (!ok) {
      throw new ApiError(`the server did not confirm the update of channel ${id} (ok: false)`, res, {
        exitCode: ExitCode.FAILURE,
      });
    }
    return body as ChannelUpdateResult;
  }

  /**
   * GETs one monitor for the answer's status alone (src/core/api/probe.ts: does the
   * service accept the token?). The inventory is not told: the id is a probe.
   */
  probeMonitor(id: string): Promise<HttpResponse> {
    return this.#http.request(endpoints.getMonitor(id));
  }

  /** The request a method would send, described without sending it or the token (--dry-run). */
  describe(spec: RequestSpec): RequestDescription {
    return this.#http.describe(spec);
  }

  async getReport(id: string): Promise<JsonObject> {
    return expectObject(await this.#http.request(endpoints.getReport(id)));
  }

  async getOpenApi(): Promise<JsonObject> {
    return expectObject(await this.#http.request(endpoints.getOpenApi()));
  }

  /** The base URL this client talks to (caches and the inventory are kept per base URL). */
  get baseUrl(): string {
    return this.#http.baseUrl;
  }

  /** The document, conditionally (src/core/api/spec.ts): a 304 is an answer. */
  fetchOpenApi(conditional: { etag?: string | undefined; lastModified?: string | undefined }): Promise<HttpResponse> {
    const headers: Record<string, string> = {};
    if (conditional.etag) headers['if-none-match'] = conditional.etag;
    if (conditional.lastModified) headers['if-modified-since'] = conditional.lastModified;
    return this.#http.request({ ...endpoints.getOpenApi(), headers, acceptNotModified: true });
  }

  /** One page of a declared list operation (src/core/api/list.ts), at its path as the document names it. */
  async listPage(
    path: string,
    query: ReadonlyArray<readonly [string, string]>,
    onHeaders?: (headers: Record<string, string>) => void,
  ): Promise<unknown> {
    const segments = path.split('/').filter((s) => s !== '');
    const res = await this.#http.request({ method: 'GET', segments, query });
    onHeaders?.(res.headers);
    return res.body;
  }

  /** A raw request below the base URL (`cpk api`): any 2xx body, JSON or not. */
  raw(spec: RequestSpec): Promise<HttpResponse> {
    return this.#http.request({ ...spec, anyBody: true });
  }

  close(): Promise<void> {
    return this.#http.close();
  }
}

/**
 * A 404 whose message does not name the id ("not found") gets it, for the
 * commands about one id (bulk lines already start with the id): which of a
 * script's variables was wrong is the first question.
 */
export function nameMissing(what: string, id: string, error: unknown): unknown {
  if (!(error instanceof ApiError) || error.status !== 404 || error.message.includes(id)) return error;
  const message = error.message.toLowerCase().includes(what)
    ? `${error.message}: ${id}`
    : `${what} ${id}: ${error.message}`;
  return new ApiError(message, error, { exitCode: error.exitCode, hint: error.hint, cause: error });
}

function unexpected(res: HttpResponse, wanted: string): ApiError {
  return new ApiError(
    `unexpected response to ${res.method} ${res.url}: status ${res.status}, expected a JSON object with ${wanted}`,
    { ...res, contentType: res.headers['content-type'] },
    { exitCode: ExitCode.FAILURE },
  );
}

function expectObject(res: HttpResponse): JsonObject {
  if (!isPlainObject(res.body)) throw unexpected(res, 'fields');
  return res.body;
}

function expectMonitorRef(res: HttpResponse): MonitorRef {
  const body = expectObject(res);
  // Own fields only: a "__proto__" key in the body is data, never a source of id or status.
  if (typeof ownField(body, 'id') !== 'string' || typeof ownField(body, 'status') !== 'string')
    throw unexpected(res, 'string "id" and "status"');
  return body as MonitorRef;
}
