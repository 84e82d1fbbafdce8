import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { checkId } from '../../parse/id.js';
import { action, examples, type Runtime } from '../action.js';

export interface GetOptions {
  id: string;
}

export function register(parent: Command, runtime: Runtime): void {
  const cmd = parent
    .command('get')
    .description('Show a monitor')
    .argument('<id>', 'monitor id')
    .action(action(runtime, (ctx, [id]) => run({ id: checkId(id as string, 'monitor id') }, ctx)));
  examples(cmd, 'cpk monitors get mon_123', 'cpk monitors get mon_123 --json');
}

export async function run(opts: GetOptions, ctx: Context): Promise<void> {
  const api = await ctx.api();
  const monitor = await ctx.out.spin('Fetching monitor', () => api.getMonitor(opts.id));
  if (ctx.out.json) ctx.out.printJson(monitor);
  else await ctx.out.printDetail(monitor);
}
