import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { checkId } from '../../parse/id.js';
import { action, examples, type Runtime } from '../action.js';

export interface DeleteOptions {
  id: string;
  yes: boolean;
}

export function register(parent: Command, runtime: Runtime): void {
  const cmd = parent
    .command('delete')
    .description('Delete a monitor (asks first on a terminal)')
    .argument('<id>', 'monitor id')
    .option('-y, --yes', 'do not ask for confirmation (required when stdin is not a terminal)')
    .action(action(runtime, (ctx, [id], opts) => run({ id: checkId(id as string, 'monitor id'), yes: opts.yes === true }, ctx)));
  examples(cmd, 'cpk monitors delete mon_123', 'cpk monitors delete mon_123 --yes --json');
}

export async function run(opts: DeleteOptions, ctx: Context): Promise<void> {
  if (!opts.yes) {
    if (!ctx.io.stdinIsTTY) {
      throw new UsageError(`refusing to delete monitor ${opts.id} without --yes (stdin is not a terminal); nothing was sent`);
    }
    if (!(await ctx.confirm(`Delete monitor ${opts.id}?`))) {
      throw new UsageError('delete cancelled; nothing was sent');
    }
  }
  const api = await ctx.api();
  const result = await ctx.out.spin('Deleting monitor', () => api.deleteMonitor(opts.id));
  if (ctx.out.json) {
    // The interface does not give DELETE's body: print the server's when it sent one.
    ctx.out.printJson(result.body !== undefined ? result.body : { id: opts.id, deleted: true });
  } else {
    ctx.out.info(`Deleted monitor ${opts.id}.`);
  }
}
