import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { endpoints, nameMissing, type Api } from '../../core/api/client.js';
import { sanitizeLine } from '../../core/sanitize.js';
import { UsageError } from '../../core/errors.js';
import { readIdList } from '../../parse/ids.js';
import { parseConcurrency } from '../../parse/concurrency.js';
import type { IO } from '../../core/io.js';
import { action, describe, type RawOptions, type Runtime } from '../../cli/action.js';
import { concurrencyOption, dryRunOption } from '../../cli/options.js';
import { runBulk } from '../../cli/bulk.js';
import { printDryRun } from '../../cli/dry-run.js';

type DeleteOptions = Awaited<ReturnType<typeof parseDeleteOptions>>;

export function register(parent: Command, runtime: Runtime): void {
  const cmd = parent
    .command('delete')
    .alias('rm')
    .description('Delete monitors (asks first on a terminal; several ids, or - to read them from stdin)')
    .argument(
      '[ids...]',
      'monitor ids; - reads ids from stdin, one per line (needs --yes); none: pick one, on a terminal',
    )
    .option('-y, --yes', 'do not ask for confirmation (required when stdin is not a terminal)')
    .addOption(concurrencyOption('requests in flight at once for several ids (default 8)'))
    .addOption(dryRunOption('print the requests as curl commands and send nothing'))
    .action(
      action(runtime, async (ctx, args, opts) => {
        const ids = args.length > 0 ? args : [await (await import('../../cli/pick.js')).pickId(ctx, 'monitors', 'ids')];
        await run(await parseDeleteOptions(ids, opts, ctx.io, ctx.globals.agent), ctx);
      }),
    );
  describe(cmd, {
    effect: 'destroy',
    idempotent: true,
    tool: true,
    completes: 'monitor-ids',
    synonyms: ['remove'],
    examples: [
      'cpk monitors delete mon_123',
      'cpk monitors delete mon_123 --yes --json',
      'cpk monitors delete mon_1 mon_2 mon_3 --yes',
      'grep -v "^#" ids.txt | cpk monitors delete - --yes',
      'cpk monitors delete mon_123 --dry-run     # prints curl, sends nothing',
    ],
  });
}

/**
 * Without --yes, stdin must be a terminal: checked before it is read, so a script that forgot --yes learns at
 * once. In agent mode nothing is asked, so nothing is refused here: the confirmation becomes a preview.
 */
export async function parseDeleteOptions(
  args: string[],
  raw: RawOptions,
  io: Pick<IO, 'stdin' | 'stdinIsTTY'>,
  agent = false,
) {
  const yes = raw.yes === true;
  const dryRun = raw.dryRun === true;
  const concurrency = parseConcurrency(raw.concurrency);
  if (!yes && !dryRun && !io.stdinIsTTY && !agent) {
    const what = args.length === 1 && args[0] !== '-' ? `monitor ${args[0]}` : 'monitors';
    throw new UsageError(`refusing to delete ${what} without --yes (stdin is not a terminal); nothing was sent`);
  }
  if (!yes && !dryRun && args.includes('-') && !agent) {
    throw new UsageError('ids from stdin (-) need --yes: stdin cannot also answer the confirmation; nothing was sent');
  }
  return { ...(await readIdList(args, io, 'monitor id')), yes, dryRun, concurrency };
}

export async function run(opts: DeleteOptions, ctx: Context): Promise<void> {
  if (opts.dryRun) return printDryRun(ctx, opts.ids.map(endpoints.deleteMonitor), { single: opts.single });
  const api = await ctx.api({ many: !opts.single });
  let names = new Map<string, string>();
  if (!opts.yes && opts.ids.length > 0) {
    names = await namesOf(opts.ids.slice(0, SHOWN), api, ctx);
    const which = listed(opts.ids, names);
    const question =
      opts.ids.length === 1 ? `Delete monitor ${which}?` : `Delete ${opts.ids.length} monitors (${which})?`;
    // A deletion cannot be undone: it takes `yes` typed in full, as apply's deletions do.
    const preview = { delete: opts.ids.map((id) => (names.has(id) ? { id, name: names.get(id) } : { id })) };
    if (!(await ctx.confirm(question, { word: 'yes', preview })))
      throw new UsageError('delete cancelled; nothing was sent', {
        hint: 'only yes, typed in full, confirms deleting monitors',
      });
  }
  const printed = (id: string, body: unknown) => (body !== undefined ? body : { id, deleted: true });
  if (opts.single) {
    const id = opts.ids[0] as string;
    const result = await ctx.out
      .spin('Deleting monitor', () => api.deleteMonitor(id))
      .catch((error: unknown) => Promise.reject(nameMissing('monitor', id, error)));
    // The interface does not give DELETE's body: print the server's when it sent one.
    if (ctx.out.json) ctx.out.printJson(printed(id, result.body));
    else ctx.out.info(`Deleted monitor ${id}.`);
    return;
  }
  const items = opts.ids.map((id) => ({ label: id, fields: { id }, input: id }));
  const bulk = await runBulk(ctx, items, (id) => api.deleteMonitor(id), {
    concurrency: opts.concurrency,
    progress: 'Deleting monitors',
  });
  if (ctx.out.json) ctx.out.printJson(bulk.done.map((d) => printed(opts.ids[d.index] as string, d.value.body)));
  else if (bulk.done.length > 0) {
    const gone = bulk.done.map((d) => opts.ids[d.index] as string);
    ctx.out.info(`Deleted ${gone.length} monitor${gone.length === 1 ? '' : 's'}: ${listed(gone, names)}.`);
  }
  bulk.finish({ noun: 'monitors', verb: 'deleted' });
}

/** The names a confirmation shows, a GET each: a monitor not there fails here (exit 6), before any delete. */
async function namesOf(ids: readonly string[], api: Api, ctx: Context): Promise<Map<string, string>> {
  const monitors = await ctx.out.spin(ids.length === 1 ? 'Fetching monitor' : 'Fetching monitors', () =>
    Promise.all(
      ids.map((id) => api.getMonitor(id).catch((error: unknown) => Promise.reject(nameMissing('monitor', id, error)))),
    ),
  );
  return new Map(monitors.flatMap((m, i) => (typeof m.name === 'string' ? [[ids[i] as string, m.name]] : [])));
}

/** How many monitors a prompt or a summary names; the rest are counted. */
const SHOWN = 10;

/** `mon_1 "Checkout API", mon_2 and 3 more`: ids with the names known, server text made safe. */
function listed(ids: readonly string[], names: ReadonlyMap<string, string>): string {
  const text = ids
    .slice(0, SHOWN)
    .map((id) => (names.has(id) ? `${id} "${sanitizeLine(names.get(id) as string)}"` : id))
    .join(', ');
  return ids.length > SHOWN ? `${text} and ${ids.length - SHOWN} more` : text;
}
