import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { endpoints } from '../../api/client.js';
import { UsageError } from '../../errors.js';
import type { JsonObject } from '../../parse/fields.js';
import { checkId } from '../../parse/id.js';
import { action, collect, examples, type Runtime } from '../action.js';
import { printDryRun } from '../dry-run.js';
import { bodyFromFlags } from './fields.js';

export interface UpdateOptions {
  id: string;
  changes: JsonObject;
  dryRun?: boolean;
}

export function register(parent: Command, runtime: Runtime): void {
  const cmd = parent
    .command('update')
    .description('Change fields of a monitor (only the fields given are sent)')
    .argument('<id>', 'monitor id')
    .option('--name <name>', 'new name')
    .option('--type <type>', 'new kind of check')
    .option('--target <url>', 'new target')
    .option('--interval <duration>', 'new interval: 60, 90s, 5m, 1h')
    .option(
      '--set <key=value>',
      'set a field; the value is parsed as JSON when it is JSON (repeatable; dotted keys nest)',
      collect,
    )
    .option('--set-string <key=value>', 'set a field to a string, always (repeatable)', collect)
    .option('--data <json>', 'fields as a JSON object, @file, or - for stdin (flags are merged over it)')
    .option('--dry-run', 'print the request as a curl command and send nothing')
    .action(
      action(runtime, async (ctx, [id], opts) => {
        const monitorId = checkId(id as string, 'monitor id');
        const changes = await bodyFromFlags(opts, ctx.io.stdin);
        if (Object.keys(changes).length === 0) {
          throw new UsageError(
            'nothing to update: give at least one of --name, --type, --target, --interval, --set, --set-string, --data',
          );
        }
        await run({ id: monitorId, changes, dryRun: opts.dryRun === true }, ctx);
      }),
    );
  examples(
    cmd,
    'cpk monitors update mon_123 --interval 5m',
    'cpk monitors update mon_123 --set paused=true --set-string notify.email=ops@example.com',
    'cpk monitors update mon_123 --data @changes.json --json',
  );
}

export async function run(opts: UpdateOptions, ctx: Context): Promise<void> {
  if (opts.dryRun) return printDryRun(ctx, [endpoints.updateMonitor(opts.id, opts.changes)], { single: true });
  const api = await ctx.api();
  const updated = await ctx.out.spin('Updating monitor', () => api.updateMonitor(opts.id, opts.changes));
  if (ctx.out.json) ctx.out.printJson(updated);
  else await ctx.out.printDetail(updated);
}
