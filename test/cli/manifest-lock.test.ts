// Issue 12 item 16: apply holds a lock on the state file. Two applies at once
// used to create every monitor twice and overwrite each other's ids. The
// emulator answers after 100 ms, so an apply of 6 entries one at a time lasts
// long enough for two to overlap if nothing kept them apart.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { useEmulator } from '../helpers/emulator.js';

const f = useEmulator({ latencyMs: 100 }, { inProcess: true });

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

/** Holds the lock on `state` as a live process of this host would (this test's own pid, a fresh mtime). */
function holdLock(state: string): () => void {
  mkdirSync(`${state}.lock`);
  writeFileSync(
    join(`${state}.lock`, 'holder.json'),
    JSON.stringify({ pid: process.pid, host: hostname(), since: '2026-02-03T04:05:06.000Z', command: 'cpk apply' }),
  );
  return () => rmSync(`${state}.lock`, { recursive: true, force: true });
}

/** Resolves once the child wrote `text` on stderr. */
function onStderr(text: string): { seen: Promise<void>; watch: (child: ChildProcess) => void } {
  let resolveSeen: () => void = () => {};
  const seen = new Promise<void>((done) => (resolveSeen = done));
  let buffer = '';
  return {
    seen,
    watch: (child) =>
      child.stderr?.on('data', (d: Buffer | string) => {
        buffer += String(d);
        if (buffer.includes(text)) resolveSeen();
      }),
  };
}

describe('the lock on the state file', () => {
  it('two applies at once: one waits for the other (--lock-timeout), creates nothing again, and no id is lost', async () => {
    const { file, state } = setup('both', 6);
    // Both start while the lock is held, so both are surely running at once when it is let go.
    const release = holdLock(state);
    const waitA = onStderr('waiting up to 90s for the lock');
    const waitB = onStderr('waiting up to 90s for the lock');
    const argv = ['apply', '-f', file, '--yes', '--concurrency', '1', '--lock-timeout', '90s'];
    const a = f.spawned(argv, { onSpawn: waitA.watch, timeoutMs: 120_000 });
    const b = f.spawned(argv, { onSpawn: waitB.watch, timeoutMs: 120_000 });
    await Promise.all([waitA.seen, waitB.seen]);
    release();
    const results = await Promise.all([a, b]);
    expect(results.map((r) => r.code)).toEqual([0, 0]);
    for (const r of results)
      expect(r.stderr).toContain(
        `waiting up to 90s for the lock on ${state} (held by pid ${process.pid} on ${hostname()} since 2026-02-03T04:05:06.000Z)`,
      );
    const outputs = results.map((r) =>
      r.stdout.includes('No changes') ? 'no changes' : r.stdout.match(/Apply: .*/)?.[0],
    );
    expect(outputs.sort()).toEqual(['Apply: 6 created, 0 updated, 0 deleted, 0 unchanged, 0 failed.', 'no changes']);
    expect(countByName('both ')).toEqual([1, 1, 1, 1, 1, 1]);
    const recorded = JSON.parse(readFileSync(state, 'utf8')).monitors;
    expect(Object.keys(recorded)).toHaveLength(6);
    expect(Object.values(recorded).every((r) => typeof (r as { id?: string }).id === 'string')).toBe(true);
    expect(existsSync(`${state}.lock`)).toBe(false);
  }, 150_000);

  it('without --lock-timeout a held lock fails the run at once with exit 75, naming the holder; nothing is sent', async () => {
    const { file, state } = setup('held', 2);
    const release = holdLock(state);
    const sent = f.mark();
    const r = await f.cpk(['import', 'm0=mon_x', '-f', file]);
    release();
    expect(r.code).toBe(75);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `cpk: the state file ${state} is locked by cpk (pid ${process.pid} on ${hostname()}, cpk apply) since 2026-02-03T04:05:06.000Z; nothing was changed; wait for it to finish, or pass --lock-timeout 5m to wait; if that process is gone, remove ${state}.lock\n`,
    );
    expect(sent()).toEqual([]);
  });

  it('a lock directory left without its holder (a run killed while taking it) is taken over at once', async () => {
    const { file, state } = setup('holderless', 2);
    // Just made: not stale by its age, so only its missing holder says that no run holds it.
    mkdirSync(`${state}.lock`);
    const r = await f.cpk(['apply', '-f', file, '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(countByName('holderless ')).toEqual([1, 1]);
    expect(existsSync(`${state}.lock`)).toBe(false);
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
