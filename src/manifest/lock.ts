// The lock on a state file: two applies on one state at once would each
// create the same monitors and overwrite each other's ids, so apply and
// import hold `<state>.lock` (src/core/lock.ts) while they change the state, as
// Terraform locks its state.
import { CpkError, ExitCode } from '../core/errors.js';
import { takeLock, LockHeldError, type LockHolder, type LockOptions } from '../core/lock.js';

/** A lock whose holder stopped refreshing it this long ago is stale (proper-lockfile refreshes every half). */
export const LOCK_STALE_MS = 20_000;

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

/** Takes the lock on `statePath`, waiting up to `timeoutMs`; StateLockedError names the holder. */
export async function lockState(statePath: string, options: Omit<LockOptions, 'staleMs'>): Promise<StateLock> {
  const path = lockPathOf(statePath);
  try {
    const release = await takeLock(statePath, path, { ...options, staleMs: LOCK_STALE_MS });
    return { path, release };
  } catch (error) {
    if (error instanceof LockHeldError)
      throw new StateLockedError(statePath, error.holder, options.timeoutMs > 0 ? error.waitedMs : 0);
    if (error instanceof CpkError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new CpkError(
      `cannot lock the state file ${statePath} (${code ?? String(error)}); nothing was changed`,
      ExitCode.FAILURE,
      {
        cause: error,
      },
    );
  }
}

export type { LockHolder };
