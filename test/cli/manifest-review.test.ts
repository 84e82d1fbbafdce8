// Monitors as code in teams (issue 15): several manifest files or a
// directory, saved plans (`plan --out`, `apply PLAN`), and plans for reviews
// (`plan -o json`, `plan -o markdown`), through the built CLI against the
// emulator.
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useEmulator } from '../helpers/emulator.js';

const f = useEmulator();

function workdir(): string {
  return mkdtempSync(join(tmpdir(), 'cpk-review-'));
}

function write(dir: string, name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

function entry(prefix: string, key: string): string {
  return `  ${key}:\n    name: ${prefix} ${key}\n    type: http\n    target: https://${key}.example.com/health\n`;
}

function named(prefix: string) {
  return f.emu.monitors().filter((m) => String(m.name).startsWith(`${prefix} `));
}

describe('several manifest files and directories', () => {
  it('a directory: every *.yaml, *.yml and *.json in it, sorted; the state inside it', async () => {
    const dir = join(workdir(), 'monitoring');
    mkdirSync(dir);
    mkdirSync(join(dir, 'nested'));
    write(dir, 'b.yml', `monitors:\n${entry('dir', 'b')}`);
    write(dir, 'a.yaml', `monitors:\n${entry('dir', 'a')}`);
    write(dir, 'c.json', JSON.stringify({ monitors: { c: { name: 'dir c' } } }));
    write(dir, 'notes.txt', 'not a manifest');
    write(join(dir, 'nested'), 'd.yaml', `monitors:\n${entry('dir', 'd')}`);

    const sent = f.mark();
    const r = await f.cpk(['apply', '-f', dir, '--yes']);
    expect(r.stderr).not.toContain('cpk:');
    expect(r.code).toBe(0);
    expect(
      sent()
        .filter((q) => q.method === 'POST')
        .map((q) => JSON.parse(q.body).name),
    ).toEqual(['dir a', 'dir b', 'dir c']);
    const state = JSON.parse(readFileSync(join(dir, 'cpk.state.json'), 'utf8'));
    expect(Object.keys(state.monitors)).toEqual(['a', 'b', 'c']);
    expect(named('dir')).toHaveLength(3);
    // The state file (a *.json) in the directory is not read as a manifest.
    const again = await f.cpk(['plan', '-f', dir]);
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['a.yaml', 'b.yml', 'c.json', 'cpk.state.json', 'nested', 'notes.txt']);
  });

  it('several files: entries of all of them, and --state is required', async () => {
    const dir = workdir();
    const a = write(dir, 'a.yaml', `monitors:\n${entry('files', 'a')}`);
    const b = write(dir, 'b.yaml', `monitors:\n${entry('files', 'b')}`);
    const sent = f.mark();
    const missing = await f.cpk(['plan', '-f', a, '-f', b]);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe(
      'cpk: with several manifest files, name the state file with --state FILE (e.g. --state cpk.state.json); nothing was sent\n',
    );
    expect(sent()).toEqual([]);

    const r = await f.cpk(['plan', '-f', a, '-f', b, '--state', join(dir, 'cpk.state.json'), '--json']);
    expect(r.code).toBe(10);
    expect(JSON.parse(r.stdout).monitors.map((m: { key: string }) => m.key)).toEqual(['a', 'b']);
  });

  it('a key defined in two files is an error naming both places; nothing is sent', async () => {
    const dir = join(workdir(), 'monitoring');
    mkdirSync(dir);
    const a = write(dir, 'a.yaml', `monitors:\n${entry('dup', 'one')}${entry('dup', 'web')}`);
    const b = write(dir, 'b.yaml', `# the web team's\nmonitors:\n  web:\n    name: dup web again\n`);
    const sent = f.mark();
    const r = await f.cpk(['apply', '-f', dir, '--yes']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      [
        `${b}:3:3: monitors.web is defined twice: here and at ${a}:6:3`,
        `cpk: ${dir} is not a valid manifest (1 problem); nothing was sent`,
        '',
      ].join('\n'),
    );
    expect(sent()).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual(['a.yaml', 'b.yaml']);
  });

  it('an empty directory is a usage error', async () => {
    const dir = workdir();
    const r = await f.cpk(['plan', '-f', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`cpk: no manifest in the directory ${dir} (cpk reads its *.yaml, *.yml and *.json files)\n`);
  });
});
