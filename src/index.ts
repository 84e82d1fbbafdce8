// The programmatic entry point, `import { createClient } from 'cpk'`: the command
// line's Api and HttpClient without a terminal (docs/scripting.md, "From JavaScript").
// It never reads cpk's config file, profiles or keychain: a library should not
// pick up a person's stored credentials behind a script's back.
import { Api } from './core/api/client.js';
import { DEFAULT_TIMEOUT_SECONDS, MAX_RETRIES, MAX_TIMEOUT_SECONDS } from './core/http/retry.js';
import { UsageError } from './core/errors.js';
import { createHttpClient } from './core/http/client.js';
import type { Env } from './core/paths.js';
import { resolveAttempts } from './core/http/attempts.js';
import { DEFAULT_BASE_URL, normalizeBaseUrl } from './core/base-url.js';
import { checkTokenPrefix } from './core/token.js';
import { version } from './core/version.js';
import { redactSecrets } from './core/redact.js';

export { Api, endpoints } from './core/api/client.js';
export type { ChannelUpdateResult, DeleteResult, MonitorInput, MonitorRef } from './core/api/client.js';
export type { HttpResponse, RequestSpec, RequestDescription } from './core/http/client.js';
export type { JsonObject } from './core/json.js';
export {
  CpkError,
  UsageError,
  AuthError,
  NetworkError,
  ApiError,
  InterruptedError,
  ExitCode,
  exitCodeForStatus,
} from './core/errors.js';
export type { ApiErrorDetails, CpkErrorOptions, ExitCodeValue } from './core/errors.js';
export { DEFAULT_BASE_URL } from './core/base-url.js';
export { version };

export interface ClientOptions {
  /**
   * The service's base URL, e.g. `https://api.example.com` (`/v1` is appended
   * when the path is empty). https, or http for loopback hosts only.
   * Default: `CPK_BASE_URL`, else `http://127.0.0.1:4010/v1` (`cpk emulator`).
   */
  baseUrl?: string | undefined;
  /** The API token (`cpk_...`). Default: `CPK_TOKEN`. */
  token?: string | undefined;
  /** Bounds each attempt as a whole (connect, headers, body), in seconds. Default 30, at most 86400. */
  timeoutSeconds?: number | undefined;
  /**
   * Retries after the first attempt, 0 to 10, as `--retries`. Default:
   * `CPK_MAX_ATTEMPTS` (attempts in all), else 2. POST and PATCH are retried
   * only when no byte of the request was sent, as on the command line.
   */
  retries?: number | undefined;
  /**
   * Many requests at once: send them through undici's keep-alive pool, as the
   * CLI's bulk commands do. Default false: node:http, where reads reuse an idle
   * connection and each write takes a connection of its own.
   */
  keepAlive?: boolean | undefined;
  /** Aborting it cancels requests in flight and retry waits: they reject with InterruptedError. */
  signal?: AbortSignal | undefined;
  /** Receives the `--debug` trace, one line at a time, with the token redacted. */
  debug?: ((line: string) => void) | undefined;
  /** Where CPK_* and the proxy variables are read. Default `process.env`; `{}` reads none. */
  env?: Env | undefined;
}

/** The typed API layer of the command line: one method per endpoint, plus `raw` and `close`. */
export type Client = Api;

/** An option as given when `ok`, else a UsageError naming it and what it takes. */
function checked(name: string, value: number, ok: boolean, expected: string): number {
  if (!ok) throw new UsageError(`invalid ${name} ${String(value)}: expected ${expected}`);
  return value;
}

/**
 * A client for the service with the command line's behaviour. Options are
 * checked here (UsageError, AuthError); nothing is sent until a method is
 * called. Call `close()` when done (it releases a keep-alive pool).
 *
 * ```js
 * import { createClient, ApiError } from 'cpk';
 * const cpk = createClient({ baseUrl: 'https://api.example.com', token: process.env.CPK_TOKEN });
 * const { id } = await cpk.createMonitor({ name: 'api', target: 'https://api.example.com/health' });
 * ```
 */
export function createClient(options: ClientOptions = {}): Client {
  const env: Env = options.env ?? process.env;
  const baseUrl =
    options.baseUrl !== undefined
      ? normalizeBaseUrl(options.baseUrl, 'createClient({ baseUrl })')
      : env.CPK_BASE_URL
        ? normalizeBaseUrl(env.CPK_BASE_URL, 'CPK_BASE_URL')
        : DEFAULT_BASE_URL;
  const [token, tokenFrom] =
    options.token !== undefined
      ? [options.token.trim(), 'createClient({ token })']
      : [env.CPK_TOKEN?.trim() || undefined, 'CPK_TOKEN'];
  if (token !== undefined) checkTokenPrefix(token, tokenFrom);
  const { timeoutSeconds: seconds = DEFAULT_TIMEOUT_SECONDS, retries } = options;
  const timeoutSeconds = checked(
    'timeoutSeconds',
    seconds,
    typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 && seconds <= MAX_TIMEOUT_SECONDS,
    `a positive number of seconds, at most ${MAX_TIMEOUT_SECONDS}`,
  );
  if (retries !== undefined) {
    const ok = typeof retries === 'number' && Number.isInteger(retries) && retries >= 0 && retries <= MAX_RETRIES;
    checked('retries', retries, ok, `a whole number of retries from 0 to ${MAX_RETRIES}`);
  }
  const attempts = resolveAttempts(retries, env);
  const debug = options.debug;
  const http = createHttpClient(env, options.keepAlive === true, {
    baseUrl,
    token,
    // The CLI's rule (exit 4, nothing sent) as a rejected promise.
    noToken: 'no token: pass { token } to createClient or set CPK_TOKEN',
    timeoutMs: timeoutSeconds * 1000,
    attempts,
    // The trace masks what the CLI's --debug masks.
    debug: debug && ((line: string) => debug(redactSecrets(line))),
    signal: options.signal,
  });
  return new Api(http);
}
