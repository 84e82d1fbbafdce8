import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../core/errors.js';
import { parseDuration } from '../../parse/duration.js';
import { checkId } from '../../parse/id.js';
import { action, describe, type Runtime, type RawOptions } from '../../cli/action.js';
import { nameMissing } from '../../core/api/client.js';
import { addGateOptions, checkGate, compileGate, showsResult, parseGateOptions } from '../../cli/gate.js';
import { withCiReport } from '../../cli/ci.js';

export const DEFAULT_WATCH_EVERY = '30s';

/** --every (of the watches and of `monitors wait`) in seconds, more than 0; `fallback` when not given. */
export function parseEvery(every: unknown, fallback: string): number {
  const text = every === undefined ? fallback : String(every);
  const seconds = parseDuration(text, '--every');
  if (seconds <= 0) throw new UsageError(`invalid --every "${text}": must be more than 0 seconds`);
  return seconds;
}

/** commander's raw values to the options: --watch's seconds between refreshes; --assert and --junit, the gate. */
export function parseReportGetOptions([id]: string[], raw: RawOptions) {
  const gate = parseGateOptions(raw);
  if (raw.watch !== true && raw.every !== undefined) throw new UsageError('--every only applies with --watch');
  const watchSeconds = raw.watch === true ? parseEvery(raw.every, DEFAULT_WATCH_EVERY) : undefined;
  if (watchSeconds !== undefined && gate.asserts.length > 0)
    throw new UsageError('--assert checks one reading: it cannot be given with --watch');
  return { id: checkId(id as string, 'report id'), watchSeconds, gate };
}

export function register(reports: Command, runtime: Runtime): void {
  const cmd: Command = reports
    .command('get')
    .description('Show a report')
    .argument('[id]', 'report id (none: pick one, on a terminal)')
    .option('-w, --watch', 'refresh until Ctrl-C: in place on a terminal, else one JSON line per change')
    .option('--every <duration>', `time between refreshes with --watch: 10s, 1m, 5m (default ${DEFAULT_WATCH_EVERY})`);
  addGateOptions(cmd, 'the report').action(
    action(runtime, async (ctx, args, opts) => {
      const id = args[0] ?? (await (await import('../../cli/pick.js')).pickId(ctx, 'reports', 'id'));
      await run(parseReportGetOptions([id], opts), ctx);
    }),
  );
  describe(cmd, {
    effect: 'read',
    completes: 'report-ids',
    synonyms: ['show'],
    // --watch prints one JSON line per change until Ctrl-C: never a single document.
    streams: (options) => options.watch === true,
    tool: true,
    examples: [
      'cpk reports get rpt_123',
      'cpk reports get rpt_123 --json',
      'cpk reports get rpt_123 --watch --every 10s  # live; Ctrl-C ends it (exit 0)',
      'cpk reports get rpt_123 --watch > changes.ndjson   # a JSON line per change',
      "cpk reports get rpt_123 --assert 'uptime_percent >= `99.5`'   # exit 9 below",
    ],
  });
}

export async function run(opts: ReturnType<typeof parseReportGetOptions>, ctx: Context): Promise<void> {
  if (opts.watchSeconds !== undefined) {
    const { watchReport } = await import('./watch.js');
    return watchReport({ id: opts.id, everyMs: opts.watchSeconds * 1000 }, ctx);
  }
  const assertions = await compileGate(opts.gate);
  const show = async () => {
    const api = await ctx.api();
    const report = await ctx.out
      .spin('Fetching report', () => api.getReport(opts.id))
      .catch((error: unknown) => Promise.reject(nameMissing('report', opts.id, error)));
    if (showsResult(ctx, assertions)) await ctx.out.print(report, { title: 'Report' });
    const failed = await checkGate(ctx, assertions, [{ value: report }]);
    if (failed) throw failed;
  };
  if (assertions.length === 0) return show();
  return withCiReport(ctx, `cpk reports get ${opts.id}`, opts.gate.junit, show);
}
