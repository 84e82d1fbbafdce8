// `cpk reports get ID --watch`: fetch the report every --every until Ctrl-C.
//
// - On a terminal (and without --json) the table is redrawn in place, as
//   `monitors watch` draws its board, the values that changed since the last
//   refresh highlighted, cut to the terminal's height with a line saying how
//   many lines are hidden.
// - Otherwise (a pipe, a file, --json) one compact JSON line is printed per
//   refresh that changed something; the first refresh always prints.
// - Ctrl-C (or SIGTERM) ends the watch with exit 0: stopping is how a watch is
//   meant to end, and every line printed is complete.
// - The first fetch failing ends the watch with that error's exit code (a
//   wrong id, token or URL should fail fast). Later, a server or network
//   failure (exit 1 or 3, after the HTTP layer's retries) is a warning on
//   stderr and the next refresh tries again; 401, 403, 404 and other 4xx end
//   the watch with their exit code.
import type { Context } from '../../cli/context.js';
import { CpkError, ExitCode } from '../../core/errors.js';
import { describeError } from '../../output/errors.js';
import { cellText, leafPaths, pathValue } from '../../output/render.js';
import type { JsonObject } from '../../core/json.js';
import { nameMissing } from '../../core/api/client.js';
import { knownColumns } from '../../core/io.js';

export interface WatchOptions {
  id: string;
  everyMs: number;
}

export interface WatchDeps {
  /** Waits `ms`; resolves false when the signal ended the wait. */
  pause?: (ms: number, signal?: AbortSignal) => Promise<boolean>;
  now?: () => Date;
}

/**
 * Top-level fields that change on every fetch by nature (the emulator stamps
 * each report with the time it was generated): they alone are not a change.
 */
export const VOLATILE_FIELDS: readonly string[] = ['generated_at'];

export function pause(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The report as compared between refreshes: keys sorted, volatile fields left out. */
export function comparable(report: JsonObject): string {
  const sortKeys = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sortKeys);
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
      );
    }
    return value;
  };
  const rest = Object.fromEntries(Object.entries(report).filter(([key]) => !VOLATILE_FIELDS.includes(key)));
  return JSON.stringify(sortKeys(rest));
}

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

/** Server and network failures: the next refresh may well succeed. */
export function transient(error: unknown): boolean {
  return error instanceof CpkError && (error.exitCode === ExitCode.FAILURE || error.exitCode === ExitCode.NETWORK);
}

export function clock(date: Date): string {
  return date.toTimeString().slice(0, 8);
}

export function every(ms: number): string {
  const s = ms / 1000;
  return s % 60 === 0 ? `${s / 60}m` : `${s}s`;
}

export async function watchReport(opts: WatchOptions, ctx: Context, deps: WatchDeps = {}): Promise<void> {
  const wait = deps.pause ?? pause;
  const now = deps.now ?? (() => new Date());
  const live = !ctx.out.json && ctx.out.stdoutIsTTY;
  const api = await ctx.api();
  let previous: JsonObject | undefined;
  let lastLine: string | undefined;
  try {
    for (;;) {
      let report: JsonObject | undefined;
      try {
        report = await api
          .getReport(opts.id)
          .catch((error: unknown) => Promise.reject(nameMissing('report', opts.id, error)));
      } catch (error) {
        if (ctx.signal?.aborted) return;
        if (previous === undefined || !transient(error)) throw error;
        ctx.out.warn(
          `refresh at ${clock(now())} failed: ${describeError(error).message}; trying again in ${every(opts.everyMs)}`,
        );
      }
      if (report !== undefined) {
        if (live) {
          const changed = changedRows(previous, report);
          const lines = await ctx.out.detailLines(report, { changed });
          const rows = ctx.io.stdoutSize?.()?.rows;
          const head = `Report ${opts.id}, refreshed at ${clock(now())}, every ${every(opts.everyMs)}; Ctrl-C to stop`;
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
      }
      if (!(await wait(opts.everyMs, ctx.signal))) return;
    }
  } finally {
    ctx.out.endFrames();
  }
}

/** The first lines of a frame that fit `rows`, the last saying how many are hidden; all of them when rows is unknown. */
export function fitHeight(lines: readonly string[], rows: number | undefined): string[] {
  if (rows === undefined || lines.length <= rows) return [...lines];
  const kept = Math.max(0, rows - 1);
  return [...lines.slice(0, kept), `… ${lines.length - kept} more lines (a taller terminal shows them)`];
}
