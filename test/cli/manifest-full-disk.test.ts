// apply on a disk that fills midway: a run that could not record what it did
// never exits 0, the state it leaves stays readable, and once there is room
// again the next run finishes with one monitor per entry. The disk is a real
// tmpfs (mounting one needs root, as the CI runner is).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { journalPathOf, parseState, replayJournal } from '../../src/manifest/state.js';

const f = useEmulator();
const mounts: string[] = [];

afterAll(() => {
  for (const dir of mounts) execFileSync('umount', [dir]);
});

/** A tmpfs of `size` bytes, unmounted when the file's tests end. */
function smallDisk(size: number): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'cpk-full-')), 'disk');
  mkdirSync(dir);
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  mounts.push(dir);
  return dir;
}

describe.runIf(process.getuid?.() === 0)('apply on a disk that fills midway', () => {
  it('exits 74 naming the state file, leaves a readable state, and the next run (with room) makes no duplicate', async () => {
    const count = 400;
    const dir = mkdtempSync(join(tmpdir(), 'cpk-full-manifest-'));
    const file = join(dir, 'cpk.yaml');
    const body = Array.from(
      { length: count },
      (_, i) => `  m${i}:\n    name: full ${i}\n    type: http\n    target: https://m${i}.example.com\n`,
    ).join('');
    writeFileSync(file, `monitors:\n${body}`);
    const disk = smallDisk(256 * 1024);
    // Room for the state and the journal of some of the creates, not all.
    const filler = join(disk, 'filler');
    writeFileSync(filler, Buffer.alloc(232 * 1024));
    const state = join(disk, 'cpk.state.json');

    const full = await f.cpk(['apply', '-f', file, '--state', state, '--yes']);
    expect(full.code, full.stderr).toBe(74);
    const last = full.stderr.trimEnd().split('\n').at(-1) ?? '';
    expect(last).toMatch(new RegExp(`^cpk: cannot write the state file ${state}(\\.journal)? \\(ENOSPC\\)`));
    expect(last).toMatch(/\d+ changes were not started/);
    expect(full.stdout).toMatch(/Apply: \d+ created, .* \d+ not started\./);

    // What is on disk reads (no line cut in the middle), and the next run (with room) finishes the job.
    const data = parseState(readFileSync(state, 'utf8'), state);
    if (existsSync(journalPathOf(state))) replayJournal(readFileSync(journalPathOf(state), 'utf8'), data, state);
    rmSync(filler);
    const again = await f.cpk(['apply', '-f', file, '--state', state, '--yes']);
    expect(again.code, again.stderr.slice(0, 3000)).toBe(0);
    const names = f.emu
      .monitors()
      .map((m) => String(m.name))
      .filter((n) => n.startsWith('full '));
    expect(names.length).toBe(count);
    expect(new Set(names).size).toBe(count);
    const plan = await f.cpk(['plan', '-f', file, '--state', state]);
    expect(plan.code, plan.stdout).toBe(0);
  });
});
