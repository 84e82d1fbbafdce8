import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../core/errors.js';
import { parseDuration } from '../../parse/duration.js';
import { checkId } from '../../parse/id.js';
import { action, examples, type Runtime, type RawOptions } from '../../cli/action.js';
import { nameMissing } from '../../core/api/client.js';

export interface ReportGetOptions {
  id: string;
  /** Refresh until Ctrl-C, waiting this many seconds between refreshes (--watch). */
  watchSeconds?: number | undefined;
}

export const DEFAULT_WATCH_EVERY = '30s';

/** Turns --watch/--every into seconds between refreshes, or undefined without --watch. */
export function parseWatch(opts: RawOptions): number | undefined {
  if (opts.watch !== true) {
    if (opts.every !== undefined) throw new UsageError('--every only applies with --watch');
    return undefined;
  }
  const text = opts.every === undefined ? DEFAULT_WATCH_EVERY : String(opts.every);
  const seconds = parseDuration(text, '--every');
  if (seconds <= 0) throw new UsageError(`invalid --every "${text}": must be more than 0 seconds`);
  return seconds;
}

/** commander's raw values to ReportGetOptions (usage errors on bad input). */
export function parseReportGetOptions([id]: string[], raw: RawOptions): ReportGetOptions {
  return { id: checkId(id as string, 'report id'), watchSeconds: parseWatch(raw) };
}

export function register(reports: Command, runtime: Runtime): void {
  const cmd = reports
    .command('get')
    .description('Show a report')
    .argument('<id>', 'report id')
    .option('-w, --watch', 'refresh until Ctrl-C: in place on a terminal, else one JSON line per change')
    .option('--every <duration>', `time between refreshes with --watch: 10s, 1m, 5m (default ${DEFAULT_WATCH_EVERY})`)
    .action(action(runtime, (ctx, args, opts) => run(parseReportGetOptions(args, opts), ctx)));
  examples(
    cmd,
    'cpk reports get rpt_123',
    'cpk reports get rpt_123 --json',
    'cpk reports get rpt_123 --watch --every 10s     # live view; Ctrl-C ends it (exit 0)',
    'cpk reports get rpt_123 --watch > changes.ndjson  # one JSON line per change',
  );
}

export async function run(opts: ReportGetOptions, ctx: Context): Promise<void> {
  if (opts.watchSeconds !== undefined) {
    const { watchReport } = await import('./watch.js');
    return watchReport({ id: opts.id, everyMs: opts.watchSeconds * 1000 }, ctx);
  }
  const api = await ctx.api();
  const report = await ctx.out
    .spin('Fetching report', () => api.getReport(opts.id))
    .catch((error: unknown) => Promise.reject(nameMissing('report', opts.id, error)));
  await ctx.out.print(report, { title: 'Report' });
}
