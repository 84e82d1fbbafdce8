// The one worker pool: bulk commands, watches, plan, apply and import run
// their requests through it, --concurrency at a time.
import { InterruptedError } from './errors.js';

export type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

/**
 * Maps `items` through `work`, at most `concurrency` at a time, and returns
 * the outcomes in input order whatever order they settle in. A failure does
 * not stop the others: it is kept as its item's outcome. Once `signal` aborts
 * (Ctrl-C, SIGTERM) no new item starts; those already running finish and are
 * waited for (apply records what a request already sent did). An item never
 * started, or whose work ended with InterruptedError, is left undefined.
 * `onSettled` is called as each item settles (a progress count).
 */
export async function mapPool<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
  options: { signal?: AbortSignal | undefined; onSettled?: () => void } = {},
): Promise<Array<Outcome<R> | undefined>> {
  const outcomes: Array<Outcome<R> | undefined> = new Array(items.length).fill(undefined);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && !options.signal?.aborted) {
      const index = next++;
      try {
        outcomes[index] = { ok: true, value: await work(items[index] as T, index) };
      } catch (error) {
        if (error instanceof InterruptedError) continue;
        outcomes[index] = { ok: false, error };
      }
      options.onSettled?.();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  return outcomes;
}
