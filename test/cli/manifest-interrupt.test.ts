// Monitors as code (#6): an apply killed midway never leads to a duplicate.
// The emulator answers every API request after 300 ms, so a create is still
// in flight when the test signals the CLI right after the POST arrived.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { useEmulator } from '../helpers/emulator.js';
import { journalPathOf, parseState, replayJournal } from '../../src/manifest/state.js';

const f = useEmulator({ latencyMs: 300 }, { inProcess: true });

function setup(prefix: string, count: number): { dir: string; file: string; names: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'cpk-kill-'));
  const names = Array.from({ length: count }, (_, i) => `${prefix} ${i}`);
  const body = names.map((name, i) => `  m${i}:\n    name: ${name}\n    target: https://m${i}.example.com\n`).join('');
  const file = join(dir, 'cpk.yaml');
  writeFileSync(file, `monitors:\n${body}`);
  return { dir, file, names };
}

/** The state as the next run reads it: the state file, with the journal a killed run left replayed onto it. */
function readState(dir: string): { monitors: Record<string, { id?: string; create_started_at?: string }> } {
  const path = join(dir, 'cpk.state.json');
  const data = parseState(readFileSync(path, 'utf8'), path);
  if (existsSync(journalPathOf(path))) replayJournal(readFileSync(journalPathOf(path), 'utf8'), data, path);
  return data;
}

/**
 * Sends `signal` to the child as soon as the emulator read the body of the
 * first POST of this run: from then on it makes the monitor (after its
 * latency) whatever the client does. Signalling at the POST's arrival instead
 * lets a busy machine kill the client before the body was read, and then no
 * monitor is made at all.
 */
function killAfterFirstPost(signal: NodeJS.Signals) {
  const start = f.emu.requests.length;
  return (child: ChildProcess) => {
    const timer = setInterval(() => {
      if (f.emu.requests.slice(start).some((r) => r.method === 'POST' && r.body !== '')) {
        clearInterval(timer);
        child.kill(signal);
      }
    }, 5);
    child.once('exit', () => clearInterval(timer));
  };
}

function countByName(prefix: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of f.emu.monitors()) {
    const name = String(m.name);
    if (name.startsWith(prefix)) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

describe('apply interrupted midway', () => {
  it('SIGTERM lets the create in flight finish and records it; the next apply creates no duplicates', async () => {
    const { dir, file, names } = setup('term', 4);
    const killed = await f.spawned(['apply', '-f', file, '--yes', '--concurrency', '1'], {
      onSpawn: killAfterFirstPost('SIGTERM'),
    });
    expect(killed.code).toBe(130);
    expect(killed.stderr).toContain('interrupted: starting nothing new');
    expect(killed.stderr).toContain('records everything that was done; run cpk apply again to finish');
    expect(killed.stdout).toContain('Apply: 1 created, 0 updated, 0 deleted, 0 unchanged, 0 failed, 3 not started.');
    // The create that had reached the server was answered and recorded; nothing else started.
    const recorded = readState(dir).monitors;
    expect(Object.values(recorded).every((r) => r.id !== undefined)).toBe(true);
    expect(Object.keys(recorded)).toEqual(['m0']);
    expect([...countByName('term ').keys()]).toEqual(['term 0']);

    const again = await f.cpk(['apply', '-f', file, '--yes']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Apply: 3 created, 0 updated, 0 deleted, 1 unchanged, 0 failed.');
    const counts = countByName('term ');
    expect([...counts.keys()].sort()).toEqual(names);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  });

  it('after SIGKILL the create in flight is marked uncertain: never re-sent, adopted by the next apply', async () => {
    const { dir, file, names } = setup('kill', 3);
    const killed = await f.spawned(['apply', '-f', file, '--yes', '--concurrency', '1'], {
      onSpawn: killAfterFirstPost('SIGKILL'),
    });
    expect(killed.signal).toBe('SIGKILL');
    expect(readState(dir).monitors.m0).toEqual({
      create_started_at: expect.any(String),
      create_body: expect.any(Object),
    });
    // The request had reached the server, which creates the monitor once its latency is over.
    await expect.poll(() => countByName('kill ').get('kill 0'), { interval: 20, timeout: 60_000 }).toBe(1);

    // The emulator declares a list of monitors: the next apply finds it (test/cli/manifest-adopt.test.ts
    // has the cases; against a service that declares none, it stays uncertain until `cpk import`).
    const id = f.emu.monitors().find((m) => m.name === 'kill 0')!.id as string;
    const again = await f.cpk(['apply', '-f', file, '--yes']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`adopted ${id} for entry m0\n`);
    expect(readState(dir).monitors.m0).toEqual({ id });
    const plan = await f.cpk(['plan', '-f', file]);
    expect(plan.code).toBe(0);
    expect([...countByName('kill ').keys()].sort()).toEqual(names);
    expect([...countByName('kill ').values()]).toEqual([1, 1, 1]);
  });
});
