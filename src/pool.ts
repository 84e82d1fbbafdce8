// The one worker pool: runs tasks at most `concurrency` at a time
// (--concurrency), and starts no new task once `stop` is aborted (Ctrl-C,
// SIGTERM); tasks already running finish, and are waited for (apply records
// what a request that was already sent did). The bulk commands' mapPool
// (src/commands/bulk.ts) keeps results in input order on top of it.
export async function runPool<T>(
  items: readonly T[],
  concurrency: number,
  task: (item: T) => Promise<void>,
  stop?: AbortSignal,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && !stop?.aborted) {
      const item = items[next++] as T;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
}
