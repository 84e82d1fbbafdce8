// `cpk monitors wait ID... --for status=up [--timeout 5m] [--every 10s]`: for CI after a deploy, as `kubectl wait`
// and `gh run watch --exit-status` (docs/monitors.md, "Waiting for a condition"). A server or network failure is a
// warning and the next poll tries again. Each request is bounded by the time left (at most 30 s per attempt), so
// the wait never overruns its timeout by more than one check.
import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { CpkError, ExitCode, InterruptedError, UsageError } from '../../core/errors.js';
import { parseEvery } from '../reports/get.js';
import { readIdList } from '../../parse/ids.js';
import { action, describe, type RawOptions, type Runtime } from '../../cli/action.js';
import { DEFAULT_TIMEOUT_SECONDS } from '../../core/http/retry.js';
import { JUNIT_HELP, parseJunit, withCiReport } from '../../cli/ci.js';
import { closest } from '../../core/closest.js';
import { leafPaths } from '../../output/render.js';
import { nameMissing } from '../../core/api/client.js';
import { startSpinner } from '../../output/progress.js';
import { sanitizeLine } from '../../core/sanitize.js';
import { redactSecrets } from '../../core/redact.js';

const DEFAULT_WAIT_SECONDS = 300;
const DEFAULT_EVERY_SECONDS = 10;

export function parseWaitOptions(
  ids: string[],
  raw: RawOptions,
  globals: { timeoutSeconds: number; timeoutGiven?: boolean | undefined },
) {
  const condition = typeof raw.for === 'string' ? raw.for : '';
  const eq = condition.indexOf('=');
  if (eq <= 0) throw new UsageError(`--for needs FIELD=VALUE, e.g. --for status=up (got "${condition}")`);
  const path = condition.slice(0, eq).split('.');
  if (path.some((p) => p === '')) throw new UsageError(`invalid --for "${condition}": an empty part in the field path`);
  return {
    ids,
    path,
    value: condition.slice(eq + 1),
    timeoutSeconds: globals.timeoutGiven ? globals.timeoutSeconds : DEFAULT_WAIT_SECONDS,
    everySeconds: parseEvery(raw.every, `${DEFAULT_EVERY_SECONDS}s`),
    // --junit FILE: one test case per monitor, failed when it did not match in time.
    junit: parseJunit(raw),
  };
}

export function register(parent: Command, runtime: Runtime): void {
  const cmd = parent
    .command('wait')
    .description('Wait until monitors match a condition (for CI after a deploy); exit 8 on timeout')
    .argument('<ids...>', 'monitor ids; - reads ids from stdin, one per line')
    .requiredOption(
      '--for <field=value>',
      'the condition, on any field path: status=up, paused=false, last_check.status=up',
    )
    .option('--every <duration>', `time between checks: 5s, 1m (default ${DEFAULT_EVERY_SECONDS}s)`)
    .option('--junit <file>', JUNIT_HELP)
    .addHelpText(
      'after',
      `\n--timeout bounds the whole wait here\n(a duration: 90s, 5m; default ${DEFAULT_WAIT_SECONDS / 60}m).`,
    )
    .action(
      action(runtime, async (ctx, args, opts) => {
        const list = await readIdList(args, ctx.io, 'monitor id');
        await run(parseWaitOptions(list.ids, opts, ctx.globals), ctx);
      }),
    );
  describe(cmd, {
    effect: 'read',
    completes: 'monitor-ids',
    examples: [
      'cpk monitors wait mon_123 --for status=up --timeout 5m',
      'cpk monitors wait mon_1 mon_2 --for last_check.status=up --every 5s',
    ],
  });
}

function read(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function text(value: unknown): string {
  if (value === undefined) return '(absent)';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export async function run(opts: ReturnType<typeof parseWaitOptions>, ctx: Context): Promise<void> {
  return withCiReport(ctx, 'cpk monitors wait', opts.junit, () => wait(opts, ctx));
}

async function wait(opts: ReturnType<typeof parseWaitOptions>, ctx: Context): Promise<void> {
  const { pause, transient } = await import('../../cli/watch.js');
  const deadline = Date.now() + opts.timeoutSeconds * 1000;
  const api = await ctx.api({
    many: opts.ids.length > 1,
    attemptSeconds: Math.min(DEFAULT_TIMEOUT_SECONDS, opts.timeoutSeconds),
  });
  const last = new Map<string, unknown>();
  const field = opts.path.join('.');
  const pending = () => opts.ids.filter((id) => text(last.get(id)) !== opts.value);
  const seen = (id: string) => `${id} ${field}=${last.has(id) ? text(last.get(id)) : '(not read)'}`;
  let warned = false;
  /** Ids already warned about a field their answer lacks. */
  const lacking = new Set<string>();
  const progress = await startWaitProgress(ctx, () => {
    const left = pending();
    const values = left.map((id) => (last.has(id) ? text(last.get(id)) : '…')).join(', ');
    const who = opts.ids.length === 1 ? (opts.ids[0] as string) : `${left.length} of ${opts.ids.length} monitors`;
    return `Waiting for ${who} to have ${field}=${opts.value}: now ${values || opts.value}; ${clockLeft(deadline - Date.now())} left`;
  });
  try {
    for (;;) {
      const polled = pending();
      const results = await Promise.allSettled(polled.map((id) => api.getMonitor(id)));
      for (const [i, result] of results.entries()) {
        const id = polled[i] as string;
        if (result.status === 'fulfilled') {
          const value = read(result.value, opts.path);
          last.set(id, value);
          if (value === undefined && !lacking.has(id)) {
            // A misspelt field would otherwise wait out the whole timeout in silence.
            lacking.add(id);
            await progress.warn(`${id} has no field ${field}${nearest(field, result.value)}; waiting on, as asked`);
          }
          continue;
        }
        const error = result.reason;
        if (ctx.signal?.aborted) throw error;
        if (!transient(error)) throw nameMissing('monitor', id, error);
        if (!warned) await progress.warn(`${id}: ${(error as Error).message}; checking again in ${opts.everySeconds}s`);
        warned = true;
      }
      progress.update();
      const left = deadline - Date.now();
      if (pending().length === 0 || left <= 0) break;
      if (!(await pause(Math.min(opts.everySeconds * 1000, left), ctx.signal))) throw new InterruptedError();
    }
  } finally {
    progress.stop();
  }
  const missing = pending();
  const timedOut = `timed out after ${opts.timeoutSeconds}s`;
  for (const id of opts.ids) {
    const failure = missing.includes(id) ? { message: `${timedOut}: ${seen(id)}` } : undefined;
    ctx.ci?.add({ name: `${id} ${field}=${opts.value}`, classname: 'monitors', failure });
  }
  if (missing.length > 0)
    throw new CpkError(
      `${timedOut} waiting for ${field}=${opts.value}: ${missing.map(seen).join(', ')}`,
      ExitCode.WAIT_TIMEOUT,
    );
  if (ctx.out.json) ctx.out.printJson(opts.ids.map((id) => ({ id, [field]: last.get(id) })));
  else
    ctx.out.info(`${opts.ids.length === 1 ? opts.ids[0] : `all ${opts.ids.length} monitors`}: ${field}=${opts.value}`);
}

/** ` (did you mean status?)`, naming the nearest field the monitor has, or ` (it has: a, b, c)`. */
function nearest(field: string, monitor: unknown): string {
  const paths = [...leafPaths(monitor).keys()];
  const tops = monitor !== null && typeof monitor === 'object' ? Object.keys(monitor) : [];
  const candidates = [...new Set([...paths, ...tops])];
  const near = closest(field, candidates);
  if (near !== undefined) return ` (did you mean ${near}?)`;
  return candidates.length === 0 ? '' : ` (it has: ${tops.join(', ')})`;
}

/** `4m50s`, `45s`. */
function clockLeft(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return s >= 60 ? `${Math.floor(s / 60)}m${s % 60 === 0 ? '' : `${s % 60}s`}` : `${s}s`;
}

/** A progress line on stderr, redrawn each second, where decoration is allowed: a script's stderr stays quiet. */
async function startWaitProgress(ctx: Context, text: () => string) {
  const line = () => redactSecrets(sanitizeLine(text()));
  const start = async () => (ctx.out.stderrColor ? startSpinner(ctx.io.stderr, line()) : undefined);
  let spinner = await start();
  const timer = setInterval(() => spinner?.update(line()), 1000);
  timer.unref();
  return {
    update: () => spinner?.update(line()),
    async warn(warning: string) {
      spinner?.stop();
      ctx.out.warn(warning);
      if (spinner) spinner = await start();
    },
    stop() {
      clearInterval(timer);
      spinner?.stop();
    },
  };
}
