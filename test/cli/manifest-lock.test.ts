// Issue 12 item 16: apply holds a lock on the state file. Two applies at once
// used to create every monitor twice and overwrite each other's ids. The
// emulator answers after 100 ms, so a first apply is still running when the
// second starts.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { useEmulator } from '../helpers/emulator.js';

const f = useEmulator({ latencyMs: 100 });

function setup(prefix: string, count: number): { dir: string; file: string; state: string } {
  const dir = mkdtempSync(join(tmpdir(), 'cpk-lock-'));
  const body = Array.from({ length: count }, (_, i) => `  m${i}:\n    name: ${prefix} ${i}\n`).join('');
  const file = join(dir, 'cpk.yaml');
  writeFileSync(file, `monitors:\n${body}`);
  return { dir, file, state: join(dir, 'cpk.state.json') };
}

function countByName(prefix: string): number[] {
  const counts = new Map<string, number>();
  for (const m of f.emu.monitors()) {
    const name = String(m.name);
    if (name.startsWith(prefix)) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts.values()];
}

/** Calls `then` once the lock directory of `state` exists (the first apply holds it). */
function whenLocked(state: string, then: () => void) {
  return (child: ChildProcess) => {
    const timer = setInterval(() => {
      if (existsSync(join(`${state}.lock`, 'holder.json'))) {
        clearInterval(timer);
        then();
      }
    }, 5);
    child.once('exit', () => clearInterval(timer));
  };
}

describe('the lock on the state file', () => {
  it('two applies at once: the second waits (--lock-timeout), then creates nothing again; no id is lost', async () => {
    const { file, state } = setup('both', 6);
    let second: ReturnType<typeof f.cpk> | undefined;
    const first = f.cpk(['apply', '-f', file, '--yes', '--concurrency', '1'], {
      onSpawn: whenLocked(state, () => {
        second = f.cpk(['apply', '-f', file, '--yes', '--lock-timeout', '30s']);
      }),
    });
    const a = await first;
    await expect.poll(() => second, { interval: 10 }).toBeDefined();
    const b = await second!;
    expect(a.code).toBe(0);
    expect(a.stdout).toContain('Apply: 6 created, 0 updated, 0 deleted, 0 unchanged, 0 failed.');
    expect(b.code).toBe(0);
    expect(b.stderr).toMatch(
      new RegExp(`^waiting up to 30s for the lock on ${state} \\(held by pid \\d+ on ${hostname()} since \\d{4}-`, 'm'),
    );
    expect(b.stdout).toContain('No changes');
    expect(countByName('both ')).toEqual([1, 1, 1, 1, 1, 1]);
    const recorded = JSON.parse(readFileSync(state, 'utf8')).monitors;
    expect(Object.keys(recorded)).toHaveLength(6);
    expect(Object.values(recorded).every((r) => typeof (r as { id?: string }).id === 'string')).toBe(true);
    expect(existsSync(`${state}.lock`)).toBe(false);
  });

  it('without --lock-timeout the second run fails at once with exit 75, naming the holder; nothing is sent', async () => {
    const { file, state } = setup('held', 4);
    let second: ReturnType<typeof f.cpk> | undefined;
    let firstPid = 0;
    let sent: (() => typeof f.emu.requests) | undefined;
    const first = f.cpk(['apply', '-f', file, '--yes', '--concurrency', '1'], {
      onSpawn: (child) => {
        firstPid = child.pid!;
        whenLocked(state, () => {
          sent = f.mark();
          second = f.cpk(['import', 'm0=mon_x', '-f', file]);
        })(child);
      },
    });
    await expect.poll(() => second, { interval: 10, timeout: 10_000 }).toBeDefined();
    const b = await second!;
    const mine = sent!().filter((r) => r.method !== 'POST');
    await first;
    expect(b.code).toBe(75);
    expect(b.stdout).toBe('');
    expect(b.stderr).toMatch(
      new RegExp(
        `^cpk: the state file ${state} is locked by cpk \\(pid ${firstPid} on ${hostname()}, cpk apply\\) since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z; nothing was changed; wait for it to finish, or pass --lock-timeout 5m to wait; if that process is gone, remove ${state}\\.lock\\n$`,
      ),
    );
    // The import did not even check its id.
    expect(mine.filter((r) => r.path.includes('mon_x'))).toEqual([]);
  });

  it('a lock left by a process that is gone is taken over at once, and said so', async () => {
    const { file, state } = setup('stale', 2);
    const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
    const pid = Number(dead.stdout.trim());
    mkdirSync(`${state}.lock`);
    writeFileSync(
      join(`${state}.lock`, 'holder.json'),
      JSON.stringify({ pid, host: hostname(), since: '2026-01-01T00:00:00.000Z', command: 'cpk apply' }),
    );
    const r = await f.cpk(['apply', '-f', file, '--yes']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      `took over the lock on ${state} left by pid ${pid} on ${hostname()} (since 2026-01-01T00:00:00.000Z), which is no longer running`,
    );
    expect(countByName('stale ')).toEqual([1, 1]);
    expect(existsSync(`${state}.lock`)).toBe(false);
  });
});
