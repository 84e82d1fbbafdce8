// The one lock cpk takes on a file it changes (the state file, the config
// file, the inventory): a directory `<file>.lock` taken through proper-lockfile,
// which keeps its mtime fresh while the holder lives, with a `holder.json`
// inside naming who holds it (docs/monitors-as-code.md, "What cpk guarantees when a run is cut short").
//
// The directory is made under a temporary name with holder.json in it, then
// renamed into place (an empty one left by an older cpk is replaced), so no run
// is killed between taking the lock and naming itself. A dead holder's lock is
// taken over (at once on this host, else once stale: a holder that cannot
// refresh loses it, and every write under it is atomic anyway), serialized by
// a second directory (`<lock>.takeover`) so that two runs never remove a lock
// the other has just taken.
import { hostname } from 'node:os';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { callbackify } from 'node:util';
import { InterruptedError } from './errors.js';
import { isPlainObject } from './json.js';

export interface LockHolder {
  pid: number;
  host: string;
  /** ISO 8601: when the holder took the lock. */
  since: string;
  /** What the holder runs, e.g. "cpk apply". */
  command?: string;
}

export interface LockOptions {
  /** A holder that stopped refreshing its lock this long ago is gone. */
  staleMs: number;
  /** How long to wait for a held lock, in ms (0: fail at once). */
  timeoutMs: number;
  /**
   * Count `timeoutMs` from the last time the lock changed hands, not from the
   * start: a lock held for milliseconds at a time (the config file, the
   * inventory) may have a queue of writers ahead, and a queue that keeps
   * moving is waited out however long it is on a busy machine; only one
   * holder that keeps it for the whole `timeoutMs` ends the wait.
   */
  perHolder?: boolean;
  command: string;
  signal?: AbortSignal | undefined;
  /** Told once when the lock is found held and the run starts waiting. */
  onWait?: (holder: LockHolder | undefined) => void;
  /** Told when a lock of a dead process is taken over. */
  onTakeover?: (holder: LockHolder) => void;
}

/** The lock stayed held for the whole wait. */
export class LockHeldError extends Error {
  constructor(
    readonly holder: LockHolder | undefined,
    readonly waitedMs: number,
  ) {
    super('the lock is held');
  }
}

async function readHolder(lockDir: string): Promise<LockHolder | undefined> {
  try {
    const raw: unknown = JSON.parse(await readFile(`${lockDir}/holder.json`, 'utf8'));
    const { pid, host, since, command } = isPlainObject(raw) ? raw : {};
    if (typeof pid === 'number' && typeof host === 'string' && typeof since === 'string')
      return { pid, host, since, ...(typeof command === 'string' ? { command } : {}) };
  } catch {
    // gone meanwhile, or damaged: named as unknown
  }
  return undefined;
}

/** Whether a process of this host is gone (EPERM: it exists, but is another user's). */
function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Numbers the attempts of this process, so that two taking a lock at once never share a temporary directory. */
let attempts = 0;

/** proper-lockfile's documented `fs` option: mkdir makes the lock whole (above), rmdir removes its content too. */
function lockFs(holder: LockHolder) {
  const remove = (path: string) => rm(path, { recursive: true, force: true });
  return {
    ...fs,
    mkdir: callbackify(async (path: string) => {
      const temporary = `${path}.new-${process.pid}-${++attempts}`;
      await remove(temporary);
      await mkdir(temporary);
      try {
        await writeFile(join(temporary, 'holder.json'), `${JSON.stringify(holder)}\n`);
        await rename(temporary, path);
      } catch (error) {
        await remove(temporary);
        // Held (a directory with content is never replaced; ENOTDIR: a lock
        // file, as an older cpk made for the inventory): as mkdir says it.
        const code = (error as NodeJS.ErrnoException).code ?? '';
        throw ['ENOTEMPTY', 'EEXIST', 'ENOTDIR'].includes(code)
          ? Object.assign(new Error(`EEXIST: ${path}`), { code: 'EEXIST' })
          : error;
      }
    }),
    rmdir: callbackify(remove),
    // What proper-lockfile releases with when the process exits still holding it.
    rmdirSync: (path: string) => fs.rmSync(path, { recursive: true, force: true }),
  };
}

/** Removes a lock whose holder ran on this host and is gone; returns that holder. */
async function takeOverDead(lockDir: string, staleMs: number): Promise<LockHolder | undefined> {
  const dead = (holder: LockHolder | undefined): holder is LockHolder =>
    holder !== undefined && holder.host === hostname() && holder.pid !== process.pid && processGone(holder.pid);
  // Most waits are for a live holder: settled without the guard.
  if (!dead(await readHolder(lockDir))) return undefined;
  const guard = `${lockDir}.takeover`;
  try {
    await mkdir(guard);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
    // A takeover guard left by a run killed midway: gone after a while.
    const age = await stat(guard).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    );
    if (age > staleMs) await rm(guard, { recursive: true, force: true });
    return undefined;
  }
  try {
    // Read again under the guard: the lock may have changed hands since.
    const holder = await readHolder(lockDir);
    if (!dead(holder)) return undefined;
    const grave = `${lockDir}.dead-${process.pid}`;
    await rename(lockDir, grave);
    await rm(grave, { recursive: true, force: true });
    return holder;
  } catch {
    return undefined;
  } finally {
    await rm(guard, { recursive: true, force: true });
  }
}

/** Takes the lock `lockPath` (a directory) for `target`, waiting up to `timeoutMs`; resolves to its release. */
export async function takeLock(target: string, lockPath: string, options: LockOptions): Promise<() => Promise<void>> {
  const { default: lockfile } = await import('proper-lockfile');
  const started = Date.now();
  // When the current holder was first seen holding it (perHolder).
  let holderSince = started;
  let lastHolder: string | undefined;
  let told = false;
  for (;;) {
    if (options.signal?.aborted) throw new InterruptedError();
    try {
      const holder: LockHolder = {
        pid: process.pid,
        host: hostname(),
        since: new Date().toISOString(),
        command: options.command,
      };
      const release = await lockfile.lock(target, {
        realpath: false,
        lockfilePath: lockPath,
        stale: options.staleMs,
        retries: 0,
        fs: lockFs(holder),
        onCompromised: () => {},
      });
      return () => release().catch(() => {});
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    }
    const dead = await takeOverDead(lockPath, options.staleMs);
    if (dead) {
      options.onTakeover?.(dead);
      continue;
    }
    const now = Date.now();
    const holder = await readHolder(lockPath);
    if (options.perHolder) {
      // A lock found free, or taken by someone else, since the last look: the queue moved.
      const key = holder ? `${holder.host} ${holder.pid} ${holder.since}` : 'unknown';
      if (key !== lastHolder) holderSince = now;
      lastHolder = key;
    }
    const waited = now - started;
    const bound = now - holderSince;
    if (bound >= options.timeoutMs) throw new LockHeldError(holder, waited);
    if (!told) {
      told = true;
      options.onWait?.(holder);
    }
    // Short locks (a config or inventory write takes milliseconds) are polled
    // often (every 15 to 50 ms), so that a queue of writers hands the lock on
    // without idling; the state's, held for a whole apply, less. Jittered so
    // waiters spread.
    const poll = Math.min(250, options.staleMs / 200) * (0.5 + Math.random());
    await sleep(Math.min(poll, options.timeoutMs - bound), undefined, { signal: options.signal }).catch(() => {});
  }
}
