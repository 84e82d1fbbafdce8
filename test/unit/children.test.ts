// The suite's own guarantee (test/helpers/children.ts): a process a test
// leaves running, and what that process started in turn, is killed and reaped
// by the test file's afterEach, and its pid file is gone with it.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { killAllTracked, track } from '../helpers/children.js';
import { pidDir } from '../helpers/pid-files.js';

/** Whether `pid` runs: a zombie (dead, waiting for whoever adopted it to collect it) does not. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}

describe.runIf(process.platform !== 'win32')('a process a test leaves running', () => {
  afterEach(killAllTracked);

  // A parent that starts a child of its own, prints the child's pid, and waits forever.
  const SCRIPT = `
    const c = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    console.log(c.pid);
    setInterval(() => {}, 1000);
  `;
  let parent: ChildProcess;
  let grandchild: number;

  it('is left running by this test', async () => {
    parent = track(spawn(process.execPath, ['-e', SCRIPT], { stdio: ['ignore', 'pipe', 'inherit'], detached: true }));
    grandchild = await new Promise<number>((resolve) =>
      parent.stdout!.setEncoding('utf8').once('data', (d: string) => resolve(Number(d.trim()))),
    );
    expect(alive(parent.pid!)).toBe(true);
    expect(alive(grandchild)).toBe(true);
    expect(existsSync(join(pidDir(inject('cpkTmpRoot')), String(parent.pid)))).toBe(true);
  });

  it('is gone, with its own child, before the next test starts', () => {
    expect(parent.signalCode).toBe('SIGKILL');
    expect(alive(parent.pid!)).toBe(false);
    expect(existsSync(join(pidDir(inject('cpkTmpRoot')), String(parent.pid)))).toBe(false);
    expect(alive(grandchild)).toBe(false);
  });
});
