// The one HTTP choke point. Every request cpk makes goes through
// HttpClient.request: it builds the URL (path segments percent-encoded), adds
// the token for the configured origin only, bounds each attempt in time,
// retries what is safe to retry, traces under --debug with the token redacted,
// and turns every failure into a CpkError. Nothing above it sees the transport.
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { ApiError, AuthError, ExitCode, NetworkError, InterruptedError, type ApiErrorDetails } from '../errors.js';
import { classify, type TransportError, type Transport, type TransportResponse } from './transport.js';
import {
  backoffMs,
  DEFAULT_ATTEMPTS,
  isIdempotent,
  isRetryableStatus,
  parseRetryAfter,
  RETRY_AFTER_MAX_MS,
} from './retry.js';
import { sanitizeLine } from '../sanitize.js';
import { isPlainObject, ownField, parseJson, stringifyJson } from '../json.js';
import { encodeSegment } from './path.js';
import { chooseTransport, createTransport } from './select.js';
import type { Env } from '../paths.js';
import { registerSecret, registerUrlCredentials } from '../redact.js';
import { userAgent } from '../version.js';

export const MAX_BODY_BYTES = 32 * 1024 * 1024;

export interface HttpClientOptions {
  /** Normalized base URL, e.g. https://api.example.com/v1 (no trailing slash). */
  baseUrl: string;
  token?: string | undefined;
  /** Without a token, a request that needs one is refused with this AuthError message before anything is sent. */
  noToken?: string | undefined;
  timeoutMs: number;
  /** --max-time (as curl's): the command's network time, attempts and waits included; `at` is performance.now(). */
  deadline?: { at: number; seconds: number } | undefined;
  attempts?: number;
  userAgent: string;
  transport: () => Promise<Transport>;
  debug?: ((line: string) => void) | undefined;
  signal?: AbortSignal | undefined;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

export interface RequestSpec {
  method: string;
  /** Path segments below the base URL; each is percent-encoded as one segment. */
  segments?: string[];
  /** A raw path below the base URL (for `cpk api`), used as given. */
  rawPath?: string;
  /** Query parameters, in order (list operations); each name and value is percent-encoded. */
  query?: ReadonlyArray<readonly [string, string]>;
  body?: unknown;
  /** Send the bearer token (default true). */
  auth?: boolean;
  /** Accept any 2xx body (for `cpk api`): parsed when it is JSON, else only `text` is set. */
  anyBody?: boolean;
  /** Extra request headers (conditional requests: If-None-Match); never Authorization. */
  headers?: Record<string, string>;
  /** A 304 Not Modified is an answer, not a failure (revalidating a cached document). */
  acceptNotModified?: boolean;
}

/** A request as it would be sent, with the token replaced by `$CPK_TOKEN` (for --dry-run). */
export interface RequestDescription {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** What --dry-run shows instead of the token: a shell variable, so the printed command stays runnable. */
export const TOKEN_PLACEHOLDER = '$CPK_TOKEN';

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  /** The parsed JSON body, or undefined when the body is empty. */
  body: unknown;
  text: string;
  requestId: string | undefined;
  method: string;
  url: string;
}

/** An Authorization or Proxy-Authorization value with its credentials masked, whatever the scheme ("Basic [REDACTED]"). */
export function redactAuthorization(value: string): string {
  const scheme = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)\s+\S/.exec(value);
  return scheme ? `${scheme[1]} [REDACTED]` : '[REDACTED]';
}

/**
 * Waits `ms` (never less: timers may fire a millisecond early, and a
 * Retry-After is a lower bound), or rejects with InterruptedError on Ctrl-C.
 */
export async function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  const end = performance.now() + ms;
  for (let left = ms; ; left = end - performance.now()) {
    if (signal?.aborted) throw new InterruptedError();
    if (left <= 0) return;
    await delay(Math.ceil(left), undefined, { signal }).catch(() => {});
  }
}

/** Which transport failures are worth another attempt, by whether the method may be repeated. */
function retryableFailure(kind: TransportError['kind'], idempotent: boolean, code?: string): boolean {
  // The proxy's own 403 or 407 (forbidden, credentials wanted) does not change on a retry.
  if (kind === 'proxy' && (code === 'PROXY_403' || code === 'PROXY_407')) return false;
  // Nothing reached the server: safe for any method (a create cannot be duplicated).
  if (kind === 'connect' || kind === 'proxy') return true;
  // The request may have been applied: only methods that can be repeated.
  // 'tls' (a certificate problem does not fix itself) and 'too-large' are final.
  return idempotent && (kind === 'timeout' || kind === 'reset' || kind === 'incomplete');
}

export class HttpClient {
  private transportPromise: Promise<Transport> | undefined;
  constructor(private readonly options: HttpClientOptions) {}

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  private buildUrl(spec: Pick<RequestSpec, 'segments' | 'rawPath' | 'query'>): string {
    const { baseUrl } = this.options;
    const raw = spec.rawPath;
    const url =
      raw === undefined
        ? [baseUrl, ...(spec.segments ?? []).map(encodeSegment)].join('/')
        : baseUrl + (raw.startsWith('/') ? raw : `/${raw}`);
    if (!spec.query?.length) return url;
    return (
      url + (url.includes('?') ? '&' : '?') + new URLSearchParams(spec.query as Array<[string, string]>).toString()
    );
  }

  private headersFor(spec: RequestSpec, token = this.options.token): Record<string, string> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.options.userAgent,
    };
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    for (const [name, value] of Object.entries(spec.headers ?? {}))
      if (name.toLowerCase() !== 'authorization') headers[name.toLowerCase()] = value;
    if (spec.auth !== false && token) headers.authorization = `Bearer ${token}`;
    return headers;
  }

  /**
   * The request `request(spec)` would send, built by the same code, with
   * $CPK_TOKEN as the token (whether or not one is configured: a dry run needs none).
   */
  describe(spec: RequestSpec): RequestDescription {
    const headers = this.headersFor(spec, TOKEN_PLACEHOLDER);
    const description: RequestDescription = { method: spec.method.toUpperCase(), url: this.buildUrl(spec), headers };
    if (spec.body !== undefined) description.body = stringifyJson(spec.body);
    return description;
  }

  async request(spec: RequestSpec): Promise<HttpResponse> {
    if (spec.auth !== false && !this.options.token && this.options.noToken) throw new AuthError(this.options.noToken);
    const method = spec.method.toUpperCase();
    const url = this.buildUrl(spec);
    const headers = this.headersFor(spec);
    // Numbers go out as the user wrote them (ExactNumber), never rounded to a double.
    const body = spec.body === undefined ? undefined : stringifyJson(spec.body);
    const attempts = Math.max(1, this.options.attempts ?? DEFAULT_ATTEMPTS);
    const sleep = this.options.sleep ?? defaultSleep;
    const debug = this.options.debug;
    const idempotent = isIdempotent(method);
    const { deadline } = this.options;
    /** Milliseconds left before --max-time (Infinity without it). */
    const timeLeft = () => (deadline ? deadline.at - performance.now() : Infinity);
    /** --max-time is reached: `last` says what the last attempt came to. */
    const gaveUp = (last?: string, about: { hint?: string; sent?: boolean } = {}) =>
      new NetworkError(
        `${method} ${url} gave up: --max-time ${deadline!.seconds}s reached${last ? ` (${last})` : ''}`,
        {
          hint: about.hint ?? 'raise --max-time (CPK_MAX_TIME) or try again later',
          ...(about.sent === false ? { mayHaveReachedServer: false } : {}),
        },
      );
    /** Waits before the next attempt, unless --max-time would end during the wait (`noTime`). */
    const waitToRetry = async (attempt: number, retryAfter: number | undefined, noTime: () => Error) => {
      const ms = retryAfter ?? backoffMs(attempt, this.options.random);
      if (ms >= timeLeft()) throw noTime();
      debug?.(`  waiting ${ms}ms before attempt ${attempt + 1}`);
      await sleep(ms, this.options.signal);
    };
    const trace = (mark: string, entries: Record<string, string>) => {
      for (const [name, value] of Object.entries(entries))
        debug?.(`${mark} ${name}: ${/authorization$/i.test(name) ? redactAuthorization(value) : sanitizeLine(value)}`);
    };

    const began = performance.now();
    for (let attempt = 1; ; attempt++) {
      // Interrupted before this attempt left: send nothing (either transport).
      if (this.options.signal?.aborted) throw new InterruptedError();
      const started = Date.now();
      const left = timeLeft();
      if (left <= 0) throw gaveUp();
      const attemptMs = Math.min(this.options.timeoutMs, left);
      debug?.(`> ${method} ${url}${attempts > 1 ? ` (attempt ${attempt}/${attempts})` : ''}`);
      trace('>', headers);
      if (body !== undefined) debug?.(`> ${Buffer.byteLength(body)} bytes of JSON`);
      let response: TransportResponse;
      let transport: Transport | undefined;
      try {
        transport = await (this.transportPromise ??= this.options.transport());
        response = await transport.send({
          method,
          url,
          headers,
          body,
          timeoutMs: attemptMs,
          maxBodyBytes: MAX_BODY_BYTES,
          signal: this.options.signal,
        });
      } catch (error) {
        // A transport rejects with a TransportError; anything else is sorted as one.
        const failure = classify(error, 'request');
        if (failure.kind === 'aborted' || this.options.signal?.aborted) throw new InterruptedError();
        debug?.(`< ${failure.kind}: ${sanitizeLine(failure.message)} after ${Date.now() - started}ms`);
        // --max-time cut this attempt short: its own words, whatever phase it was in.
        if (attemptMs < this.options.timeoutMs && (failure.kind === 'timeout' || failure.code === 'CONNECT_TIMEOUT'))
          throw failure.kind === 'timeout'
            ? gaveUp('the last attempt timed out', idempotent ? {} : { hint: notRetriedHint(method) })
            : gaveUp('the last attempt was not connected', { sent: false });
        // POST and PATCH are retried only when no byte of the request left
        // (refused, DNS, a proxy refusing the tunnel): a retry after that
        // could create a second monitor.
        if (!retryableFailure(failure.kind, idempotent, failure.code) || attempt >= attempts)
          throw this.transportError(failure, method, url, transport?.proxy, {
            attempts: attempt,
            ms: performance.now() - began,
          });
        await waitToRetry(attempt, undefined, () => gaveUp(`the last attempt failed (${failure.kind})`));
        continue;
      }

      const result: HttpResponse = {
        status: response.status,
        headers: response.headers,
        body: undefined,
        text: response.body.toString('utf8'),
        requestId: response.headers['x-request-id'],
        method,
        url,
      };
      debug?.(`< ${response.status} in ${Date.now() - started}ms`);
      trace('<', response.headers);
      if (response.status === 304 && spec.acceptNotModified) return result;
      if (response.status >= 200 && response.status < 300) return parseBody(result, spec.anyBody);
      if (!isRetryableStatus(response.status)) throw failureFromResponse(result);
      const retryAfter = parseRetryAfter(response.headers['retry-after']);
      // A POST or PATCH answered with an error status is not retried either;
      // the server's own words say what happened, so no "may have been
      // applied" hint (that is for answers that never came).
      if (!idempotent || attempt >= attempts)
        throw failureFromResponse(result, {
          suffix: retryAfter !== undefined ? `; the server asks to retry after ${describeWait(retryAfter)}` : '',
        });
      if (retryAfter !== undefined && retryAfter > RETRY_AFTER_MAX_MS)
        throw failureFromResponse(result, {
          suffix: `; the server asks to retry after ${describeWait(retryAfter)}, longer than cpk waits (${RETRY_AFTER_MAX_MS / 1000}s): try again then`,
          exitCode: ExitCode.FAILURE,
        });
      await waitToRetry(attempt, retryAfter, () =>
        failureFromResponse(result, {
          suffix: `; no time left for another attempt within --max-time ${deadline!.seconds}s`,
        }),
      );
    }
  }

  private transportError(
    failure: TransportError,
    method: string,
    url: string,
    proxy?: string,
    /** How many attempts were made, and how long they took with the waits between them. */
    tries: { attempts: number; ms: number } = { attempts: 1, ms: 0 },
  ): Error {
    const where = `${method} ${url}`;
    const origin = new URL(url).origin;
    const proxyHint = proxy ? `a proxy is set (${proxy}): check it, or list the host in NO_PROXY` : undefined;
    const got = failure.response;
    const gotText = got ? `status ${got.status}, ${typeOf(got.headers)}` : undefined;
    const details = { status: got?.status ?? 0, method, url, contentType: got ? typeOf(got.headers) : undefined };
    const maybeApplied = isIdempotent(method) ? undefined : notRetriedHint(method);
    const cause = failure;
    switch (failure.kind) {
      case 'connect':
        return new NetworkError(
          `cannot connect to ${origin} (${failure.code === 'CONNECT_TIMEOUT' ? failure.message : (failure.code ?? 'connection failed')})`,
          { cause, mayHaveReachedServer: false, hint: proxyHint ?? 'check --base-url / CPK_BASE_URL and your network' },
        );
      case 'proxy':
        return new NetworkError(`cannot reach ${origin} through the proxy: ${sanitizeLine(failure.message)}`, {
          cause,
          mayHaveReachedServer: false,
          hint: proxyHint,
        });
      case 'timeout':
        return new NetworkError(
          // "after 1s" alone, after three attempts and 3.8 s, would understate what was tried.
          `${where} timed out after ${this.options.timeoutMs / 1000}s${
            tries.attempts > 1
              ? ` on each of ${tries.attempts} attempts (${(Math.round(tries.ms / 100) / 10).toFixed(1)}s in all)`
              : ''
          }${gotText ? ` (${gotText} arrived, then the body stalled)` : ''}`,
          { cause, hint: maybeApplied ?? 'raise --timeout or try again later' },
        );
      case 'tls':
        return new NetworkError(`TLS error talking to ${origin}: ${sanitizeLine(failure.message)}`, {
          cause,
          mayHaveReachedServer: false,
          hint: 'for a private CA, set NODE_EXTRA_CA_CERTS to its PEM file',
        });
      case 'reset':
        return new NetworkError(`connection to ${origin} closed before a response (${failure.code ?? 'reset'})`, {
          cause,
          hint: maybeApplied,
        });
      case 'incomplete':
        return new ApiError(
          `the response to ${where} was cut short${gotText ? ` (${gotText}, ${got?.receivedBytes ?? 0} bytes received)` : ''}`,
          details,
          { cause, exitCode: ExitCode.FAILURE, hint: maybeApplied },
        );
      case 'too-large':
        return new ApiError(
          `the response to ${where}${gotText ? ` (${gotText})` : ''} is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB, more than cpk accepts`,
          details,
          { cause, exitCode: ExitCode.FAILURE },
        );
      default:
        return new InterruptedError();
    }
  }

  async close(): Promise<void> {
    if (this.transportPromise) await (await this.transportPromise).close();
  }
}

/**
 * The HttpClient of the command line and of createClient() alike: the token
 * and a proxy's user and password registered for redaction, a bad
 * CPK_TRANSPORT refused before anything is sent.
 */
export function createHttpClient(
  env: Env,
  many: boolean,
  options: Omit<HttpClientOptions, 'transport' | 'userAgent'>,
): HttpClient {
  registerSecret(options.token);
  for (const name of ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy']) registerUrlCredentials(env[name]);
  chooseTransport(env, many, options.baseUrl);
  return new HttpClient({
    ...options,
    userAgent,
    transport: () => createTransport(env, many, options.baseUrl, options.timeoutMs),
  });
}

function notRetriedHint(method: string): string {
  return `${method} is not retried automatically, since it may have been applied: check before running it again`;
}

/** "45s (at 2030-01-01T00:00:00.000Z)": how long, and when, for a person to act on. */
function describeWait(ms: number): string {
  const at = new Date(Date.now() + ms);
  // A Retry-After of 99999999999999999999 seconds is past any date a Date can hold.
  if (Number.isNaN(at.getTime())) return 'more than 100 million days';
  return `${Math.ceil(ms / 1000)}s (at ${at.toISOString()})`;
}

function typeOf(headers: Record<string, string>): string {
  return headers['content-type']?.split(';')[0]?.trim() || 'no content type';
}

export function detailsOf(result: HttpResponse, requestId = result.requestId): ApiErrorDetails {
  const { status, method, url } = result;
  return { status, method, url, requestId, contentType: typeOf(result.headers) };
}

/** A 2xx body as JSON; `lenient` (`cpk api`) leaves one that is not JSON as text. */
function parseBody(result: HttpResponse, lenient: boolean | undefined): HttpResponse {
  if (result.text.trim() === '') return result;
  const parsed = parseJson(result.text);
  if (parsed.ok) result.body = parsed.value;
  else if (!lenient)
    throw new ApiError(
      `unreadable response to ${result.method} ${result.url}: status ${result.status}, ${typeOf(result.headers)}, ${parsed.error instanceof SyntaxError ? 'not valid JSON' : `JSON ${parsed.error.message.replace(/^is /, '')}`}`,
      detailsOf(result),
      { exitCode: ExitCode.FAILURE },
    );
  return result;
}

/** A non-2xx answer as an ApiError, in the server's words when it gave them. */
function failureFromResponse(result: HttpResponse, extra: { suffix?: string; exitCode?: number } = {}): ApiError {
  let serverMessage: string | undefined;
  let requestId = result.requestId;
  const parsed = parseJson(result.text);
  if (parsed.ok && isPlainObject(parsed.value)) {
    const error = ownField(parsed.value, 'error');
    const request_id = ownField(parsed.value, 'request_id');
    if (typeof error === 'string' && error.trim()) serverMessage = sanitizeLine(error);
    if (typeof request_id === 'string' && request_id) requestId = sanitizeLine(request_id);
  }
  const message =
    result.status >= 300 && result.status < 400
      ? describeRedirect(result)
      : (serverMessage ??
        `the server answered ${result.status} with ${typeOf(result.headers)} to ${result.method} ${result.url}`);
  return new ApiError(message + (extra.suffix ?? ''), detailsOf(result, requestId), extra);
}

/**
 * cpk follows no redirect, to the same origin or another: the token is only
 * ever sent to the configured base URL. The target is named, made
 * absolute, so the person can fix the base URL.
 */
function describeRedirect(result: HttpResponse): string {
  const location = result.headers.location;
  const absolute = location && URL.canParse(location, result.url) ? new URL(location, result.url) : undefined;
  const target = absolute?.href ?? (location || 'an unnamed location');
  const elsewhere = absolute ? absolute.origin !== new URL(result.url).origin : Boolean(location);
  return (
    `the server redirected ${result.method} ${result.url} (${result.status}) to ${sanitizeLine(target)}` +
    `${elsewhere ? ', another origin' : ''}; cpk does not follow redirects and sent nothing there: check the base URL`
  );
}
