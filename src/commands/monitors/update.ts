import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { endpoints, nameMissing } from '../../core/api/client.js';
import { UsageError } from '../../core/errors.js';
import { checkId } from '../../parse/id.js';
import { action, describe, type RawOptions, type Runtime } from '../../cli/action.js';
import { dataOption, dryRunOption, setOption, setStringOption } from '../../cli/options.js';
import { printDryRun } from '../../cli/dry-run.js';
import { bodyFromFlags } from './fields.js';
import { quietId } from './create.js';

export function register(parent: Command, runtime: Runtime): void {
  const cmd = parent
    .command('update')
    .description('Change fields of a monitor (only the fields given are sent)')
    .argument('[id]', 'monitor id (none: pick one, on a terminal)')
    .option('--name <name>', 'new name')
    .option('--type <type>', 'new kind of check')
    .option('--target <url>', 'new target')
    .option('--interval <duration>', 'new interval: 60, 90s, 5m, 1h')
    .addOption(setOption())
    .addOption(setStringOption())
    .addOption(dataOption())
    .addOption(dryRunOption())
    .option('-q, --quiet', 'print only the monitor id')
    .action(
      action(runtime, async (ctx, args, opts) => {
        const id = args[0] ?? (await (await import('../../cli/pick.js')).pickId(ctx, 'monitors', 'id'));
        await run(await parseUpdateOptions([id], opts, ctx.io.stdin), ctx);
      }),
    );
  describe(cmd, {
    effect: 'write',
    idempotent: true,
    tool: true,
    completes: 'monitor-ids',
    synonyms: ['edit'],
    optionCompletes: { '--type': 'types' },
    examples: [
      'cpk monitors update mon_123 --interval 5m',
      'cpk monitors update mon_123 --set paused=true --set-string team=ops',
      'cpk monitors update mon_123 --data @changes.json --json',
    ],
  });
}

/** commander's raw values to the options; `--data -` reads stdin; -q prints the id alone, as `create -q` does. */
export async function parseUpdateOptions([id]: string[], raw: RawOptions, stdin: NodeJS.ReadableStream) {
  const monitorId = checkId(id as string, 'monitor id');
  const changes = await bodyFromFlags(raw, stdin);
  if (Object.keys(changes).length === 0) {
    throw new UsageError(
      'nothing to update: give at least one of --name, --type, --target, --interval, --set, --set-string, --data',
    );
  }
  return { id: monitorId, changes, dryRun: raw.dryRun === true, quiet: raw.quiet === true };
}

export async function run(opts: Awaited<ReturnType<typeof parseUpdateOptions>>, ctx: Context): Promise<void> {
  const { checkDeclaredValues } = await import('../../cli/declared-values.js');
  await checkDeclaredValues(ctx, opts.changes, 'update');
  if (opts.dryRun) return printDryRun(ctx, [endpoints.updateMonitor(opts.id, opts.changes)], { single: true });
  const api = await ctx.api();
  const updated = await ctx.out
    .spin('Updating monitor', () => api.updateMonitor(opts.id, opts.changes))
    .catch((error: unknown) => Promise.reject(nameMissing('monitor', opts.id, error)));
  if (ctx.out.json) ctx.out.printJson(updated);
  else if (opts.quiet) ctx.out.printLine(quietId(updated.id));
  else await ctx.out.print(updated);
}
