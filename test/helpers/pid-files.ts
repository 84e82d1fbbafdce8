// The pid files of the processes the suite started (test/helpers/children.ts),
// read by the run's teardown (test/global-setup.ts), which imports no vitest
// runtime: what both sides need to name a process and kill it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the pid files of the run's children are, inside the run's temporary directory. */
export function pidDir(root: string): string {
  return join(root, 'children');
}

/** What tells this process from a later one given its pid: its start time, on Linux ('' elsewhere). */
export function startTime(pid: number): string {
  try {
    // /proc/PID/stat: the command (field 2) may hold spaces, so count from its closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}

/** Kills the process group `pid` leads (or `pid` alone, if it leads none); false when neither exists. */
export function killGroup(pid: number, signal: NodeJS.Signals = 'SIGKILL'): boolean {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, signal);
      return true;
    } catch {
      // no such group: the process alone
    }
  }
  return false;
}

/**
 * Whether a process of group `pgid` still runs. A killed member is gone once the kernel has torn it down,
 * a moment after the signal; a zombie (dead, waiting to be collected by whoever adopted it) does not run.
 */
export function groupRuns(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // After the command's closing parenthesis: state, ppid, pgrp.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}
