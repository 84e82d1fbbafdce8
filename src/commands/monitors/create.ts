import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { JsonObject } from '../../parse/fields.js';
import { action, collect, examples, type Runtime } from '../action.js';
import { bodyFromFlags } from './fields.js';

export interface CreateOptions {
  body: JsonObject;
  quiet: boolean;
}

export function register(parent: Command, runtime: Runtime): void {
  const cmd = parent
    .command('create')
    .description('Create a monitor')
    .option('--name <name>', 'human label of the monitor (required unless given in --data)')
    .option('--type <type>', 'kind of check, e.g. http')
    .option('--target <url>', 'what is checked; for an HTTP check, a URL')
    .option('--interval <duration>', 'seconds between checks: 60, 90s, 5m, 1h')
    .option('--set <key=value>', 'set any other field; the value is parsed as JSON when it is JSON (repeatable; dotted keys nest)', collect)
    .option('--set-string <key=value>', 'set any other field to a string, always (repeatable)', collect)
    .option('--data <json>', 'the request body: a JSON object, @file, or - for stdin (flags are merged over it)')
    .option('-q, --quiet', 'print only the new monitor id')
    .action(
      action(runtime, async (ctx, _args, opts) => {
        const body = await bodyFromFlags(opts, ctx.io.stdin);
        if (body.name === undefined) throw new UsageError('--name is required (or a "name" field in --data)');
        await run({ body, quiet: opts.quiet === true }, ctx);
      }),
    );
  examples(
    cmd,
    'cpk monitors create --name "Checkout API" --type http --target https://shop.example.com/health --interval 1m',
    'cpk monitors create --name api -q            # prints the id alone',
    'cpk monitors create --data @monitor.json --json',
  );
}

export async function run(opts: CreateOptions, ctx: Context): Promise<void> {
  const api = await ctx.api();
  const created = await ctx.out.spin('Creating monitor', () => api.createMonitor(opts.body));
  if (ctx.out.json) ctx.out.printJson(created);
  else if (opts.quiet) ctx.out.printLine(created.id);
  else await ctx.out.printDetail(created);
}
