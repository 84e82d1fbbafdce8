// What the watches share (`monitors watch`, `reports get --watch`, and the
// polls of `monitors wait`): the wait between polls, which failures the next
// poll may get past, what counts as a change, and the loop itself.
//
// - Ctrl-C (or SIGTERM) ends a watch with exit 0: stopping is how a watch is
//   meant to end, and every line printed is complete; a live view's cursor is
//   shown again and its last frame left on the screen.
// - The first poll failing ends the watch with that error's exit code (a
//   wrong id, token or URL should fail fast). Later, a server or network
//   failure (exit 1 or 3, after the HTTP layer's retries) is noted and the
//   next poll tries again; 401, 403 and other 4xx end the watch.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Context } from './context.js';
import { CpkError, ExitCode } from '../core/errors.js';
import { isPlainObject, stringifyJson, type JsonObject } from '../core/json.js';

/** Waits `ms`; resolves false when the signal ended the wait. */
export type Pause = (ms: number, signal?: AbortSignal) => Promise<boolean>;

export const pause: Pause = (ms, signal) => sleep(ms, true, { signal }).catch(() => false);

/** Server and network failures: the next poll may well succeed. */
export function transient(error: unknown): boolean {
  return error instanceof CpkError && (error.exitCode === ExitCode.FAILURE || error.exitCode === ExitCode.NETWORK);
}

/** `30s`, `2m`. */
export function every(ms: number): string {
  const s = ms / 1000;
  return s % 60 === 0 ? `${s / 60}m` : `${s}s`;
}

/** Top-level fields that change on every fetch (the emulator stamps each report): they alone are not a change. */
export const VOLATILE_FIELDS: readonly string[] = ['generated_at'];

/** A body as compared between polls: keys sorted, volatile fields left out, numbers exactly as sent. */
export function comparable(body: JsonObject): string {
  const rest = Object.fromEntries(Object.entries(body).filter(([key]) => !VOLATILE_FIELDS.includes(key)));
  return stringifyJson(sortedKeys(rest));
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!isPlainObject(value)) return value;
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([key, inner]) => [key, sortedKeys(inner)]));
}

/** Runs `poll(n)` every `everyMs` until the signal ends a wait or a poll returns false (or throws). */
export async function watchLoop(
  ctx: Context,
  everyMs: number,
  wait: Pause | undefined,
  poll: (n: number) => Promise<boolean | void>,
): Promise<void> {
  try {
    for (let n = 0; ; n++) {
      if ((await poll(n)) === false || !(await (wait ?? pause)(everyMs, ctx.signal))) return;
    }
  } finally {
    ctx.out.endFrames();
  }
}
