// The global options (--timeout, --max-time, --retries, -o, --query, ...) as
// commander leaves them, made typed values once for every command; bad input
// is a usage error before anything is sent.
import { UsageError } from '../core/errors.js';
import { parseRetriesFlag } from '../core/http/attempts.js';
import { DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS } from '../core/http/retry.js';
import type { Env } from '../core/paths.js';
import { isMachineFormat, parseColumns, parseFormat } from '../output/format.js';
import { agentMode } from './agent.js';
import { parseDuration } from '../parse/duration.js';

/** A time limit: a positive number of seconds (`30`, `2.5`) or a duration (`90s`, `5m`), at most MAX_TIMEOUT_SECONDS. */
function parseTimeLimit(value: unknown, what: string): number {
  const expected = `expected a positive number of seconds, at most ${MAX_TIMEOUT_SECONDS}`;
  const n = parseDuration(String(value), what, { fractions: true, expected });
  if (n <= 0 || n > MAX_TIMEOUT_SECONDS) throw new UsageError(`invalid ${what} "${String(value)}": ${expected}`);
  return n;
}

/** CPK_MAX_TIME (empty: unset), for a command without --max-time. */
export function parseMaxTime(env: Env): number | undefined {
  const fromEnv = env.CPK_MAX_TIME;
  if (fromEnv === undefined || fromEnv.trim() === '') return undefined;
  return parseTimeLimit(fromEnv, 'CPK_MAX_TIME');
}

/** Turns commander's raw global values into typed ones (usage errors on bad input). */
export function parseGlobals(raw: Record<string, unknown>, env: Env = {}) {
  const timeoutSeconds = raw.timeout === undefined ? DEFAULT_TIMEOUT_SECONDS : parseTimeLimit(raw.timeout, '--timeout');
  const agent = agentMode(raw.agent === true, env);
  // An agent reads one JSON document, whatever -o says (src/cli/agent.ts).
  const requested = parseFormat(raw);
  const format = agent ? 'json' : requested;
  return {
    /** Agent mode (--agent, CPK_AGENT=1, a detected agent): one JSON document on stdout, no prompt. */
    agent,
    baseUrl: typeof raw.baseUrl === 'string' ? raw.baseUrl : undefined,
    /** A machine format (-o json, jsonl, yaml; --json; --query): errors are JSON on stderr. */
    json: isMachineFormat(format),
    format,
    columns: parseColumns(raw.columns),
    timeoutSeconds,
    /** Seconds for the whole command's network time; undefined: CPK_MAX_TIME, else no bound. */
    maxTimeSeconds: raw.maxTime === undefined ? undefined : parseTimeLimit(raw.maxTime, '--max-time'),
    /** `monitors wait` reads a given --timeout as the whole wait's bound. */
    timeoutGiven: raw.timeout !== undefined,
    /** Undefined when not given: CPK_MAX_ATTEMPTS or the default apply. */
    retries: raw.retries === undefined ? undefined : parseRetriesFlag(raw.retries),
    debug: raw.debug === true,
    color: raw.color !== false,
    query: typeof raw.query === 'string' ? raw.query : undefined,
    /**
     * Whether the output was asked for (-o, --json, --query, --columns, or agent mode, whose one document is the
     * result): a gate then prints the result too.
     */
    outputAsked:
      agent ||
      raw.output !== undefined ||
      raw.json === true ||
      typeof raw.query === 'string' ||
      raw.columns !== undefined,
    /** Validated where it is used. */
    profile: typeof raw.profile === 'string' ? raw.profile : undefined,
  };
}

export type Globals = ReturnType<typeof parseGlobals>;
