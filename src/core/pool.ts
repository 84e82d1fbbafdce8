// The one worker pool: bulk commands, watches, plan, apply and import run
// their requests through it, --concurrency at a time.
import { InterruptedError } from './errors.js';

export type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

/**
 * The outcomes of `work` over `items`, `concurrency` at a time, in input order.
 * A failure does not stop the others. Once `signal` aborts (Ctrl-C, SIGTERM) no
 * new item starts; those running are waited for (apply records what a request
 * already sent did). An item never started, or interrupted, is left undefined.
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
