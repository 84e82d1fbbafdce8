/* eslint-disable no-control-regex -- the test is about what reaches a terminal */
// The live board of `cpk monitors watch` (src/output/board.ts): which fields
// it reads in a monitor whose shape the service does not show, and frames that
// fit the terminal whatever the data.
import { describe, expect, it } from 'vitest';
import { boardLines, lastCheckOf, latencyOf, type BoardRow, type BoardView } from '../../src/output/board.js';
import { colorPalette, PLAIN } from '../../src/output/palette.js';
import { textWidth, truncate } from '../../src/output/text.js';
import { parseMonitorsWatchOptions } from '../../src/commands/monitors/watch.js';
import { UsageError } from '../../src/core/errors.js';

/** cpk's colors as chalk draws them on a 16-color terminal. */
const COLORS = await colorPalette(1);

const NOW = Date.parse('2026-11-23T19:00:00Z');
const plain = (line: string) => line.replace(/\u001b\[[0-9;]*m/g, '');

function row(over: Partial<BoardRow> = {}): BoardRow {
  return {
    id: 'mon_1',
    name: 'api',
    status: 'up',
    fresh: false,
    lastCheck: '2026-11-23T18:59:30Z',
    latency: 120,
    latencyPath: 'last_check.latency_ms',
    history: [100, 140, 120],
    ...over,
  };
}

function view(over: Partial<BoardView> = {}): BoardView {
  return { width: 100, now: NOW, paint: PLAIN, color: false, ...over };
}

describe('what the board reads in a monitor', () => {
  it.each([
    [{ last_check: { status: 'up', latency_ms: 143, checked_at: '2026-11-23T18:00:00Z' } }, 'last_check.latency_ms'],
    [{ avg_latency_ms: 9, last_check: { latency_ms: 143 } }, 'last_check.latency_ms'],
    [{ avg_latency_ms: 9 }, 'avg_latency_ms'],
    [{ response_time: 12.5 }, 'response_time'],
    [{ probe: { rtt_ms: 3 } }, 'probe.rtt_ms'],
    [{ last_check: { latency_ms: null } }, undefined],
    [{ latency_ms: '143' }, undefined],
    [{ name: 'no numbers', interval_seconds: 60 }, undefined],
    [null, undefined],
  ])('latency of %j is read at %s', (monitor, path) => {
    expect(latencyOf(monitor).path).toBe(path);
    if (path === undefined) expect(latencyOf(monitor)).toEqual({ value: null, path: undefined });
    else expect(typeof latencyOf(monitor).value).toBe('number');
  });

  it('the last check is the first timestamp whose path says check', () => {
    expect(
      lastCheckOf({ created_at: '2026-01-01T00:00:00Z', last_check: { checked_at: '2026-11-23T18:00:00Z' } }),
    ).toBe('2026-11-23T18:00:00Z');
    expect(lastCheckOf({ last_checked_at: '2026-11-23T18:00:00Z' })).toBe('2026-11-23T18:00:00Z');
    expect(lastCheckOf({ created_at: '2026-01-01T00:00:00Z', last_check: null })).toBeNull();
  });
});

describe('board frames', () => {
  it('a row per monitor: status, last transition, age of the last check, latency and its sparkline', () => {
    const lines = boardLines(
      'head',
      [
        row(),
        row({ id: 'mon_2', name: 'web', status: 'down', latency: null, latencyPath: undefined, history: [null, null] }),
      ],
      [],
      view(),
    );
    expect(lines).toEqual([
      'head',
      'ID     NAME  STATUS  CHANGED  LAST CHECK  LATENCY  TREND',
      'mon_1  api   up      -        30s ago     120ms    ▁█▅',
      'mon_2  web   down    -        30s ago     -',
    ]);
  });

  it('a fresh transition: inverse video with color, `(was up)` without', () => {
    const transition = { from: 'up', to: 'down', at: NOW - 5_000 };
    const fresh = row({ status: 'down', transition, fresh: true });
    const colored = boardLines('h', [fresh], [], view({ paint: COLORS, color: true }));
    expect(colored[2]).toContain(COLORS.changed('down'));
    const bare = boardLines('h', [fresh], [], view());
    expect(bare[2]).toMatch(/^mon_1 {2}api +down \(was up\) {2}up→down \d\d:\d\d:\d\d/);
    const old = boardLines('h', [{ ...fresh, fresh: false }], [], view({ paint: COLORS, color: true }));
    expect(old[2]).toContain(COLORS.bad('down'));
  });

  it('fits any width: rows are cut, never wrapped, and the sparkline gives way first', () => {
    const rows = Array.from({ length: 4 }, (_, i) =>
      row({
        id: `mon_${'x'.repeat(30)}${i}`,
        name: `a very long monitor name ${'y'.repeat(40)}`,
        history: Array(150).fill(1),
      }),
    );
    for (const width of [20, 40, 60, 79, 120, 200]) {
      const lines = boardLines(`header ${'z'.repeat(300)}`, rows, ['warning: a note '.repeat(20)], view({ width }));
      expect(lines).toHaveLength(1 + 1 + rows.length + 1);
      for (const line of lines) expect(textWidth(plain(line))).toBeLessThanOrEqual(width);
    }
    const wide = boardLines('h', rows, [], view({ width: 200 }));
    expect(wide[2]).toMatch(/▄{5,}$/);
  });

  it('at 80 columns and down to 60: TREND and LATENCY drop before CHANGED and ID; ids and change times are never cut', () => {
    const transition = { from: 'up', to: 'paused', at: NOW - 5_000 };
    const rows = [
      row({ id: 'mon_yrhwxbg45iq2', name: 'Checkout service', history: Array(60).fill(5) }),
      row({ id: 'mon_7titezwawoei', name: 'Status page (public)', status: 'paused', transition, history: [1, 2] }),
    ];
    for (const width of [60, 64, 79]) {
      const lines = boardLines('h', rows, [], view({ width, paint: COLORS, color: true }));
      expect(plain(lines[1]!)).not.toMatch(/TREND/);
      if (width < 64) expect(plain(lines[1]!)).not.toMatch(/LATENCY/);
      expect(plain(lines[1]!)).toMatch(/^ID +NAME +STATUS +CHANGED/);
      expect(lines[2]).toContain(COLORS.ok('up'));
      expect(lines[3]).toContain(COLORS.dim('paused'));
      expect(plain(lines[2]!)).toMatch(/^mon_yrhwxbg45iq2 {2}/);
      expect(plain(lines[3]!)).toMatch(/^mon_7titezwawoei {2}.*up→paused \d\d:\d\d:\d\d/);
      for (const line of lines) expect(textWidth(plain(line))).toBeLessThanOrEqual(width);
    }
    const wide = boardLines('h', rows, [], view({ width: 200 }));
    expect(wide[1]).toMatch(/LATENCY +TREND$/);
  });

  it('keeps its column widths between frames: a shorter value does not move the columns', () => {
    const widths: number[] = [];
    const long = boardLines('h', [row({ name: 'a rather long name' })], [], view({ width: 120, widths }));
    const short = boardLines('h', [row({ name: 'api' })], [], view({ width: 120, widths }));
    expect(short[1]).toBe(long[1]);
    expect(short[2]!.indexOf('up')).toBe(long[2]!.indexOf('up'));
  });

  it('fits the height: rows beyond it are counted on one line, notes kept', () => {
    const rows = Array.from({ length: 50 }, (_, i) => row({ id: `mon_${i}` }));
    const lines = boardLines('h', rows, ['warning: mon_3: down for maintenance'], view({ height: 12 }));
    expect(lines).toHaveLength(11);
    expect(lines[9]).toBe('… 43 more (a taller terminal shows them)');
    expect(lines[10]).toBe('warning: mon_3: down for maintenance');
  });

  it('lists a few notes and counts the rest, so that a network outage does not fill the screen', () => {
    const notes = Array.from({ length: 40 }, (_, i) => `warning: mon_${i}: connection refused`);
    const lines = boardLines('h', [row()], notes, view({ height: 20 }));
    expect(lines.slice(3)).toEqual([
      'warning: mon_0: connection refused',
      'warning: mon_1: connection refused',
      'warning: mon_2: connection refused',
      'warning: mon_3: connection refused',
      '… and 36 more polls failed',
    ]);
  });

  it('strips what a server could send to the terminal, and a monitor without a numeric field draws no sparkline', () => {
    const lines = boardLines(
      'h',
      [row({ name: 'evil\u001b[2J\u001b]0;t\u0007', history: [null], latency: null })],
      [],
      view(),
    );
    expect(lines.join('\n')).not.toMatch(/[\u001b\u0007]/);
    expect(lines[2]?.trimEnd()).toMatch(/^mon_1 {2}evil/);
  });

  it('truncate cuts to a width in cells with an ellipsis', () => {
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('abc', 3)).toBe('abc');
    expect(truncate('日本語テキスト', 5)).toBe('日本…');
    expect(truncate('abc', 0)).toBe('');
  });
});

describe('monitors watch options', () => {
  it('parses ids, --all, --every (default 30s) and --concurrency strictly', () => {
    expect(parseMonitorsWatchOptions(['a', 'b', 'a'], {})).toEqual({
      ids: ['a', 'b'],
      all: false,
      everySeconds: 30,
      concurrency: 8,
    });
    expect(parseMonitorsWatchOptions([], { all: true, every: '5s', concurrency: '2' })).toEqual({
      ids: [],
      all: true,
      everySeconds: 5,
      concurrency: 2,
    });
    expect(() => parseMonitorsWatchOptions([], {})).toThrow(UsageError);
    expect(() => parseMonitorsWatchOptions(['a'], { all: true })).toThrow('give monitor ids or --all, not both');
    expect(() => parseMonitorsWatchOptions(['a'], { every: '0' })).toThrow(
      'invalid --every "0": must be more than 0 seconds',
    );
    expect(() => parseMonitorsWatchOptions(['a'], { every: 'soon' })).toThrow(UsageError);
    expect(() => parseMonitorsWatchOptions(['a'], { concurrency: '0' })).toThrow(UsageError);
  });
});

describe('the board at 120 columns, with long names and joined emoji', () => {
  it('cuts a long name before it drops TREND, as the docs say', () => {
    const long = 'checkout service in production behind the eu-west lb'; // 54 cells, as seen
    const history = Array.from({ length: 40 }, (_, i) => 100 + (i % 7) * 10);
    const transition = { from: 'down', to: 'up', at: NOW - 60_000 };
    const rows = [
      row({ id: 'mon_yrhwxbg45iq2', name: long, history, transition, latency: 1234 }),
      row({ id: 'mon_7titezwawoei', history }),
    ];
    const lines = boardLines('header', rows, [], view({ width: 120 }));
    expect(lines[1]).toMatch(/^ID +NAME +STATUS +CHANGED +LAST CHECK +LATENCY +TREND$/);
    expect(lines[2]).toMatch(/^mon_yrhwxbg45iq2 {2}checkout service[^ ]* .*…/);
    expect(lines[2]).not.toContain(long);
    expect(lines[2]).toMatch(/[▁▂▃▄▅▆▇█]{5,}$/);
    for (const line of lines) expect(textWidth(line)).toBeLessThanOrEqual(120);
  });

  it('a family emoji (a ZWJ sequence) is two cells: the columns after it line up', () => {
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
    expect(textWidth(family)).toBe(2);
    expect(textWidth(`a${family}b`)).toBe(4);
    // Cut and wrapped between clusters, never inside one.
    expect(truncate(`${family}${family}${family}`, 5)).toBe(`${family}${family}…`);
    const lines = boardLines('h', [row({ name: `team ${family}` }), row({ id: 'mon_2', name: 'team ab' })], [], view());
    const statusAt = (line: string) => textWidth(line.slice(0, line.indexOf('up')));
    expect(statusAt(lines[2]!)).toBe(statusAt(lines[3]!));
  });
});
