// `reports get --watch` run in-process against an emulator, with the pause
// between refreshes replaced by scripted steps (no timers, no timing).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { startEmulator, type Emulator } from '../../src/emulator/server.js';
import { Context } from '../../src/cli/context.js';
import { parseGlobals } from '../../src/cli/globals.js';
import { changedRows, watchReport } from '../../src/commands/reports/watch.js';
import { comparable } from '../../src/cli/watch.js';
import { parseReportGetOptions } from '../../src/commands/reports/get.js';
import { ApiError, UsageError } from '../../src/core/errors.js';
import type { IO } from '../../src/core/io.js';
import { parseJson, type JsonObject } from '../../src/core/json.js';

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emu?.close();
});

async function call(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${emu.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${emu.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.status === 204 ? {} : ((await res.json()) as Record<string, unknown>);
}

async function newReport(): Promise<{ monitor: string; report: string }> {
  const created = await call('POST', '/monitors', { name: 'watched', target: 'https://watched.example.com' });
  const monitor = created.id as string;
  return { monitor, report: `rpt_${monitor.slice('mon_'.length)}` };
}

/**
 * Watches `report` with a fake IO. Each pause runs the next step; when the
 * steps run out the watch ends as on Ctrl-C.
 */
async function watch(
  report: string,
  options: { tty: boolean; env?: Record<string, string>; steps: Array<() => unknown> },
) {
  let stdout = '';
  let stderr = '';
  const io: IO = {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    stdin: Readable.from([]),
    stdinIsTTY: false,
    stdoutIsTTY: options.tty,
    stderrIsTTY: options.tty,
    stdoutColumns: options.tty ? 100 : undefined,
    env: { CPK_BASE_URL: emu.baseUrl, CPK_TOKEN: emu.token, TERM: 'xterm-256color', ...options.env },
  };
  const ctx = new Context(io, parseGlobals({}));
  const steps = [...options.steps];
  let refreshes = 0;
  const pause = async () => {
    refreshes++;
    const step = steps.shift();
    if (!step) return false;
    await step();
    return true;
  };
  try {
    const error = await watchReport({ id: report, everyMs: 1000 }, ctx, {
      pause,
      now: () => new Date(2030, 0, 1, 12, 0, 0),
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    return { stdout, stderr, error, refreshes };
  } finally {
    await ctx.close();
  }
}

const CLEAR = '\u001b[H\u001b[2J';
/** Each frame of a live view starts by going home (the first also clears the screen). */
const HOME = '\u001b[H';

describe('reports get --watch on a terminal', () => {
  it('redraws the table in place and highlights what changed since the last refresh', async () => {
    const { monitor, report } = await newReport();
    const r = await watch(report, {
      tty: true,
      steps: [() => call('PATCH', `/monitors/${monitor}`, { paused: true }), () => {}],
    });
    expect(r.error).toBeUndefined();
    // Drawn in place: the screen cleared once, then each refresh over the last (the cursor hidden first).
    expect(r.stdout.split(CLEAR)).toHaveLength(2);
    const screens = r.stdout.split(HOME);
    expect(screens).toHaveLength(4);
    expect(screens[0]).toBe('\u001b[?25l');
    expect(screens[1]).not.toContain('\u001b[7m');
    // eslint-disable-next-line no-control-regex
    expect(screens[1]).toMatch(/monitor_status\S*\s+│ \u001b\[33mpending\u001b\[39m/); // a status is colored
    // Inverse video on the value that changed, and on nothing else (generated_at changes on every fetch).
    // eslint-disable-next-line no-control-regex
    expect(screens[2]!.match(/\u001b\[7m[^\u001b]*\u001b\[27m/g)).toEqual(['\u001b[7mpaused\u001b[27m']);
    expect(screens[3]).not.toContain('\u001b[7m');
    // What the frame is and when it was drawn heads it, on stdout: a line on stderr would scroll the frame away.
    for (const screen of screens.slice(1))
      expect(screen).toContain(`Report ${report}, refreshed at 12:00:00, every 1s`);
    expect(r.stderr).toBe('');
  });

  it('without color marks a change with the old value, and a dumb terminal gets no escape sequences', async () => {
    const { monitor, report } = await newReport();
    const r = await watch(report, {
      tty: true,
      env: { NO_COLOR: '1', TERM: 'dumb' },
      steps: [() => call('PATCH', `/monitors/${monitor}`, { paused: true })],
    });
    expect(r.error).toBeUndefined();
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stdout).toMatch(/^monitor_status {2,}pending$/m);
    expect(r.stdout).toMatch(/^monitor_status {2,}paused {2}\(was pending\)$/m);
    expect(r.stdout.match(/\(was /g)).toHaveLength(1);
  });

  it('a server failure after the first refresh is a warning, and the next refresh carries on', async () => {
    const { report } = await newReport();
    const r = await watch(report, {
      tty: true,
      steps: [
        () =>
          emu.injectFault({
            method: 'GET',
            path: `/v1/reports/${report}`,
            status: 503,
            times: 3,
            body: '{"error":"maintenance"}',
          }),
        () => {},
      ],
    });
    expect(r.error).toBeUndefined();
    expect(r.refreshes).toBe(3);
    expect(r.stdout.split(HOME)).toHaveLength(3); // two tables drawn; the failed refresh left the last one on screen
    expect(r.stderr).toContain('warning: refresh at 12:00:00 failed: maintenance; trying again in 1s\n');
  });

  it('a report that disappears ends the watch with not found (exit 6)', async () => {
    const { monitor, report } = await newReport();
    const r = await watch(report, { tty: true, steps: [() => call('DELETE', `/monitors/${monitor}`), () => {}] });
    expect(r.error).toBeInstanceOf(ApiError);
    expect((r.error as ApiError).exitCode).toBe(6);
    expect(r.refreshes).toBe(1);
  });

  it('a failure of the first refresh ends it at once, even a server error', async () => {
    const { report } = await newReport();
    emu.injectFault({ method: 'GET', path: `/v1/reports/${report}`, status: 503, times: 3 });
    const r = await watch(report, { tty: true, steps: [() => {}] });
    expect((r.error as ApiError).exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.refreshes).toBe(0);
  });
});

describe('reports get --watch off a terminal', () => {
  it('prints one compact JSON line per refresh that changed something', async () => {
    const { monitor, report } = await newReport();
    const r = await watch(report, {
      tty: false,
      steps: [
        () => {},
        () => call('PATCH', `/monitors/${monitor}`, { paused: true }),
        () => {},
        () => call('PATCH', `/monitors/${monitor}`, { paused: false }),
      ],
    });
    expect(r.error).toBeUndefined();
    expect(r.refreshes).toBe(5);
    const lines = r.stdout.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => JSON.parse(l).monitor_status)).toEqual(['pending', 'paused', 'pending']);
    expect(JSON.parse(lines[0]!)).toMatchObject({ id: report, monitor_id: monitor });
    expect(r.stderr).toBe('');
  });
});

describe('what counts as a change', () => {
  const base = { id: 'rpt_1', uptime_percent: 100, last: { status: 'up' }, generated_at: '2030-01-01T00:00:00Z' };

  it('generated_at alone is not a change; key order is not either', () => {
    expect(comparable({ ...base, generated_at: '2030-01-01T00:00:30Z' })).toBe(comparable(base));
    expect(comparable({ generated_at: 'x', last: { status: 'up' }, uptime_percent: 100, id: 'rpt_1' })).toBe(
      comparable(base),
    );
    expect(comparable({ ...base, uptime_percent: 99 })).not.toBe(comparable(base));
  });

  it('a number that differs past what a double holds is a change, at any depth', () => {
    const exact = (text: string) => parseJson(text).ok && (parseJson(text) as { value: JsonObject }).value;
    const a = exact('{"id":"rpt_1","channel":{"snowflake":1234567890123456789}}') as JsonObject;
    const b = exact('{"id":"rpt_1","channel":{"snowflake":1234567890123456788}}') as JsonObject;
    expect(comparable(a)).not.toBe(comparable(b));
    expect(comparable(a)).toBe(
      comparable(exact('{"channel":{"snowflake":1234567890123456789},"id":"rpt_1"}') as JsonObject),
    );
  });

  it('changed rows are the dotted keys whose text differs, with the old text', () => {
    expect(changedRows(undefined, base)).toEqual(new Map());
    const next = { ...base, uptime_percent: 87.5, last: { status: 'down' }, extra: 1, generated_at: 'later' };
    expect(changedRows(base, next)).toEqual(
      new Map([
        ['uptime_percent', '100'],
        ['last.status', 'up'],
        ['extra', ''],
      ]),
    );
  });
});

describe('--watch and --every', () => {
  it.each([
    [{}, undefined],
    [{ watch: true }, 30],
    [{ watch: true, every: '1m' }, 60],
    [{ watch: true, every: '5' }, 5],
  ])('%j -> %j seconds', (opts, seconds) => {
    expect(parseReportGetOptions(['rpt_1'], opts).watchSeconds).toBe(seconds);
  });

  it.each([
    [{ every: '5s' }, '--every only applies with --watch'],
    [{ watch: true, every: '0' }, 'invalid --every "0": must be more than 0 seconds'],
    [{ watch: true, every: '0s' }, 'invalid --every "0s": must be more than 0 seconds'],
    [{ watch: true, every: 'soon' }, 'invalid --every "soon": use seconds (60) or a duration such as 90s, 5m or 1h'],
  ])('%j is a usage error', (opts, message) => {
    expect(() => parseReportGetOptions(['rpt_1'], opts)).toThrow(new UsageError(message));
  });
});
