// `cpk monitors|channels|reports list` (alias `ls`): the run shared by the three nouns.
//
// Where the service's document (src/core/api/spec.ts) declares a list operation,
// cpk follows it to the end, printing pages as they arrive, with --limit to
// stop early and --param for the query parameters the document declares.
// Where it declares none, `monitors list` shows the local inventory (the
// monitors this machine knows of, src/config/inventory.ts), saying so on
// stderr; --refresh fetches each and drops those that are gone. Channels and
// reports have no inventory: without a declared list, a usage error. A service
// that cannot be reached declares nothing either way: the list fails as any
// request does (exit 3), never shows the inventory as if the service had none.
import type { Command } from 'commander';
import type { Context } from './context.js';
import { ExitCode, UsageError, CpkError, InterruptedError } from '../core/errors.js';
import { isPlainObject } from '../core/json.js';
import type { ListOperation, Noun } from '../core/api/spec.js';
import type { Api } from '../core/api/client.js';
import { parseConcurrency } from '../parse/concurrency.js';
import { parseWholeNumber } from '../core/whole-number.js';
import { action, collect, describe, type RawOptions, type Runtime } from './action.js';
import { concurrencyOption } from './options.js';

type ListOptions = ReturnType<typeof parseListOptions>;

/** commander's raw values, typed (usage errors on bad input). */
function parseListOptions(noun: Noun, raw: RawOptions) {
  const limit =
    raw.limit === undefined
      ? undefined
      : parseWholeNumber(raw.limit, '--limit', [1, Number.MAX_SAFE_INTEGER], 'a whole number of items, 1 or more');
  const params: Array<[string, string]> = [];
  for (const pair of (raw.param as string[] | undefined) ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`invalid --param "${pair}": expected key=value`);
    params.push([pair.slice(0, eq), pair.slice(eq + 1)]);
  }
  return {
    noun,
    limit,
    params,
    /** Inventory path: fetch each known monitor and drop those that are gone. */
    refresh: raw.refresh === true,
    /** Revalidate the service's document now. */
    refreshSpec: raw.refreshSpec === true,
    concurrency: parseConcurrency(raw.concurrency),
    /** -q: ids alone, one per line (-o name). */
    quiet: raw.quiet === true,
  };
}

export function registerList(parent: Command, noun: Noun, runtime: Runtime): void {
  const cmd = parent
    .command('list')
    .alias('ls')
    .description(
      noun === 'monitors'
        ? "List monitors: the service's list where its document declares one, else the monitors known here"
        : `List ${noun}, where the service's document declares a list operation`,
    )
    .option('-q, --quiet', 'print only ids, one per line (the same as -o name)')
    .option('--limit <n>', 'stop after N items')
    .option('--param <key=value>', 'a query parameter the service declares for this list (repeatable)', collect)
    .option('--refresh-spec', "fetch the service's OpenAPI document again now (it is cached for an hour)");
  if (noun === 'monitors') {
    cmd
      .option('--refresh', 'without a service list: fetch each known monitor, dropping those that are gone')
      .addOption(concurrencyOption('requests in flight at once with --refresh (default 8)'));
  }
  cmd.action(action(runtime, (ctx, _args, opts) => runList(parseListOptions(noun, opts), ctx)));
  describe(cmd, {
    effect: 'read',
    tool: true,
    examples: [
      `cpk ${noun} list`,
      `cpk ${noun} list --json --limit 50`,
      ...(noun === 'monitors' ? ['cpk monitors list -q | cpk monitors get -'] : []),
      ...(noun === 'monitors'
        ? ['cpk monitors list --param status=down --query "[].id"', 'cpk monitors ls --refresh']
        : []),
    ],
  });
}

async function runList(opts: ListOptions, ctx: Context): Promise<void> {
  if (opts.quiet) {
    const format = ctx.out.format;
    if (format !== 'table' && format !== 'name')
      throw new UsageError(`-q prints ids one per line (-o name); it cannot be used with -o ${format}`);
    ctx.out.settings.format = 'name';
  }
  const api = await ctx.api({ many: opts.refresh });
  const { useSpec } = await import('../core/api/spec.js');
  // Whether to list from the service or from what is known here is the service's answer: unreachable is an error.
  const options = {
    env: ctx.env,
    refresh: opts.refreshSpec,
    needAnswer: true,
    debug: (line: string) => ctx.out.debug(line),
  };
  // What the document refuses is asked of the service again before it is refused.
  const refuses = (op?: ListOperation) => refusal(opts, api, op) !== undefined;
  // The monitors' list too, read from the same document: a reports table names each report's monitor by it.
  let monitorsList: ListOperation | undefined;
  const list = () =>
    useSpec(
      api,
      options,
      (spec) => {
        monitorsList = spec.list('monitors');
        return spec.list(opts.noun);
      },
      refuses,
    );
  const op = await ctx.out.spin("Reading the service's document", list);
  const refused = refusal(opts, api, op);
  if (refused) throw refused;
  if (!op) return listKnown(opts, ctx, api);
  const { listItems } = await import('../core/api/list.js');
  const printer = ctx.out.list();
  const named = opts.noun === 'reports' && namesShown(ctx) ? monitorNamer(ctx, api, monitorsList) : undefined;
  let count = 0;
  const since = api.listStarted();
  const pages = listItems(api, op, { params: opts.params, limit: opts.limit })[Symbol.asyncIterator]();
  for (;;) {
    // A slow page gets a spinner on a terminal (none when it is quick, none off a terminal).
    const next = await ctx.out.spin(`Listing ${opts.noun}`, () => pages.next());
    if (next.done) break;
    const page = next.value;
    api.sawList(opts.noun, page);
    count += page.length;
    const names = named && (await named(page));
    await printer.add(names ? page.map((report) => namedMonitor(report, names, ctx.out.format === 'wide')) : page);
  }
  // Read to its end with no filter, the list is all there is: ids known here that it lacked are gone.
  if (opts.limit === undefined && opts.params.length === 0) api.sawWholeList(opts.noun, since);
  await printer.end();
  if (count === 0) ctx.out.info(`no ${opts.noun}`);
}

/**
 * Whether a reports list is shown to a person as a table (on a terminal or off it, -o wide, Markdown), where
 * each report's monitor is named: JSON, YAML and `-o name` print what the service sent, untouched, and
 * --columns prints the fields asked for.
 */
function namesShown(ctx: Context): boolean {
  const format = ctx.out.format;
  return (format === 'table' || format === 'wide' || format === 'markdown') && !ctx.out.settings.columns;
}

/**
 * The monitors' names by id, for a reports table: a report carries its monitor's id only, so the names come
 * from the service's own list of monitors (never a GET per report), read only as far as the reports shown
 * so far need: for each page of reports, monitor pages until each of its monitors is named or the list ends.
 * Without that list, or once it fails (a token without the scope to read monitors, with one warning),
 * undefined: the table shows ids.
 */
function monitorNamer(
  ctx: Context,
  api: Api,
  op: ListOperation | undefined,
): ((reports: readonly unknown[]) => Promise<ReadonlyMap<string, string> | undefined>) | undefined {
  if (!op) return undefined;
  const names = new Map<string, string>();
  const since = api.listStarted();
  let pages: AsyncIterator<unknown[]> | undefined;
  let state: 'reading' | 'ended' | 'failed' = 'reading';
  const unnamed = (reports: readonly unknown[]) =>
    reports.some((report) => {
      const id = isPlainObject(report) ? report.monitor_id : undefined;
      return typeof id === 'string' && !names.has(id);
    });
  return async (reports) => {
    while (state === 'reading' && unnamed(reports)) {
      try {
        pages ??= (await import('../core/api/list.js')).listItems(api, op, { params: [] })[Symbol.asyncIterator]();
        const iterator = pages;
        const next = await ctx.out.spin('Reading the names of monitors', () => iterator.next());
        if (next.done) {
          state = 'ended';
          // Read to its end: the ids known here that it lacked are gone.
          api.sawWholeList('monitors', since);
          break;
        }
        api.sawList('monitors', next.value);
        for (const monitor of next.value) {
          if (!isPlainObject(monitor)) continue;
          if (typeof monitor.id === 'string' && typeof monitor.name === 'string') names.set(monitor.id, monitor.name);
        }
      } catch (error) {
        if (error instanceof InterruptedError) throw error;
        ctx.out.warn(`monitor names not shown, ids instead: ${(error as Error).message}`);
        state = 'failed';
      }
    }
    return state === 'failed' ? undefined : names;
  };
}

/**
 * A report as a table shows it: its monitor's name (`monitor`) where its `monitor_id` stood, the id itself
 * when the name is unknown. The table shows the name instead of the id; -o wide both, the id first.
 */
function namedMonitor(report: unknown, names: ReadonlyMap<string, string>, wide: boolean): unknown {
  if (!isPlainObject(report) || !Object.hasOwn(report, 'monitor_id') || Object.hasOwn(report, 'monitor')) return report;
  const id = report.monitor_id;
  const shown: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(report)) {
    if (key !== 'monitor_id' || wide) shown[key] = value;
    if (key === 'monitor_id') shown.monitor = typeof id === 'string' ? (names.get(id) ?? id) : id;
  }
  return shown;
}

/** Why the list cannot go on, by the operation the service's document declares (a usage error), or undefined. */
function refusal(opts: ListOptions, api: Api, op: ListOperation | undefined): UsageError | undefined {
  if (!op && opts.noun !== 'monitors')
    return new UsageError(
      `the service declares no list operation for ${opts.noun} (its document at ${api.baseUrl}/openapi.json lists none)`,
    );
  if (!op && opts.params.length > 0)
    return new UsageError('--param needs a list operation, and the service declares none for monitors');
  const [name] = opts.params.find(([name]) => !op?.userParams.some((p) => p.name === name)) ?? [];
  if (op && name !== undefined)
    return new UsageError(
      `unknown --param "${name}": the service's ${opts.noun} list declares ${op.userParams.map((p) => p.name).join(', ') || 'none'}`,
    );
  return undefined;
}

/** The inventory path: the monitors this machine knows of, for this base URL and token. */
async function listKnown(opts: ListOptions, ctx: Context, api: Api): Promise<void> {
  const known = ctx.knownMonitors(api).slice(0, opts.limit);
  ctx.out.info(
    `the service offers no list of monitors: ${known.length === 1 ? 'this is the 1 monitor' : `these are the ${known.length} monitors`} known on this machine (created, fetched or applied here)${opts.refresh ? '' : '; --refresh checks each'}`,
  );
  if (!opts.refresh)
    return ctx.out.printList(
      known.map((m) => ({ id: m.id, name: m.name ?? null, last_seen: new Date(m.seen).toISOString() })),
    );
  const { mapPool } = await import('../core/pool.js');
  const outcomes = await mapPool(known, opts.concurrency, (m) => api.getMonitor(m.id), { signal: ctx.signal });
  const found: unknown[] = [];
  let gone = 0;
  let failed: CpkError | undefined;
  for (const [i, outcome] of outcomes.entries()) {
    if (!outcome) continue;
    if (outcome.ok) found.push(outcome.value);
    else if (outcome.error instanceof CpkError && outcome.error.exitCode === ExitCode.NOT_FOUND) gone++;
    else {
      failed ??= outcome.error instanceof CpkError ? outcome.error : undefined;
      ctx.out.warn(`${known[i]?.id}: ${(outcome.error as Error).message}`);
    }
  }
  await ctx.out.printList(found);
  if (gone > 0) ctx.out.info(`dropped ${gone} monitor${gone === 1 ? '' : 's'} the service no longer has`);
  if (failed) ctx.exitCode = failed.exitCode;
}
