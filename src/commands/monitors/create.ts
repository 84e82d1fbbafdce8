import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { endpoints } from '../../core/api/client.js';
import { CpkError, ExitCode, UsageError } from '../../core/errors.js';
import { parseConcurrency } from '../../parse/concurrency.js';
import { onlyText, parseOnly, parseRecords, selectRecords, type SourcedRecord } from '../../parse/records.js';
import { readInput } from '../../parse/data.js';
import { action, describe, type RawOptions, type Runtime } from '../../cli/action.js';
import { concurrencyOption, dataOption, dryRunOption, setOption, setStringOption } from '../../cli/options.js';
import { runBulk } from '../../cli/bulk.js';
import { printDryRun } from '../../cli/dry-run.js';
import { bodyFromFlags } from './fields.js';

/** The flags that build one body, which --from cannot be combined with. */
const BODY_FLAGS = ['name', 'type', 'target', 'interval', 'set', 'setString', 'data'];

export function register(parent: Command, runtime: Runtime): void {
  const cmd = parent
    .command('create')
    .description('Create a monitor, or many with --from')
    .option('--name <name>', 'human label of the monitor (required unless given in --data)')
    .option('--type <type>', 'kind of check, e.g. http')
    .option('--target <url>', 'what is checked; for an HTTP check, a URL')
    .option('--interval <duration>', 'seconds between checks: 60, 90s, 5m, 1h')
    .addOption(
      setOption('set any other field; the value is parsed as JSON when it is JSON (repeatable; dotted keys nest)'),
    )
    .addOption(setStringOption('set any other field to a string, always (repeatable)'))
    .addOption(dataOption('the request body: a JSON object, @file, or - for stdin (flags are merged over it)'))
    .option('--from <file>', 'create one monitor per object of FILE (a JSON array or NDJSON; - for stdin)')
    .option('--only <list>', 'with --from: send only these items, by line number (NDJSON) or index (array): 2,5-7')
    .addOption(concurrencyOption('creates in flight at once with --from (default 8)'))
    .option('-q, --quiet', 'print only the new monitor id (one per line with --from)')
    .addOption(dryRunOption('print the request(s) as curl commands and send nothing'))
    .action(action(runtime, async (ctx, _args, opts) => run(await parseCreateOptions(opts, ctx.io.stdin), ctx)));
  describe(cmd, {
    effect: 'write',
    tool: true,
    synonyms: ['new', 'add'],
    optionCompletes: { '--type': 'types' },
    examples: [
      'cpk monitors create --name Checkout --target https://shop.example.com/health',
      'cpk monitors create --name api -q            # prints the id alone',
      'cpk monitors create --data @monitor.json --json',
      'cpk monitors create --from monitors.ndjson --json   # {id, status} per line',
      'cpk monitors create --from monitors.ndjson --only 2,5-7   # only those lines',
      'cpk monitors create --name api --dry-run     # prints curl, sends nothing',
    ],
  });
}

/** commander's raw values to the options of one create, or of many with --from (its file or stdin read here). */
export async function parseCreateOptions(raw: RawOptions, stdin: NodeJS.ReadableStream) {
  const quiet = raw.quiet === true;
  const dryRun = raw.dryRun === true;
  if (typeof raw.from === 'string') {
    const clash = BODY_FLAGS.find((flag) => raw[flag] !== undefined);
    const flag = clash?.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    if (flag) throw new UsageError(`--from cannot be combined with --${flag}: put the fields in the file`);
    const only = typeof raw.only === 'string' ? parseOnly(raw.only) : undefined;
    const source = raw.from === '-' ? '--from stdin' : `--from file "${raw.from}"`;
    const records = await readRecords(raw.from, source, only, stdin);
    return { records, from: raw.from, source, quiet, dryRun, concurrency: parseConcurrency(raw.concurrency) };
  }
  if (raw.concurrency !== undefined) throw new UsageError('--concurrency applies to --from only');
  if (raw.only !== undefined) throw new UsageError('--only applies to --from only');
  const body = await bodyFromFlags(raw, stdin);
  if (body.name === undefined) throw new UsageError('--name is required (or a "name" field in --data)');
  return { body, quiet, dryRun };
}

async function readRecords(
  from: string,
  source: string,
  only: Array<[number, number]> | undefined,
  stdin: NodeJS.ReadableStream,
): Promise<SourcedRecord[]> {
  const text = await readInput(from, stdin, '--from');
  const all = parseRecords(text, source);
  const records = only ? selectRecords(all, only, source) : all;
  // The one field the interface requires, checked for every item before any is sent.
  const nameless = records.find((r) => r.value.name === undefined);
  if (nameless) throw new UsageError(`${source} ${nameless.label} has no "name" field; nothing was sent`);
  return records;
}

type CreateOptions = Awaited<ReturnType<typeof parseCreateOptions>>;

export async function run(opts: CreateOptions, ctx: Context): Promise<void> {
  if (opts.records !== undefined) return runBulkCreate(opts, ctx);
  const { checkDeclaredValues } = await import('../../cli/declared-values.js');
  await checkDeclaredValues(ctx, opts.body, 'create');
  if (opts.dryRun) return printDryRun(ctx, [endpoints.createMonitor(opts.body)], { single: true });
  const api = await ctx.api();
  const created = await ctx.out.spin('Creating monitor', () => api.createMonitor(opts.body));
  if (ctx.out.json) ctx.out.printJson(created);
  else if (opts.quiet) ctx.out.printLine(quietId(created.id));
  else await ctx.out.print(created);
}

/**
 * `--from`: every item checked against what the service's document declares first (one problem refuses the
 * whole input), then one POST per item, `concurrency` at a time; a POST is never retried once sent
 * (src/core/http/retry.ts), so a failure never creates twice. Failures name their line (NDJSON) or index
 * (array), and the closing lines say how to send only what was certainly not created (`--only`).
 */
async function runBulkCreate(opts: Extract<CreateOptions, { records: unknown }>, ctx: Context): Promise<void> {
  const { checkDeclaredRecords } = await import('../../cli/declared-values.js');
  if (opts.dryRun) {
    await checkDeclaredRecords(ctx, opts.records, opts.source);
    const requests = opts.records.map((r) => endpoints.createMonitor(r.value));
    return printDryRun(ctx, requests, { single: false });
  }
  const api = await ctx.api({ many: true });
  await checkDeclaredRecords(ctx, opts.records, opts.source, api);
  const items = opts.records.map((r) => ({
    label: r.label,
    fields: r.label.startsWith('line') ? { line: r.position } : { index: r.position },
    input: r,
  }));
  // Items whose POST was started: one of them left without an answer may have been created.
  const started = new Set<SourcedRecord>();
  const bulk = await runBulk(
    ctx,
    items,
    (record) => {
      started.add(record);
      return api.createMonitor(record.value);
    },
    { concurrency: opts.concurrency, progress: 'Creating monitors' },
  );
  const created = bulk.done.map((d) => d.value);
  if (ctx.out.json) ctx.out.printJson(created.map((m) => ({ id: m.id, status: m.status })));
  else if (opts.quiet) for (const m of created) ctx.out.printLine(quietId(m.id));
  else if (created.length > 0) {
    // The name says which monitor each new id is (the JSON keeps id and status, as before).
    const rows = created.map((m) => [m.id, typeof m.name === 'string' ? m.name : '', m.status]);
    await ctx.out.printRows(['id', 'name', 'status'], rows);
  }
  const { certainlyNotCreated } = await import('../../manifest/apply.js');
  const { shellQuote } = await import('../../core/http/curl.js');
  bulk.finish({
    noun: 'monitors',
    verb: 'created',
    next: (unfinished) => {
      const resend: number[] = [];
      const unsure: number[] = [];
      for (const { index, error } of unfinished) {
        const record = opts.records[index] as SourcedRecord;
        // Never started, or refused by the service (or before a byte left): certainly not created.
        const notCreated = error === undefined ? !started.has(record) : certainlyNotCreated(error);
        (notCreated ? resend : unsure).push(record.position);
      }
      return resumeAdvice(ctx, opts, resend, unsure, shellQuote);
    },
  });
}

/**
 * The closing lines of a --from run that did not create everything: the command that sends only what was
 * certainly not created (the same input, narrowed by --only: nothing is created twice), and the items that
 * may have been created (sent, with no answer that says), which are left out of it for the user to look for.
 */
function resumeAdvice(
  ctx: Context,
  opts: { from: string; records: SourcedRecord[] },
  resend: number[],
  unsure: number[],
  shellQuote: (word: string) => string,
): { lines: string[]; hint?: string | undefined } {
  const what = opts.records[0]?.label.startsWith('element') ? 'element' : 'line';
  const named = (positions: number[]) =>
    positions.length === 1 ? `${what} ${positions[0]}` : `${what}s ${onlyText(positions)}`;
  const lines =
    unsure.length === 0
      ? []
      : [
          `cpk: ${named(unsure)} may have been created (sent, and no answer said whether): left out of any re-run; look for ${unsure.length === 1 ? 'it' : 'them'} before sending ${unsure.length === 1 ? 'it' : 'them'} again with --only`,
        ];
  if (resend.length === 0) return { lines };
  const words = ['cpk'];
  if (ctx.globals.profile !== undefined) words.push('--profile', shellQuote(ctx.globals.profile));
  if (ctx.globals.baseUrl !== undefined) words.push('--base-url', shellQuote(ctx.globals.baseUrl));
  words.push('monitors', 'create', '--from', shellQuote(opts.from), '--only', onlyText(resend));
  const stdin = opts.from === '-' ? ' (with the same input on stdin)' : '';
  const which = resend.length === 1 ? 'which was' : 'which were';
  return { lines, hint: `to send only ${named(resend)}, ${which} not created: ${words.join(' ')}${stdin}` };
}

/**
 * An id for `-q`, one a line: one holding a control character (C0, DEL or C1) would read as two ids or corrupt a
 * terminal, so it is refused (exit 1); the monitor exists, and --json shows it escaped.
 */
export function quietId(id: string): string {
  // eslint-disable-next-line no-control-regex -- exactly what is refused
  if (/[\u0000-\u001f\u007f-\u009f]/.test(id))
    throw new CpkError(
      `the service answered with the id ${JSON.stringify(id)}, which holds control characters; not printed with -q (the monitor was created: --json shows it escaped)`,
      ExitCode.FAILURE,
    );
  return id;
}
