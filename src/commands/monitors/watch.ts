// `cpk monitors watch ID... | --all [--every 30s]`: a live board on a terminal (src/output/board.ts), else one
// JSON line per monitor whose body changed (docs/monitors.md, "Watching monitors"). How it ends, and which failures
// it gets past, as `reports get --watch` (src/cli/watch.ts); a 404 marks the monitor gone, no longer polled.
import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { knownColumns } from '../../core/io.js';
import { nameMissing } from '../../core/api/client.js';
import { CpkError, ExitCode, UsageError } from '../../core/errors.js';
import type { JsonObject } from '../../core/json.js';
import { parseConcurrency } from '../../parse/concurrency.js';
import { readIdList } from '../../parse/ids.js';
import { action, describe, type RawOptions, type Runtime } from '../../cli/action.js';
import { concurrencyOption } from '../../cli/options.js';
import { DEFAULT_WATCH_EVERY, parseEvery } from '../reports/get.js';
import type { BoardRow } from '../../output/board.js';
import type { Pause } from '../../cli/watch.js';

/** Polls during which a transition stays highlighted on the board. */
const FRESH_POLLS = 3;
/** Latencies kept per monitor for the sparkline (wider than any terminal needs). */
const HISTORY = 200;

export function parseMonitorsWatchOptions(ids: string[], raw: RawOptions) {
  const all = raw.all === true;
  if (all && ids.length > 0) throw new UsageError('give monitor ids or --all, not both');
  if (!all && ids.length === 0) throw new UsageError('give monitor ids (or - to read them from stdin), or --all');
  return {
    ids: [...new Set(ids)],
    all,
    everySeconds: parseEvery(raw.every, DEFAULT_WATCH_EVERY),
    concurrency: parseConcurrency(raw.concurrency),
  };
}

export function register(parent: Command, runtime: Runtime): void {
  const cmd = parent
    .command('watch')
    .description('A live board of monitors until Ctrl-C: in place on a terminal, else one JSON line per change')
    .argument('[ids...]', 'monitor ids; - reads ids from stdin, one per line (none, on a terminal: pick one)')
    .option('--all', "every monitor: the service's list where its document declares one, else those known here")
    .option('--every <duration>', `time between polls: 10s, 1m (default ${DEFAULT_WATCH_EVERY})`)
    .addOption(concurrencyOption('requests in flight at once per poll (default 8)'))
    .action(
      action(runtime, async (ctx, args, opts) => {
        // No ids and no --all: on a terminal, the user picks one; elsewhere the usage error below.
        const picked =
          args.length === 0 && opts.all !== true && ctx.io.stdinIsTTY && ctx.io.stderrIsTTY
            ? [await (await import('../../cli/pick.js')).pickId(ctx, 'monitors', 'ids')]
            : args;
        const list = picked.length > 0 ? await readIdList(picked, ctx.io, 'monitor id') : { ids: [] };
        await run(parseMonitorsWatchOptions(list.ids, opts), ctx);
      }),
    );
  describe(cmd, {
    effect: 'read',
    // One JSON line per change until Ctrl-C: never a single document.
    streams: true,
    completes: 'monitor-ids',
    examples: [
      'cpk monitors watch mon_1 mon_2 --every 10s   # live; Ctrl-C ends it (exit 0)',
      'cpk monitors watch --all',
      'cpk monitors watch --all > changes.ndjson      # one JSON line per change',
    ],
  });
}

/** Every monitor: the service's declared list, else the local inventory (as `monitors list`). */
async function allIds(ctx: Context, api: Awaited<ReturnType<Context['api']>>): Promise<string[]> {
  const { candidates } = await import('../../cli/pick.js');
  const { listed, items } = await ctx.out.spin('Listing monitors', () => candidates('monitors', ctx, api));
  if (items.length === 0)
    throw new CpkError(
      listed
        ? 'no monitors to watch: the service lists none'
        : 'no monitors to watch: the service offers no list of monitors and none is known on this machine (created, fetched or applied here); give their ids',
      ExitCode.FAILURE,
    );
  if (!listed) ctx.out.debug(`watch --all: the ${items.length} monitors known on this machine`);
  return items.map((item) => item.value);
}

type WatchOptions = ReturnType<typeof parseMonitorsWatchOptions>;

/** A monitor as the board shows it, and what the watch keeps of it between polls. */
interface Watched extends BoardRow {
  /** The poll (0-based) of the last transition. */
  changedAt: number;
  /** The body as last printed off a terminal (keys sorted). */
  printed?: string;
  gone?: boolean;
}

export async function run(opts: WatchOptions, ctx: Context, deps: { pause?: Pause } = {}): Promise<void> {
  const { watchLoop, transient, comparable, every } = await import('../../cli/watch.js');
  const { mapPool } = await import('../../core/pool.js');
  const board = await import('../../output/board.js');
  const api = await ctx.api({ many: true });
  const ids = opts.all ? await allIds(ctx, api) : opts.ids;
  const live = !ctx.out.json && ctx.io.stdoutIsTTY;
  const everyText = every(opts.everySeconds * 1000);
  const watched: Watched[] = ids.map((id) => ({
    id,
    lastCheck: null,
    latency: null,
    history: [],
    changedAt: -Infinity,
  }));
  const paint = await ctx.out.colors();
  let notes: string[] = [];
  // The board's column widths, kept from frame to frame so that columns do not jump.
  const widths: number[] = [];
  let polledAt = Date.now();
  let poll = 0;
  /** Lines printed off a terminal in this poll: none, and a heartbeat checks the reader is still there. */
  let printedThisPoll = 0;

  const draw = (clear: boolean) => {
    const size = ctx.io.stdoutSize?.();
    // A terminal that does not say its width (0 columns) gets frames cut to 80, one after the other.
    const known = knownColumns(size ? size.columns : ctx.io.stdoutColumns);
    const counts = new Map<string, number>();
    for (const w of watched) counts.set(w.status ?? '-', (counts.get(w.status ?? '-') ?? 0) + 1);
    const summary = [...counts].map(([status, n]) => `${n} ${status}`).join(', ');
    const header = `Every ${everyText}: ${watched.length} monitor${watched.length === 1 ? '' : 's'} (${summary}), polled ${new Date(polledAt).toTimeString().slice(0, 8)}; Ctrl-C to stop`;
    for (const w of watched) w.fresh = w.transition !== undefined && poll - w.changedAt < FRESH_POLLS;
    const lines = board.boardLines(header, watched, notes, {
      // One cell short of the edge: no terminal wraps the line early.
      width: Math.max(20, (known ?? 80) - 1),
      height: size?.rows,
      now: Date.now(),
      paint,
      color: ctx.out.stdoutColor,
      widths,
    });
    ctx.out.drawFrame(lines, { clear, sized: known !== undefined });
  };

  /** Off a terminal: one line for a monitor that changed or went. */
  const emit = (w: Watched, previous: string | undefined, monitor: JsonObject | null) => {
    const event = {
      at: new Date(polledAt).toISOString(),
      id: w.id,
      status: w.gone ? null : (w.status ?? null),
      previous_status: previous ?? null,
      latency: w.latency,
      latency_field: w.latencyPath ?? null,
      last_check: w.lastCheck,
      monitor,
      ...(w.gone ? { gone: true } : {}),
    };
    ctx.out.printJson(event, { compact: true });
    printedThisPoll++;
  };

  const update = (w: Watched, body: JsonObject) => {
    const status = board.textOf(body, 'status');
    const before = w.status;
    if (before !== undefined && status !== undefined && status !== before) {
      w.transition = { from: before, to: status, at: polledAt };
      w.changedAt = poll;
    }
    const latency = board.latencyOf(body);
    w.name = board.textOf(body, 'name');
    w.status = status;
    w.lastCheck = board.lastCheckOf(body);
    w.latency = latency.value;
    w.latencyPath = latency.path ?? w.latencyPath;
    w.history = [...w.history, latency.value].slice(-HISTORY);
    if (live) return;
    const text = comparable(body);
    if (text !== w.printed) emit(w, w.printed === undefined ? undefined : before, body);
    w.printed = text;
  };

  const markGone = (w: Watched) => {
    const before = w.status;
    w.gone = true;
    w.status = 'gone';
    w.transition = { from: before ?? '-', to: 'gone', at: polledAt };
    w.changedAt = poll;
    if (!live) emit(w, before, null);
  };

  const notFound = (error: unknown) => error instanceof CpkError && error.exitCode === ExitCode.NOT_FOUND;
  // A resize redraws the last poll at the new size at once (before the first poll there is nothing to draw).
  const stopResize = live ? ctx.io.onResize?.(() => poll > 0 && draw(true)) : undefined;
  try {
    await watchLoop(ctx, opts.everySeconds * 1000, deps.pause, async () => {
      const active = watched.filter((w) => !w.gone);
      const outcomes = await mapPool(active, opts.concurrency, (w) => api.getMonitor(w.id), { signal: ctx.signal });
      if (ctx.signal?.aborted) return false;
      polledAt = Date.now();
      notes = [];
      printedThisPoll = 0;
      // What ends the watch ends it before anything of this poll is printed.
      for (const [i, outcome] of outcomes.entries()) {
        if (outcome === undefined || outcome.ok) continue;
        if (poll === 0) throw nameMissing('monitor', (active[i] as Watched).id, outcome.error);
        if (!notFound(outcome.error) && !transient(outcome.error)) throw outcome.error;
      }
      for (const [i, outcome] of outcomes.entries()) {
        const w = active[i] as Watched;
        if (outcome === undefined) continue;
        if (outcome.ok) update(w, outcome.value);
        else if (notFound(outcome.error)) markGone(w);
        else {
          const note = `${w.id}: ${(outcome.error as Error).message}; trying again in ${everyText}`;
          if (live) notes.push(`warning: ${note}`);
          else ctx.out.warn(note);
        }
      }
      if (live) draw(poll === 0);
      else if (printedThisPoll === 0) ctx.out.heartbeat();
      poll++;
      if (!watched.every((w) => w.gone)) return true;
      ctx.out.info('every watched monitor is gone: nothing left to watch');
      return false;
    });
  } finally {
    stopResize?.();
  }
}
