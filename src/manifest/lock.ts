// The lock on a state file (issue 12 item 16): two applies on one state at
// once each create the same monitors and overwrite each other's ids, so apply
// and import hold `<state>.lock` while they change the state, as Terraform
// locks its state.
//
// The lock is a directory taken through proper-lockfile (which keeps its
// mtime fresh while the holder lives), with a `holder.json` inside: pid, host
// and since when, so that the run that finds it held can name who holds it.
// The directory appears with its holder.json already in it (made under a
// temporary name, then renamed into place: one atomic step), so no run can
// be killed between taking the lock and naming itself; an empty lock
// directory (left that way by an older cpk) is replaced by the rename at once. A lock left by a process that died is taken
// over: at once when its holder ran on this host and its pid is gone, else
// once its mtime is older than LOCK_STALE_MS (a live holder refreshes it
// every half of that). A takeover is itself serialized by a second directory
// (`<state>.lock.takeover`), so two runs that both find a dead lock never
// remove a lock the other has just taken.
import { hostname } from 'node:os';
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import * as fs from 'node:fs';
import { CpkError, ExitCode, InterruptedError } from '../errors.js';
import { isPlainObject } from '../parse/fields.js';

/** A lock whose holder stopped refreshing it this long ago is stale (proper-lockfile refreshes every half). */
export const LOCK_STALE_MS = 20_000;

export interface LockHolder {
  pid: number;
  host: string;
  /** ISO 8601: when the holder took the lock. */
  since: string;
  /** What the holder runs, e.g. "cpk apply". */
  command?: string;
}

export interface LockOptions {
  /** How long to wait for a held lock, in ms (0: fail at once). */
  timeoutMs: number;
  command: string;
  signal?: AbortSignal | undefined;
  /** Told once when the lock is found held and the run starts waiting. */
  onWait?: (holder: LockHolder | undefined) => void;
  /** Told when a lock of a dead process is taken over. */
  onTakeover?: (holder: LockHolder) => void;
}

export interface StateLock {
  readonly path: string;
  release(): Promise<void>;
}

export function lockPathOf(statePath: string): string {
  return `${statePath}.lock`;
}

/** The state is locked by another run: exit 75 (EX_TEMPFAIL of sysexits.h: try again later). */
export class StateLockedError extends CpkError {
  constructor(
    readonly statePath: string,
    readonly holder: LockHolder | undefined,
    waitedMs: number,
  ) {
    const who = holder
      ? `cpk (pid ${holder.pid} on ${holder.host}${holder.command ? `, ${holder.command}` : ''}) since ${holder.since}`
      : 'another cpk (holder not yet recorded)';
    super(
      `the state file ${statePath} is locked by ${who}${waitedMs > 0 ? `; waited ${formatMs(waitedMs)}` : ''}; nothing was changed`,
      ExitCode.LOCKED,
      {
        hint: `wait for it to finish, or pass --lock-timeout 5m to wait; if that process is gone, remove ${lockPathOf(statePath)}`,
      },
    );
  }
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

async function readHolder(lockDir: string): Promise<LockHolder | undefined> {
  try {
    const raw: unknown = JSON.parse(await readFile(`${lockDir}/holder.json`, 'utf8'));
    if (
      isPlainObject(raw) &&
      typeof raw.pid === 'number' &&
      typeof raw.host === 'string' &&
      typeof raw.since === 'string'
    ) {
      return {
        pid: raw.pid,
        host: raw.host,
        since: raw.since,
        ...(typeof raw.command === 'string' ? { command: raw.command } : {}),
      };
    }
  } catch {
    // not written yet (the holder is between mkdir and writing it), or damaged
  }
  return undefined;
}

/** Whether a process of this host is gone (EPERM: it exists, but is another user's). */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * The fs proper-lockfile takes the lock with (its documented `fs` option):
 * the lock directory is made whole, holder.json inside, by a rename; and it
 * is released with its content (proper-lockfile's own rmdir would fail).
 */
function lockFs(holder: LockHolder) {
  return {
    ...fs,
    mkdir: (path: string, callback: (error: NodeJS.ErrnoException | null) => void) => {
      const temporary = `${path}.new-${process.pid}`;
      fs.rm(temporary, { recursive: true, force: true }, () =>
        fs.mkdir(temporary, (made) => {
          if (made) return callback(made);
          fs.writeFile(join(temporary, 'holder.json'), `${JSON.stringify(holder)}\n`, (written) => {
            if (written) return fs.rm(temporary, { recursive: true, force: true }, () => callback(written));
            fs.rename(temporary, path, (renamed) => {
              if (!renamed) return callback(null);
              // Held (a directory with content is never replaced): as mkdir says it.
              fs.rm(temporary, { recursive: true, force: true }, () => {
                const held = renamed.code === 'ENOTEMPTY' || renamed.code === 'EEXIST';
                callback(held ? Object.assign(new Error(`EEXIST: ${path}`), { code: 'EEXIST' }) : renamed);
              });
            });
          });
        }),
      );
    },
    rmdir: (path: string, callback: (error: NodeJS.ErrnoException | null) => void) =>
      fs.rm(path, { recursive: true, force: true }, callback),
  };
}

/**
 * Removes a lock whose holder ran on this host and is gone. Returns the
 * holder it removed, or undefined when the lock was not (or no longer) dead.
 */
async function takeOverDead(lockDir: string): Promise<LockHolder | undefined> {
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
    if (age > LOCK_STALE_MS) await rm(guard, { recursive: true, force: true });
    return undefined;
  }
  try {
    // Read again under the guard: the lock may have changed hands since.
    const holder = await readHolder(lockDir);
    if (!holder || holder.host !== hostname() || holder.pid === process.pid || !processGone(holder.pid))
      return undefined;
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

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        done();
      },
      { once: true },
    );
  });
}

/** Takes the lock on `statePath`, waiting up to `timeoutMs`; StateLockedError names the holder. */
export async function lockState(statePath: string, options: LockOptions): Promise<StateLock> {
  const { default: lockfile } = await import('proper-lockfile');
  const lockDir = lockPathOf(statePath);
  const started = Date.now();
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
      const release = await lockfile.lock(statePath, {
        realpath: false,
        lockfilePath: lockDir,
        stale: LOCK_STALE_MS,
        retries: 0,
        fs: lockFs(holder),
        // The holder lost its lock (it could not refresh it for LOCK_STALE_MS): every state write is still atomic.
        onCompromised: () => {},
      });
      return {
        path: lockDir,
        release: async () => {
          await release().catch(() => {});
        },
      };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ELOCKED') {
        throw new CpkError(
          `cannot lock the state file ${statePath} (${code ?? String(error)}); nothing was changed`,
          ExitCode.FAILURE,
          { cause: error },
        );
      }
    }
    const dead = await takeOverDead(lockDir);
    if (dead) {
      options.onTakeover?.(dead);
      continue;
    }
    const waited = Date.now() - started;
    const holder = await readHolder(lockDir);
    if (waited >= options.timeoutMs) throw new StateLockedError(statePath, holder, options.timeoutMs > 0 ? waited : 0);
    if (!told) {
      told = true;
      options.onWait?.(holder);
    }
    await sleep(Math.min(250, options.timeoutMs - waited), options.signal);
  }
}
