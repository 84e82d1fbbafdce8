// The processes a test starts that could outlive it (an emulator, a CLI that
// watches or waits, npm): each is started in a process group of its own and
// recorded here, and as a pid file in the run's temporary directory
// (test/global-setup.ts). A test file's own afterEach (or the setup file's
// afterAll, for every file) kills what is still running, whether the test
// passed, failed or timed out; the run's teardown kills whatever a worker that
// died left behind. Nothing is found by name: only what the suite started.
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { inject } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { groupRuns, killGroup, pidDir, startTime } from './pid-files.js';

const live = new Set<ChildProcess>();

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/**
 * Tracks `child` until it exits. Spawn it with `detached: true`, which makes it
 * lead a process group of its own, so that what it starts in turn dies with it.
 */
export function track<T extends ChildProcess>(child: T): T {
  const pid = child.pid;
  if (pid === undefined) return child; // did not start: 'error' says why
  live.add(child);
  // A config without test/global-setup.ts provides no run directory: then the file's afterAll alone.
  const root = inject('cpkTmpRoot') as string | undefined;
  const file = root === undefined ? undefined : join(pidDir(root), String(pid));
  if (file) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, startTime(pid));
  }
  child.once('exit', () => {
    live.delete(child);
    if (file) rmSync(file, { force: true });
  });
  return child;
}

/**
 * Kills `child`'s process group (SIGKILL unless given) and resolves once it has exited, and with SIGKILL once
 * every process of its group has: what it started dies a moment after the signal, not with the call. The
 * group is signalled even when its leader has already exited, since what it started may still run.
 */
export async function killTracked(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  const gone = exited(child) ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()));
  killGroup(pid, signal);
  await gone;
  // Waits on the kernel's teardown, however slow the machine: the hook's timeout is the only bound.
  while (signal === 'SIGKILL' && groupRuns(pid)) await sleep(5);
}

/** Kills every tracked child still running and waits until each has exited. */
export async function killAllTracked(): Promise<void> {
  await Promise.all([...live].map((child) => killTracked(child)));
}
