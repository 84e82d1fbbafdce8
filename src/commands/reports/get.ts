import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { checkId } from '../../parse/id.js';
import { action, examples, type Runtime } from '../action.js';

export interface ReportGetOptions {
  id: string;
}

export function register(program: Command, runtime: Runtime): void {
  const reports = program.command('reports').description('Read reports');
  const cmd = reports
    .command('get')
    .description('Show a report')
    .argument('<id>', 'report id')
    .action(action(runtime, (ctx, [id]) => run({ id: checkId(id as string, 'report id') }, ctx)));
  examples(cmd, 'cpk reports get rpt_123', 'cpk reports get rpt_123 --json');
}

export async function run(opts: ReportGetOptions, ctx: Context): Promise<void> {
  const api = await ctx.api();
  const report = await ctx.out.spin('Fetching report', () => api.getReport(opts.id));
  if (ctx.out.json) ctx.out.printJson(report);
  else await ctx.out.printDetail(report);
}
