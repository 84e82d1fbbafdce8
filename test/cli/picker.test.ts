// A missing id on a terminal opens a searchable picker (arrow keys and Enter
// choose, Esc cancels with exit 2 as a declined confirmation does, Ctrl-C interrupts with 130); off a terminal it stays a usage error.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { runInPty } from '../helpers/pty.js';

const f = useEmulator({}, { inProcess: true });
let env: Record<string, string>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  env = {
    ...f.env,
    CPK_DATA_DIR: mkdtempSync(join(tmpdir(), 'cpk-data-')),
    CPK_CACHE_DIR: mkdtempSync(join(tmpdir(), 'cpk-cache-')),
  };
  for (const name of ['Alpha shop', 'Beta search', 'Gamma billing']) {
    const r = await f.cpk(
      ['monitors', 'create', '--name', name, '--target', `https://${name.split(' ')[1]}.example.com`, '-q'],
      { env },
    );
    ids[name] = r.stdout.trim();
  }
});

const DOWN = '\x1b[B';

describe('the picker, on a terminal', () => {
  it('monitors get: arrow down and Enter fetch the second monitor of the list', async () => {
    const pty = runInPty(['monitors', 'get', '-o', 'json'], { env, columns: 100, rows: 30 });
    await pty.waitFor(/Which monitor\?[\s\S]*↓/);
    // The order the picker shows (the service's): the second line is the one chosen.
    const shown = pty.output();
    const names = Object.keys(ids).sort((x, y) => shown.indexOf(x) - shown.indexOf(y));
    expect(names.every((n) => shown.includes(n))).toBe(true);
    pty.type(DOWN);
    pty.type('\r');
    const done = await pty.done;
    expect(done.code).toBe(0);
    expect(done.output).toContain(`"id": "${ids[names[1]!]}"`);
    expect(done.output).not.toContain(`"id": "${ids[names[0]!]}"`);
    expect(done.output).not.toContain(`"id": "${ids[names[2]!]}"`);
  });

  it('monitors get: typing searches, arrow keys move within the matches', async () => {
    const pty = runInPty(['monitors', 'get', '-o', 'json'], { env, columns: 100, rows: 30 });
    await pty.waitFor(/Gamma billing/);
    // "bill" matches Gamma billing only (the search reads ids too, and a random id may hold a short
    // string such as "ll"); down wraps back onto it.
    pty.type('bill');
    const from = pty.output().length;
    await pty.waitFor(/bill/, from - 4);
    pty.type(DOWN);
    pty.type('\r');
    const done = await pty.done;
    expect(done.code).toBe(0);
    expect(done.output).toContain(`"id": "${ids['Gamma billing']}"`);
    expect(done.output).not.toContain(`"id": "${ids['Beta search']}"`);
  });

  it('Enter on the only match prints that monitor', async () => {
    const pty = runInPty(['monitors', 'get', '-o', 'json'], { env });
    await pty.waitFor(/Which monitor\?/);
    pty.type('Alpha');
    await pty.waitFor(/Alpha shop/);
    pty.type('\r');
    const done = await pty.done;
    expect(done.code).toBe(0);
    expect(done.output).toContain(`"id": "${ids['Alpha shop']}"`);
  });

  it('shows name, status and target', async () => {
    const pty = runInPty(['monitors', 'update', '--name', 'x'], { env, columns: 120 });
    await pty.waitFor(/Which monitor\?/);
    await pty.waitFor(/Beta search .*https:\/\/search\.example\.com/);
    pty.type('\x1b');
    expect((await pty.done).code).toBe(2);
  });

  it('Ctrl-C cancels with exit 130', async () => {
    const pty = runInPty(['monitors', 'update', '--name', 'renamed'], { env });
    await pty.waitFor(/Which monitor\?/);
    pty.type('\x03');
    expect((await pty.done).code).toBe(130);
    expect((await f.cpk(['monitors', 'list', '-o', 'json'], { env })).stdout).not.toContain('renamed');
  });

  it.each([[['monitors', 'get']], [['monitors', 'delete']], [['monitors', 'watch']], [['reports', 'get']]])(
    'Esc cancels %j as a declined confirmation does: exit 2, changing nothing',
    async (args) => {
      const mark = f.mark();
      const pty = runInPty(args, { env });
      await pty.waitFor(/Which (monitor|report)\?/);
      pty.type('\x1b');
      const done = await pty.done;
      expect(done.code).toBe(2);
      expect(done.output).toMatch(/cpk: cancelled: no (monitor|report) picked; nothing was sent/);
      expect(mark().filter((r) => r.method !== 'GET')).toEqual([]);
    },
  );
});

describe('off a terminal', () => {
  it.each([
    [['monitors', 'get']],
    [['monitors', 'update', '--name', 'x']],
    [['monitors', 'delete', '--yes']],
    [['monitors', 'watch']],
    [['reports', 'get']],
  ])('%j without an id is a usage error (exit 2)', async (args) => {
    const r = await f.cpk(args, { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^cpk: (missing required argument|give monitor ids)/);
  });
});
