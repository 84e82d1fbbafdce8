// Runs one request per item for the bulk commands (several ids, create
// --from): at most `concurrency` at a time (src/core/pool.ts) over the one
// keep-alive pool of the command's HttpClient, results kept in input order.
// A failure does not stop the others; each is reported on its own line, and
// the command ends with a CpkError whose exit code is that of the first
// failure in input order.
import { setMaxListeners } from 'node:events';
import type { Context } from './context.js';
import { CpkError, InterruptedError } from '../core/errors.js';
import { startProgress } from '../output/progress.js';
import { mapPool, type Outcome } from '../core/pool.js';

export interface BulkItem<T> {
  /** Names the item in a failure line: its id, or "line 3". */
  label: string;
  /** Fields that name the item in a --json failure object, e.g. {id} or {line}. */
  fields: Record<string, unknown>;
  input: T;
}

export async function runBulk<T, R>(
  ctx: Context,
  items: Array<BulkItem<T>>,
  work: (input: T) => Promise<R>,
  /** progress: its label on a terminal, e.g. "Deleting monitors". */
  options: { concurrency: number; progress: string },
) {
  if (items.length === 0 && !ctx.out.json) ctx.out.info('Nothing to do: the list is empty.');
  // Every request in flight (and every retry wait) listens to the Ctrl-C
  // signal; with --concurrency above 10, Node would warn about a leak that is not one.
  if (ctx.signal) setMaxListeners(0, ctx.signal);
  const progress = await startProgress(ctx.out, options.progress, items.length);
  let outcomes: Array<Outcome<R> | undefined>;
  try {
    outcomes = await mapPool(items, options.concurrency, (item) => work(item.input), {
      signal: ctx.signal,
      onSettled: () => progress.tick(),
    });
  } finally {
    progress.stop();
  }
  const done: Array<{ index: number; value: R }> = [];
  outcomes.forEach((outcome, index) => {
    if (outcome?.ok) done.push({ index, value: outcome.value });
  });
  return {
    /** Successful results in input order, with the item they belong to. */
    done,
    /**
     * Call after printing the results: reports failures and interruption, and throws when there were any.
     * `next`: what to do about the items not done (their index, and their error when they had an answer or
     * failed): lines printed after the failures, and a hint closing the summary.
     */
    finish({
      noun,
      verb,
      next,
    }: {
      noun: string;
      verb: string;
      next?: (unfinished: Array<{ index: number; error?: unknown }>) => { lines: string[]; hint?: string | undefined };
    }): void {
      let firstCode: number | undefined;
      let failed = 0;
      const unfinished: Array<{ index: number; error?: unknown }> = [];
      outcomes.forEach((outcome, index) => {
        if (outcome?.ok) return;
        unfinished.push(outcome ? { index, error: outcome.error } : { index });
        if (!outcome) return;
        failed++;
        const code = ctx.out.itemError(items[index] as BulkItem<T>, outcome.error);
        firstCode ??= code;
      });
      const advice = next && unfinished.length > 0 ? next(unfinished) : undefined;
      const settled = outcomes.filter((o) => o !== undefined).length;
      if (settled < items.length || ctx.signal?.aborted) {
        // Results that came back were printed above; say what is unknown.
        ctx.out.info(
          `cpk: interrupted: ${settled} of ${items.length} ${noun} finished (${failed} failed); the others were not sent or had no answer yet, so they may or may not have been ${verb}`,
        );
        for (const line of advice?.lines ?? []) ctx.out.info(line);
        if (advice?.hint) ctx.out.info(`cpk: ${advice.hint}`);
        throw new InterruptedError();
      }
      // Under --json, stderr holds one JSON object per line: the advice goes into the closing error's message.
      if (!ctx.out.json) for (const line of advice?.lines ?? []) ctx.out.info(line);
      if (firstCode !== undefined) {
        const lines = ctx.out.json ? (advice?.lines ?? []).map((line) => line.replace(/^cpk: /, '')) : [];
        const hint = [...lines, ...(advice?.hint ? [advice.hint] : [])].join('; ');
        throw new CpkError(
          `${failed} of ${items.length} ${noun} could not be ${verb}`,
          firstCode,
          hint ? { hint } : {},
        );
      }
    },
  };
}
