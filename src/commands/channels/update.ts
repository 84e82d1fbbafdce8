import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { endpoints } from '../../api/client.js';
import { UsageError } from '../../errors.js';
import { parseDataFlag } from '../../parse/data.js';
import { fieldsFromFlags, mergeInto, type JsonObject } from '../../parse/fields.js';
import { checkId } from '../../parse/id.js';
import { action, collect, examples, type Runtime } from '../action.js';
import { printDryRun } from '../dry-run.js';

export interface ChannelUpdateOptions {
  id: string;
  changes: JsonObject;
  dryRun?: boolean;
}

export function register(channels: Command, runtime: Runtime): void {
  const cmd = channels
    .command('update')
    .description("Change settings of a channel (the fields are the service's own)")
    .argument('<id>', 'channel id')
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
        const channelId = checkId(id as string, 'channel id');
        const changes: JsonObject = typeof opts.data === 'string' ? await parseDataFlag(opts.data, ctx.io.stdin) : {};
        mergeInto(
          changes,
          fieldsFromFlags({ set: opts.set as string[] | undefined, setString: opts.setString as string[] | undefined }),
        );
        if (Object.keys(changes).length === 0)
          throw new UsageError('nothing to update: give --set, --set-string or --data');
        await run({ id: channelId, changes, dryRun: opts.dryRun === true }, ctx);
      }),
    );
  examples(
    cmd,
    'cpk channels update ch_ops --set enabled=false',
    'cpk channels update ch_ops --data \'{"name":"Ops"}\' --json',
  );
}

export async function run(opts: ChannelUpdateOptions, ctx: Context): Promise<void> {
  if (opts.dryRun) return printDryRun(ctx, [endpoints.updateChannel(opts.id, opts.changes)], { single: true });
  const api = await ctx.api();
  const result = await ctx.out.spin('Updating channel', () => api.updateChannel(opts.id, opts.changes));
  if (ctx.out.json) ctx.out.printJson(result);
  else ctx.out.info(`Updated channel ${opts.id}.`);
}
