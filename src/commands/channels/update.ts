import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { endpoints, nameMissing } from '../../core/api/client.js';
import { UsageError } from '../../core/errors.js';
import { checkId } from '../../parse/id.js';
import { action, describe, type RawOptions, type Runtime } from '../../cli/action.js';
import { dataOption, dryRunOption, fieldsFromBodyFlags, setOption, setStringOption } from '../../cli/options.js';
import { printDryRun } from '../../cli/dry-run.js';

export function register(channels: Command, runtime: Runtime): void {
  const cmd = channels
    .command('update')
    .description("Change settings of a channel (the fields are the service's own)")
    .argument('<id>', 'channel id')
    .addOption(setOption())
    .addOption(setStringOption())
    .addOption(dataOption())
    .addOption(dryRunOption())
    .action(
      action(runtime, async (ctx, args, opts) => run(await parseChannelUpdateOptions(args, opts, ctx.io.stdin), ctx)),
    );
  describe(cmd, {
    effect: 'write',
    idempotent: true,
    tool: true,
    completes: 'channel-ids',
    synonyms: ['edit'],
    examples: [
      'cpk channels update ch_ops --set enabled=false',
      'cpk channels update ch_ops --data \'{"name":"Ops"}\' --json',
    ],
  });
}

/** commander's raw values to the options (usage errors on bad input); `--data -` reads stdin. */
export async function parseChannelUpdateOptions([id]: string[], raw: RawOptions, stdin: NodeJS.ReadableStream) {
  const channelId = checkId(id as string, 'channel id');
  const changes = await fieldsFromBodyFlags(raw, stdin);
  if (Object.keys(changes).length === 0) throw new UsageError('nothing to update: give --set, --set-string or --data');
  return { id: channelId, changes, dryRun: raw.dryRun === true };
}

export async function run(opts: Awaited<ReturnType<typeof parseChannelUpdateOptions>>, ctx: Context): Promise<void> {
  if (opts.dryRun) return printDryRun(ctx, [endpoints.updateChannel(opts.id, opts.changes)], { single: true });
  const api = await ctx.api();
  const result = await ctx.out
    .spin('Updating channel', () => api.updateChannel(opts.id, opts.changes))
    .catch((error: unknown) => Promise.reject(nameMissing('channel', opts.id, error)));
  if (ctx.out.json) ctx.out.printJson(result);
  else ctx.out.info(`Updated channel ${opts.id}.`);
}
