// `cpk reports get ID --watch`: fetch the report every --every until Ctrl-C; what it shows is in
// docs/monitors.md, "Watching a report", how a watch ends and which failures it gets past in src/cli/watch.ts.
import type { Context } from '../../cli/context.js';
import { describeError } from '../../output/errors.js';
import { cellText, leafPaths, pathValue } from '../../output/render.js';
import type { JsonObject } from '../../core/json.js';
import { nameMissing } from '../../core/api/client.js';
import { knownColumns } from '../../core/io.js';
import { comparable, every, transient, VOLATILE_FIELDS, watchLoop, type Pause } from '../../cli/watch.js';

/** The table rows (dotted keys) whose text differs from the previous report's, with the old text ('' when new). */
export function changedRows(previous: JsonObject | undefined, current: JsonObject): Map<string, string> {
  const changed = new Map<string, string>();
  if (previous === undefined) return changed;
  // Each key's text as the table shows it.
  const texts = (report: JsonObject) =>
    new Map([...leafPaths(report).keys()].map((key) => [key, cellText(pathValue(report, key))]));
  const before = texts(previous);
  for (const [key, text] of texts(current)) {
    if (VOLATILE_FIELDS.includes(key)) continue;
    const old = before.get(key);
    if (old !== text) changed.set(key, old ?? '');
  }
  return changed;
}

export async function watchReport(
  opts: { id: string; everyMs: number },
  ctx: Context,
  deps: { pause?: Pause; now?: () => Date } = {},
): Promise<void> {
  const clock = () => (deps.now?.() ?? new Date()).toTimeString().slice(0, 8);
  const live = !ctx.out.json && ctx.io.stdoutIsTTY;
  const api = await ctx.api();
  let previous: JsonObject | undefined;
  let lastLine: string | undefined;
  await watchLoop(ctx, opts.everyMs, deps.pause, async () => {
    let report: JsonObject;
    try {
      report = await api.getReport(opts.id);
    } catch (error) {
      if (ctx.signal?.aborted) return false;
      if (previous === undefined || !transient(error)) throw nameMissing('report', opts.id, error);
      ctx.out.warn(
        `refresh at ${clock()} failed: ${describeError(error).message}; trying again in ${every(opts.everyMs)}`,
      );
      return;
    }
    if (live) {
      const lines = await ctx.out.detailLines(report, { changed: changedRows(previous, report) });
      const rows = ctx.io.stdoutSize?.()?.rows;
      const head = `Report ${opts.id}, refreshed at ${clock()}, every ${every(opts.everyMs)}; Ctrl-C to stop`;
      ctx.out.drawFrame([head, ...fitHeight(lines, rows === undefined ? undefined : rows - 2)], {
        clear: previous === undefined,
        sized: knownColumns(ctx.io.stdoutColumns) !== undefined,
      });
    } else {
      const line = comparable(report);
      if (line !== lastLine) ctx.out.printJson(report, { compact: true });
      // Nothing new to a pipe: a heartbeat notices a reader that has gone.
      else ctx.out.heartbeat();
      lastLine = line;
    }
    previous = report;
  });
}

/** The first lines of a frame that fit `rows`, the last saying how many are hidden; all of them when rows is unknown. */
function fitHeight(lines: readonly string[], rows: number | undefined): string[] {
  if (rows === undefined || lines.length <= rows) return [...lines];
  const kept = Math.max(0, rows - 1);
  return [...lines.slice(0, kept), `… ${lines.length - kept} more lines (a taller terminal shows them)`];
}
