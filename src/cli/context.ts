// The context a command runs with: its IO, the global options, an Output, and
// a lazily built API client (so `--help` never loads undici).
import { once } from 'node:events';
import type { IO } from '../core/io.js';
import { Output } from '../output/output.js';
import type { Api } from '../core/api/client.js';
import type { InventoryEntry, InventoryRecorder } from '../config/inventory.js';
import type { SecretStore } from '../config/keychain.js';
import type { Session } from '../config/session.js';
import type { CiReport } from './ci.js';
import { ConfirmationRequiredError, InterruptedError } from '../core/errors.js';
import { registerSecret } from '../core/redact.js';
import { resolveAttempts } from '../core/http/attempts.js';
import { parseMaxTime, type Globals } from './globals.js';
import { guidanceFor, type Target } from './guidance.js';
import type { Env } from '../core/paths.js';

export interface ApiOptions {
  /** Send no token (the public OpenAPI document). */
  anonymous?: boolean;
  /** Aborts requests instead of the command's interrupt signal (apply lets requests already sent finish). */
  signal?: AbortSignal;
  /** Talk to exactly this base URL with this token (`auth login` verifying a new token). */
  credentials?: { baseUrl: string; token: string };
  /** Several requests at once (bulk, plan/apply): use undici's keep-alive pool (src/core/http/select.ts). */
  many?: boolean;
  /** Bound each attempt by this instead of --timeout (`monitors wait`, whose --timeout bounds the whole wait). */
  attemptSeconds?: number;
}

export class Context {
  readonly out: Output;
  private readonly apis: Api[] = [];
  private readonly recorders = new Map<Api, InventoryRecorder>();
  /** The base URL and where the token came from, once api() resolved them (for guidance()). */
  private target: Target | undefined;
  /** The token the last api() resolved: saved plans record a digest of it (tokenDigest). */
  #token: string | undefined;
  /** The exit code of a command that succeeded but has something to signal (plan: 10 when there are changes). */
  exitCode: number | undefined;
  /** The CI report (annotations, job summary, --junit) of a command that makes one (src/cli/ci.ts). */
  ci: CiReport | undefined;
  /** How long main waits, after the first Ctrl-C or SIGTERM, for the command to unwind before it exits 130. */
  interruptGraceMs = 2_000;
  /** The OS keychain; tests inject a fake one here. */
  secretStore: SecretStore | undefined;
  /** --max-time's deadline, set by the first api(): every request of the command shares it. */
  private deadline: { at: number; seconds: number } | undefined;
  constructor(
    readonly io: IO,
    readonly globals: Globals,
    readonly signal?: AbortSignal,
  ) {
    this.out = new Output(io, {
      json: globals.json,
      format: globals.format,
      columns: globals.columns,
      colorFlag: globals.color,
      debug: globals.debug,
      signal,
      agent: globals.agent,
    });
  }

  get env(): Env {
    return this.io.env;
  }

  async secrets(): Promise<SecretStore> {
    this.secretStore ??= (await import('../config/keychain.js')).systemKeychain(this.env);
    return this.secretStore;
  }

  /** Base URL, profile and token per flag > environment > stored profile (src/config/session.ts). */
  async session(options: { anonymous?: boolean } = {}): Promise<Session> {
    const { resolveSession } = await import('../config/session.js');
    const session = await resolveSession({
      flags: { baseUrl: this.globals.baseUrl, profile: this.globals.profile },
      env: this.env,
      anonymous: options.anonymous,
      secrets: () => this.secrets(),
      warn: (text) => this.out.warn(text),
    });
    // Masked from now on wherever it would be printed, whether or not a request is made.
    registerSecret(session.token?.value);
    return session;
  }

  /**
   * A short digest of the last api()'s token: a saved plan records it, since the service cannot say which
   * account a token belongs to (interface, section 5).
   */
  async tokenDigest(): Promise<string | undefined> {
    if (this.#token === undefined) return undefined;
    const { createHash } = await import('node:crypto');
    return `sha256:${createHash('sha256').update(`cpk plan token\n${this.#token}`).digest('hex').slice(0, 16)}`;
  }

  /** Whether a value is the last api()'s token. */
  isToken(value: string): boolean {
    return this.#token !== undefined && value === this.#token;
  }

  /** Builds the API client: resolves base URL and token first, so a missing token fails before any import. */
  async api(options: ApiOptions = {}): Promise<Api> {
    const attempts = resolveAttempts(this.globals.retries, this.env);
    const maxTime = this.globals.maxTimeSeconds ?? parseMaxTime(this.env);
    if (maxTime !== undefined) this.deadline ??= { at: performance.now() + maxTime * 1000, seconds: maxTime };
    let baseUrl: string;
    let token: string | undefined;
    if (options.credentials) {
      ({ baseUrl, token } = options.credentials);
    } else {
      const session = await this.session({ anonymous: options.anonymous });
      if (!options.anonymous && session.tokenProblem) throw session.tokenProblem;
      baseUrl = session.baseUrl.value;
      token = session.token?.value;
      this.target = { baseUrl, tokenSource: session.token?.source };
    }
    this.#token = token;
    const [{ createHttpClient }, { Api }] = await Promise.all([
      import('../core/http/client.js'),
      import('../core/api/client.js'),
    ]);
    const env = this.env;
    const http = createHttpClient(env, options.many === true, {
      baseUrl,
      token,
      timeoutMs: (options.attemptSeconds ?? this.globals.timeoutSeconds) * 1000,
      deadline: this.deadline,
      attempts,
      debug: this.globals.debug ? (line) => this.out.debug(line) : undefined,
      signal: options.signal ?? this.signal,
    });
    // The local inventory listens to what the service returns for this base URL and token
    // (not for `auth login` verifying a token, nor for the anonymous document).
    let recorder: InventoryRecorder | undefined;
    if (!options.anonymous && !options.credentials && token) {
      const { InventoryRecorder } = await import('../config/inventory.js');
      recorder = new InventoryRecorder(baseUrl, token, env, (line) => this.out.debug(line));
    }
    const api = new Api(http, recorder);
    this.apis.push(api);
    if (recorder) this.recorders.set(api, recorder);
    return api;
  }

  /** The next step for an error whose fix depends on where the base URL and token came from (./guidance.ts). */
  guidance(error: unknown): string | undefined {
    return this.target && guidanceFor(error, this.target);
  }

  /** The monitors known here for an Api's base URL and token, most recent first; none if the inventory cannot be read. */
  knownMonitors(api: Api): InventoryEntry[] {
    try {
      return this.recorders.get(api)?.entries() ?? [];
    } catch (error) {
      this.out.debug(`inventory: cannot be read (${(error as Error).message})`);
      return [];
    }
  }

  /**
   * Asks a yes/no question on stderr and reads the answer from stdin: `y` or `yes` confirms, or, given
   * `word`, that word alone (a question that deletes monitors asks for `yes` typed in full, as Terraform
   * does, so that a `y` typed out of habit deletes nothing). Ctrl-C ends it with InterruptedError.
   * In agent mode nothing is asked: `preview`, what would happen, ends the command (exit 2).
   */
  async confirm(
    question: string,
    { word, preview }: { word?: string; preview?: Readonly<Record<string, unknown>> } = {},
  ): Promise<boolean> {
    if (this.signal?.aborted) throw new InterruptedError();
    if (this.globals.agent) throw new ConfirmationRequiredError({ question, ...preview }, question.replace(/\?$/, ''));
    const { createInterface } = await import('node:readline');
    // The question goes through Output (sanitized, redacted); readline only reads the answer.
    const rl = createInterface({ input: this.io.stdin, terminal: false });
    try {
      this.out.prompt(word === undefined ? `${question} [y/N] ` : `${question} Type ${word} to confirm: `);
      const signal = this.signal;
      // The first line is the answer; the end of input is "no".
      const [answer] = await Promise.race([once(rl, 'line', { signal }), once(rl, 'close', { signal })]);
      if (typeof answer !== 'string') return false;
      return word === undefined ? /^y(es)?$/i.test(answer.trim()) : answer.trim() === word;
    } catch (error) {
      throw this.signal?.aborted ? new InterruptedError() : error;
    } finally {
      rl.close();
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.recorders.values()].map((recorder) => recorder.flush()));
    await Promise.all(this.apis.map((api) => api.close()));
  }
}
