/* eslint-disable no-control-regex -- the test is about what reaches a terminal */
// `cpk monitors watch` through the built CLI: one JSON line per change off a
// terminal, and the live board on a pseudo-terminal (test/helpers/pty.ts):
// drawn in place, transitions highlighted, fitted to a resize, and the cursor
// given back on Ctrl-C or SIGTERM with exit 0.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { runCli, stdoutLines } from '../helpers/cli.js';
import { runCpk } from '../helpers/in-process.js';
import { runInPty } from '../helpers/pty.js';
import { useReferenceServer } from '../helpers/reference-server.js';
import { textWidth } from '../../src/output/text.js';

const f = useEmulator({}, { inProcess: true });

function monitor(name: string, target: string): Promise<string> {
  return f.create({ name, target });
}

interface Line {
  at: string;
  id: string;
  status: string | null;
  previous_status: string | null;
  latency: number | null;
  latency_field: string | null;
  last_check: string | null;
  monitor: Record<string, unknown> | null;
  gone?: true;
}

/** The JSON lines a watch printed. */
function parsed(stdout: string): Line[] {
  return stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Line);
}

// Each case watches monitors of its own: the cases run side by side, their polls' waits overlapping.
describe.concurrent('monitors watch off a terminal', () => {
  it('prints every monitor first, then a JSON line per monitor that changed; SIGINT exits 0', async () => {
    const up = await monitor('watch-up', 'https://up.example.com/health');
    const down = await monitor('watch-down', 'https://down.example.com/health');
    const sent = f.mark();
    let script: Promise<void> = Promise.resolve();
    const r = await f.spawned(['monitors', 'watch', up, down, '--every', '1s'], {
      onSpawn: (child) => {
        const arrived = stdoutLines(child);
        script = (async () => {
          await arrived(2);
          expect((await f.cpk(['monitors', 'update', up, '--set', 'paused=true'])).code).toBe(0);
          await arrived(3);
          child.kill('SIGINT');
        })();
      },
    });
    await script;
    expect(r.stderr).toBe('');
    expect([r.code, r.signal]).toEqual([0, null]);
    const lines = parsed(r.stdout);
    expect(lines).toHaveLength(3);
    const [first, second, third] = lines as [Line, Line, Line];
    expect(first).toMatchObject({
      id: up,
      status: 'up',
      previous_status: null,
      latency_field: 'last_check.latency_ms',
      monitor: { id: up, name: 'watch-up', status: 'up' },
    });
    expect(first.latency).toBe((first.monitor!.last_check as { latency_ms: number }).latency_ms);
    expect(first.last_check).toBe((first.monitor!.last_check as { checked_at: string }).checked_at);
    expect(Object.keys(first)).toEqual([
      'at',
      'id',
      'status',
      'previous_status',
      'latency',
      'latency_field',
      'last_check',
      'monitor',
    ]);
    // A monitor without a numeric latency: null, never a crash.
    expect(second).toMatchObject({ id: down, status: 'down', latency: null, latency_field: null });
    expect(third).toMatchObject({ id: up, status: 'paused', previous_status: 'up', monitor: { paused: true } });
    expect(Date.parse(third.at)).toBeGreaterThan(Date.parse(first.at));
    const gets = sent().filter((q) => q.method === 'GET' && q.path === `/v1/monitors/${down}`);
    expect(gets.length).toBeGreaterThanOrEqual(2);
  });

  it('a failed poll is a warning and the next one tries again; a deleted monitor is gone, and then nothing is left', async () => {
    const id = await monitor('watch-gone', 'https://gone.example.com/health');
    let script: Promise<void> = Promise.resolve();
    const r = await f.spawned(['monitors', 'watch', id, '--every', '1s'], {
      env: { CPK_MAX_ATTEMPTS: '1' },
      onSpawn: (child) => {
        const arrived = stdoutLines(child);
        let stderr = '';
        const warned = new Promise<void>((resolve) =>
          child.stderr!.on('data', (d: Buffer) => {
            stderr += d.toString();
            if (stderr.includes('\n')) resolve();
          }),
        );
        script = (async () => {
          await arrived(1);
          f.emu.injectFault({ method: 'GET', path: `/v1/monitors/${id}`, status: 503 });
          await warned;
          expect((await f.cpk(['monitors', 'delete', id, '--yes'])).code).toBe(0);
        })();
      },
    });
    await script;
    expect(r.code).toBe(0);
    const lines = parsed(r.stdout);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ id, status: 'up', previous_status: null });
    expect(lines[1]).toMatchObject({ id, status: null, previous_status: 'up', monitor: null, gone: true });
    const err = r.stderr.split('\n');
    expect(err[0]).toBe(`warning: ${id}: service unavailable (injected fault); trying again in 1s`);
    expect(err.slice(1)).toEqual(['every watched monitor is gone: nothing left to watch', '']);
  });

  it('reads ids from stdin with -', async () => {
    const id = await monitor('watch-stdin', 'https://stdin.example.com/health');
    const r = await f.spawned(['monitors', 'watch', '-', '--every', '1s'], {
      input: `${id}\n${id}\n`,
      onSpawn: (child) => {
        void stdoutLines(child)(1).then(() => child.kill('SIGINT'));
      },
    });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(parsed(r.stdout).map((l) => [l.id, l.status])).toEqual([[id, 'up']]);
  });

  it('fails fast on bad input and on a monitor that does not exist', async () => {
    const id = await monitor('watch-input', 'https://input.example.com/health');
    const [none, both, zero, missing] = await Promise.all([
      f.cpk(['monitors', 'watch']),
      f.cpk(['monitors', 'watch', id, '--all']),
      f.cpk(['monitors', 'watch', id, '--every', '0']),
      f.cpk(['monitors', 'watch', id, 'mon_nothing_here', '--every', '1s']),
    ]);
    expect([none.code, none.stderr]).toEqual([2, 'cpk: give monitor ids (or - to read them from stdin), or --all\n']);
    expect([both.code, both.stderr]).toEqual([2, 'cpk: give monitor ids or --all, not both\n']);
    expect([zero.code, zero.stderr]).toEqual([2, 'cpk: invalid --every "0": must be more than 0 seconds\n']);
    expect(missing.code).toBe(6);
    expect(missing.stderr).toMatch(/^cpk: monitor not found: mon_nothing_here \(request id: req_[0-9a-f]+\)\n$/);
    expect(none.stdout + both.stdout + zero.stdout + missing.stdout).toBe('');
  });
});

describe('monitors watch --all', () => {
  const g = useEmulator({}, { inProcess: true });

  it("watches the monitors of the service's declared list", async () => {
    const ids: string[] = [];
    for (const name of ['all-a', 'all-b', 'all-c']) {
      ids.push(await g.create({ name }));
    }
    const sent = g.mark();
    const r = await g.spawned(['monitors', 'watch', '--all', '--every', '1s', '--concurrency', '2'], {
      onSpawn: (child) => {
        void stdoutLines(child)(3).then(() => child.kill('SIGTERM'));
      },
    });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const seen = parsed(r.stdout).map((l) => l.id);
    expect(seen.sort()).toEqual([...ids].sort());
    expect(sent().some((q) => q.method === 'GET' && q.path.startsWith('/v1/monitors?'))).toBe(true);
  });

  describe('against a service that declares no list', () => {
    const ref = useReferenceServer();

    it('watches the monitors known on this machine, and says so when there are none', async () => {
      const env = {
        CPK_DATA_DIR: mkdtempSync(join(tmpdir(), 'cpk-data-')),
        CPK_CACHE_DIR: mkdtempSync(join(tmpdir(), 'cpk-cache-')),
        CPK_BASE_URL: ref.baseUrl,
        CPK_TOKEN: ref.token,
      };
      const empty = await runCpk(['monitors', 'watch', '--all'], { env });
      expect(empty.code).toBe(1);
      expect(empty.stderr).toBe(
        'cpk: no monitors to watch: the service offers no list of monitors and none is known on this machine (created, fetched or applied here); give their ids\n',
      );
      const a = (await runCpk(['monitors', 'create', '--name', 'known-a', '-q'], { env })).stdout.trim();
      const b = (await runCpk(['monitors', 'create', '--name', 'known-b', '-q'], { env })).stdout.trim();
      const r = await runCli(['monitors', 'watch', '--all', '--every', '1s'], {
        env,
        onSpawn: (child) => {
          void stdoutLines(child)(2).then(() => child.kill('SIGINT'));
        },
      });
      expect([r.code, r.stderr]).toEqual([0, '']);
      const seen = parsed(r.stdout);
      expect(seen.map((l) => l.id).sort()).toEqual([a, b].sort());
      // The reference server's monitor has no latency and no check time: nulls.
      expect(seen[0]).toMatchObject({ latency: null, latency_field: null, last_check: null });
    });
  });
});

const SGR = /\u001b\[[0-9;]*m/g;

/** The frames drawn on the terminal: each a list of lines as shown (colors kept), split at cursor-home. */
function frames(output: string): string[][] {
  return output
    .split('\u001b[H')
    .slice(1)
    .map((frame) =>
      frame
        .replace(/^\u001b\[2J/, '')
        .split('\u001b[J')[0]!
        .split(/\r?\n/)
        .filter((line) => line !== '')
        .map((line) => line.replace(/^\u001b\[2K/, '')),
    );
}

describe.concurrent('monitors watch on a terminal', () => {
  it('draws a board in place, highlights a transition, and gives the cursor back on Ctrl-C (exit 0)', async () => {
    const up = await monitor('Checkout', 'https://shop.example.com/health');
    const down = await monitor('Search', 'https://down.search.example.com/');
    const pty = runInPty(['monitors', 'watch', up, down, '--every', '1s'], { env: f.env, columns: 100, rows: 30 });
    await pty.waitFor(/Every 1s: 2 monitors \(1 up, 1 down\)/);
    const before = pty.output().length;
    expect((await f.cpk(['monitors', 'update', up, '--set', 'paused=true'])).code).toBe(0);
    await pty.waitFor(/up→paused/, before);
    // Three frames after the change's: the highlight lasts three polls.
    await pty.waitFor(/(?:\u001b\[H[^]*?){3}\u001b\[J/, pty.output().length);
    pty.interrupt();
    const { code, signal, output } = await pty.done;
    expect([code, signal]).toEqual([0, null]);
    // Cursor hidden once, the screen cleared once, then redrawn in place, the cursor shown at the end.
    expect(output.startsWith('\u001b[?25l\u001b[H\u001b[2J')).toBe(true);
    expect(output.split('\u001b[?25l')).toHaveLength(2);
    expect(output.split('\u001b[2J')).toHaveLength(2);
    expect(output.lastIndexOf('\u001b[?25h')).toBeGreaterThan(output.lastIndexOf('\u001b[J'));
    expect(output.slice(output.lastIndexOf('\u001b[?25h'))).toBe('\u001b[?25h');
    const drawn = frames(output);
    expect(drawn.length).toBeGreaterThanOrEqual(2);
    const first = drawn[0]!.map((line) => line.replace(SGR, '').trimEnd());
    expect(first[0]).toMatch(/^Every 1s: 2 monitors \(1 up, 1 down\), polled \d\d:\d\d:\d\d; Ctrl-C to stop$/);
    expect(first[1]).toBe('ID                NAME      STATUS  CHANGED  LAST CHECK  LATENCY  TREND');
    expect(first[2]).toMatch(new RegExp(`^${up}  Checkout  up      -        \\d+s ago +\\d+ms +▄$`));
    expect(first[3]).toMatch(new RegExp(`^${down}  Search    down    -        \\d+s ago +-$`));
    // Status colored; the transition in inverse video, its column naming it.
    expect(drawn[0]![2]).toContain('\u001b[32mup\u001b[39m');
    expect(drawn[0]![3]).toContain('\u001b[31mdown\u001b[39m');
    const changed = drawn.find((frame) => frame.some((line) => line.includes('up→paused')))!;
    const row = changed.find((line) => line.startsWith(up))!;
    expect(row).toContain('\u001b[7mpaused\u001b[27m');
    expect(row.replace(SGR, '')).toMatch(/paused +up→paused \d\d:\d\d:\d\d +\d+s ago +\d+ms +▄▄+/);
    const lastRow = drawn.at(-1)!.find((line) => line.startsWith(up))!;
    expect(lastRow).toContain('\u001b[2mpaused\u001b[22m');
    expect(lastRow).toContain('up→paused');
    for (const frame of drawn) for (const line of frame) expect(textWidth(line.replace(SGR, ''))).toBeLessThan(100);
    expect(output).not.toMatch(/Error|at .*\.js:\d+/);
  });

  it('redraws at a new size on a resize, marks a transition in words without color, and ends on SIGTERM (exit 0)', async () => {
    const up = await monitor('A monitor with a rather long name indeed', 'https://resize.example.com/health');
    const pty = runInPty(['monitors', 'watch', up, '--every', '1s'], {
      env: { ...f.env, NO_COLOR: '1' },
      columns: 100,
      rows: 30,
    });
    await pty.waitFor(/Every 1s: 1 monitor \(1 up\)/);
    pty.resize(50, 10);
    const before = pty.output().length;
    await pty.waitFor(/\u001b\[2J[^]*\u001b\[J/, before);
    expect((await f.cpk(['monitors', 'update', up, '--set', 'paused=true'])).code).toBe(0);
    await pty.waitFor(/paused \(was up\)/, before);
    pty.signal('TERM');
    const { code, output } = await pty.done;
    expect(code).toBe(0);
    expect(output).not.toMatch(SGR);
    const resized = frames(output.slice(before));
    for (const frame of resized) {
      expect(frame.length).toBeLessThan(10);
      for (const line of frame) expect(textWidth(line)).toBeLessThan(50);
    }
    const last = resized.at(-1)!;
    expect(last[0]).toMatch(/^Every 1s: 1 monitor \(1 paused\)/);
    expect(last.find((line) => line.startsWith('mon_'))).toMatch(/paused \(was up\)/);
    expect(output.slice(output.lastIndexOf('\u001b[?25h'))).toBe('\u001b[?25h');
  });
});
