import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { readIdList } from '../../parse/ids.js';
import { parseConcurrency } from '../../parse/concurrency.js';
import type { JsonObject } from '../../core/json.js';
import { action, describe, type RawOptions, type Runtime } from '../../cli/action.js';
import { concurrencyOption } from '../../cli/options.js';
import { runBulk } from '../../cli/bulk.js';
import { nameMissing } from '../../core/api/client.js';
import { addGateOptions, checkGate, compileGate, showsResult, parseGateOptions } from '../../cli/gate.js';
import { withCiReport } from '../../cli/ci.js';
import type { Assertion } from '../../output/assert.js';

type GetOptions = Awaited<ReturnType<typeof parseGetOptions>>;

export function register(parent: Command, runtime: Runtime): void {
  const cmd: Command = parent
    .command('get')
    // The words gh (view) and kubectl (describe) users type for it.
    .aliases(['view', 'describe'])
    .description('Show monitors (several ids, or - to read them from stdin)')
    .argument('[ids...]', 'monitor ids; - reads ids from stdin, one per line (none: pick one, on a terminal)')
    .addOption(concurrencyOption('requests in flight at once for several ids (default 8)'))
    .option('--manifest', 'print them as manifest entries for cpk.yaml (YAML; JSON with --json)');
  addGateOptions(cmd, 'each monitor').action(
    action(runtime, async (ctx, args, opts) => {
      const ids = args.length > 0 ? args : [await (await import('../../cli/pick.js')).pickId(ctx, 'monitors', 'ids')];
      await run(await parseGetOptions(ids, opts, ctx.io), ctx);
    }),
  );
  describe(cmd, {
    effect: 'read',
    tool: true,
    completes: 'monitor-ids',
    synonyms: ['show'],
    examples: [
      'cpk monitors get mon_123',
      'cpk monitors get mon_123 --json',
      'cpk monitors get mon_123 --query status      # prints the status alone',
      'cpk monitors get mon_1 mon_2 --json     # a JSON array, in the order given',
      'cpk monitors get - --query "[].status" < ids.txt',
      'cpk monitors get mon_1 mon_2 --manifest > cpk.yaml',
      'cpk monitors get mon_1 mon_2 --assert "status == \'up\'"  # 9 unless all up',
    ],
  });
}

/** commander's raw values to GetOptions (usage errors on bad input); `-` reads ids from stdin. */
export async function parseGetOptions(args: string[], raw: RawOptions, io: { readonly stdin: NodeJS.ReadableStream }) {
  const concurrency = parseConcurrency(raw.concurrency);
  // --assert and --junit: the deploy gate, over each monitor.
  const gate = parseGateOptions(raw);
  return { ...(await readIdList(args, io, 'monitor id')), concurrency, manifest: raw.manifest === true, gate };
}

export async function run(opts: GetOptions, ctx: Context): Promise<void> {
  const assertions = await compileGate(opts.gate);
  if (assertions.length === 0) return show(opts, ctx, []);
  return withCiReport(ctx, 'cpk monitors get', opts.gate.junit, () => show(opts, ctx, assertions));
}

async function show(opts: GetOptions, ctx: Context, assertions: Assertion[]): Promise<void> {
  const api = await ctx.api({ many: !opts.single });
  if (opts.single) {
    const id = opts.ids[0] as string;
    const monitor = await ctx.out
      .spin('Fetching monitor', () => api.getMonitor(id))
      .catch((error: unknown) => Promise.reject(nameMissing('monitor', id, error)));
    if (opts.manifest) await printManifestEntries([monitor], ctx);
    else if (showsResult(ctx, assertions)) await ctx.out.print(monitor);
    const failed = await checkGate(ctx, assertions, [{ value: monitor }]);
    if (failed) throw failed;
    return;
  }
  const items = opts.ids.map((id) => ({ label: id, fields: { id }, input: id }));
  const bulk = await runBulk(ctx, items, (id) => api.getMonitor(id), {
    concurrency: opts.concurrency,
    progress: 'Fetching monitors',
  });
  const monitors = bulk.done.map((d) => d.value);
  if (opts.manifest) await printManifestEntries(monitors, ctx);
  else if (showsResult(ctx, assertions)) await ctx.out.printList(monitors);
  const labelled = bulk.done.map((d) => ({ label: opts.ids[d.index], value: d.value }));
  const failed = await checkGate(ctx, assertions, labelled);
  bulk.finish({ noun: 'monitors', verb: 'fetched' });
  if (failed) throw failed;
}

async function printManifestEntries(monitors: JsonObject[], ctx: Context): Promise<void> {
  const entry = await import('../../manifest/entry.js');
  if (ctx.out.json) ctx.out.printJson(entry.manifestFor(monitors).document);
  else ctx.out.printText(await entry.manifestYaml(monitors));
}
