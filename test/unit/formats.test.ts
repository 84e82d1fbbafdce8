// Output formats (-o) and the table renderers, through Output with fake IO.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import type { IO } from '../../src/core/io.js';
import { Output, type OutputSettings } from '../../src/output/output.js';
import { parseColumns, parseFormat } from '../../src/output/format.js';
import { toYaml } from '../../src/output/yaml.js';
import { toJson } from '../../src/output/json.js';
import { ExactNumber } from '../../src/core/json.js';
import {
  age,
  cellText,
  defaultColumns,
  detailLines,
  PLAIN_VIEW,
  leafPaths,
  pathValue,
  rowLines,
  wideColumns,
  tableLines,
  type View,
} from '../../src/output/render.js';
import { PLAIN } from '../../src/output/palette.js';
import { markdownLines } from '../../src/output/markdown.js';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { padEnd, wrapText, textWidth } from '../../src/output/text.js';
import { InterruptedError, UsageError } from '../../src/core/errors.js';

const NOW = Date.parse('2026-11-22T19:05:00Z');

function output(settings: Partial<OutputSettings> = {}, io: Partial<IO> = {}) {
  let stdout = '';
  const fake: IO = {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: () => true },
    stdin: Readable.from([]),
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    env: {},
    ...io,
  };
  const out = new Output(fake, { json: false, colorFlag: true, debug: false, now: () => NOW, ...settings });
  return { out, stdout: () => stdout };
}

const monitors = [
  { id: 'mon_1', name: 'Checkout', type: 'http', target: 'https://a', interval_seconds: 60, status: 'up', tags: ['a'] },
  { id: 'mon_2', name: 'DB', type: 'tcp', target: 'db:5432', interval_seconds: 30, status: 'down', extra: { x: 1 } },
];

describe('-o and --columns', () => {
  it.each([
    [{}, 'table'],
    [{ json: true }, 'json'],
    [{ query: 'id' }, 'json'],
    [{ output: 'yaml' }, 'yaml'],
    [{ output: 'YML' }, 'yaml'],
    [{ output: 'jsonl', query: 'id' }, 'jsonl'],
    [{ output: 'md' }, 'markdown'],
    [{ output: 'json', json: true }, 'json'],
  ])('%j -> %s', (raw, format) => {
    expect(parseFormat(raw)).toBe(format);
  });

  it.each([[{ output: 'xml' }], [{ output: 'yaml', json: true }], [{ output: 'table', query: 'id' }]])(
    '%j is a usage error',
    (raw) => {
      expect(() => parseFormat(raw)).toThrow(UsageError);
    },
  );

  it('--columns takes dotted paths; an empty one is a usage error', () => {
    expect(parseColumns('id, last_check.status')).toEqual(['id', 'last_check.status']);
    expect(() => parseColumns('id,,name')).toThrow(UsageError);
    expect(() => parseColumns('last_check.')).toThrow(UsageError);
  });
});

describe('rows for several items', () => {
  it('default columns: id, name, status, type, target, interval where present', async () => {
    const { out, stdout } = output({ colorFlag: false }, { stdoutIsTTY: true, stdoutColumns: 120 });
    await out.printList(monitors);
    expect(stdout()).toBe(
      [
        'ID     NAME      STATUS  TYPE  TARGET     INTERVAL',
        'mon_1  Checkout  up      http  https://a  1m',
        'mon_2  DB        down    tcp   db:5432    30s',
        '',
      ].join('\n'),
    );
  });

  it('default columns of items with none of the usual fields are their plain fields', () => {
    expect(defaultColumns([{ kind: 'email', to: 'x' }])).toEqual(['kind', 'to']);
  });

  it('--columns picks dotted paths, a missing value shows as -', async () => {
    const { out, stdout } = output({ columns: ['id', 'extra.x', 'tags'] });
    await out.printList(monitors);
    expect(stdout()).toBe(['mon_1\t-\ta', 'mon_2\t1\t-', ''].join('\n'));
  });

  it('-o wide shows every leaf field', async () => {
    const { out, stdout } = output({ format: 'wide', colorFlag: false }, { stdoutIsTTY: true, stdoutColumns: 40 });
    await out.printList(monitors);
    expect(stdout().split('\n')[0]).toBe('ID     NAME      TYPE  TARGET     INTERVAL  STATUS  TAGS  EXTRA.X');
  });

  it('-o wide shows a field that is an object in one item and null in another once, as its dotted paths', () => {
    const items = [
      { id: 'mon_1', last_check: null, tags: [] },
      { id: 'mon_2', last_check: { status: 'up', latency_ms: 12 }, tags: [] },
    ];
    expect(wideColumns(items)).toEqual(['id', 'last_check.status', 'last_check.latency_ms', 'tags']);
    expect(wideColumns([{ id: 'a', last_check: null }])).toEqual(['id', 'last_check']);
  });

  it('status is colored on a terminal (up green, down red, paused dim), never off one', async () => {
    const tty = output({}, { stdoutIsTTY: true, env: { TERM: 'xterm' } });
    await tty.out.printList([...monitors, { id: 'mon_3', status: 'paused' }]);
    expect(tty.stdout()).toContain('\u001b[32mup\u001b[39m');
    expect(tty.stdout()).toContain('\u001b[31mdown\u001b[39m');
    expect(tty.stdout()).toContain('\u001b[2mpaused\u001b[22m');
    const plain = output({}, { stdoutIsTTY: false });
    await plain.out.printList(monitors);
    expect(plain.stdout()).not.toContain('\u001b');
  });

  it('every format prints each page as it is added, and the whole is what one print of the list writes', async () => {
    const pages = [[{ id: 'a', n: [1, { deep: true }] }, { id: 'b' }], [{ id: 'c', name: 'x\u2028y' }]];
    const all = pages.flat();
    for (const [format, whole] of [
      ['jsonl', all.map((m) => `${toJson(m, 0)}\n`).join('')],
      ['json', `${toJson(all, 2)}\n`],
      ['yaml', toYaml(all)],
    ] as const) {
      const o = output({ json: true, format });
      const list = o.out.list();
      await list.add(pages[0]!);
      // The first page is out before the second is added.
      const [a, c] = format === 'yaml' ? ['id: a', 'id: c'] : ['"a"', '"c"'];
      expect(o.stdout(), format).toContain(a);
      expect(o.stdout(), format).not.toContain(c);
      expect(whole.startsWith(o.stdout()), format).toBe(true);
      await list.add(pages[1]!);
      await list.end();
      expect(o.stdout(), format).toBe(whole);
    }
    for (const [format, empty] of [
      ['json', '[]\n'],
      ['yaml', '[]\n'],
      ['jsonl', ''],
    ] as const) {
      const o = output({ json: true, format });
      const list = o.out.list();
      await list.add([]);
      await list.end();
      expect(o.stdout(), format).toBe(empty);
    }
  });

  it('a table in pages: the first page sets columns and widths, the header comes once (as kubectl prints chunks)', async () => {
    const first = [
      { id: 'mon_1', name: 'alpha', status: 'up' },
      { id: 'mon_22', name: 'beta', status: 'down' },
    ];
    const second = [
      { id: 'mon_3', name: 'g', status: 'up', target: 'not a column: the first page had none' },
      { id: 'mon_4444444', name: 'a much longer name than any before', status: 'paused' },
    ];
    const off = output({ colorFlag: false });
    const list = off.out.list();
    await list.add(first);
    expect(off.stdout()).toBe('mon_1\talpha\tup\nmon_22\tbeta\tdown\n');
    await list.add(second);
    await list.end();
    // Off a terminal nothing is cut nor padded: tab-separated fields, as gh prints for a script.
    expect(off.stdout().split('\n').slice(2)).toEqual([
      'mon_3\tg\tup',
      'mon_4444444\ta much longer name than any before\tpaused',
      '',
    ]);
    // On a terminal, later pages keep the fitted widths: text is cut to them, an id never.
    const tty = output({ colorFlag: false }, { stdoutIsTTY: true, stdoutColumns: 40, env: { TERM: 'xterm' } });
    const onTty = tty.out.list();
    await onTty.add(first);
    await onTty.add(second);
    await onTty.end();
    expect(tty.stdout().split('\n')).toEqual([
      'ID      NAME   STATUS',
      'mon_1   alpha  up',
      'mon_22  beta   down',
      // Within a page the rows line up with each other: its id, never cut, widens its column.
      'mon_3        g      up',
      'mon_4444444  a mu…  paused',
      '',
    ]);
    // Markdown: the first page's fields are the columns, the header once.
    const md = output({ format: 'markdown' });
    const mdList = md.out.list();
    await mdList.add(first);
    await mdList.add(second);
    await mdList.end();
    expect(md.stdout().split('\n')).toEqual([
      '| id | name | status |',
      '|---|---|---|',
      '| mon_1 | alpha | up |',
      '| mon_22 | beta | down |',
      '| mon_3 | g | up |',
      '| mon_4444444 | a much longer name than any before | paused |',
      '',
    ]);
  });

  it('--query applies to each line of jsonl and to the document of yaml', async () => {
    const jsonl = output({ json: true, format: 'jsonl' });
    jsonl.out.query = (v) => (v as { id: string }).id;
    await jsonl.out.printList([{ id: 'a' }, { id: 'b' }]);
    expect(jsonl.stdout()).toBe('a\nb\n');
    const yaml = output({ json: true, format: 'yaml' });
    yaml.out.query = (v) => (v as Array<{ id: string }>).map((m) => ({ i: m.id }));
    await yaml.out.printList([{ id: 'a' }]);
    expect(yaml.stdout()).toBe('- i: a\n');
  });
});

describe('yaml', () => {
  it('reads back as the same value (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const normal = JSON.parse(JSON.stringify(value)) as unknown;
        expect(parseYaml(toYaml(normal))).toEqual(normal);
      }),
      { numRuns: 300 },
    );
  });

  it('quotes what a reader would take for something else', () => {
    expect(
      toYaml({ a: 'yes', b: '1', c: 'x: y', d: '', e: ' lead', f: 'plain words', g: 'https://x/y', h: ['no', 'null'] }),
    ).toBe('a: "yes"\nb: "1"\nc: "x: y"\nd: ""\ne: " lead"\nf: plain words\ng: https://x/y\nh:\n- "no"\n- "null"\n');
    expect(toYaml({ list: [{ a: 1, b: [] }, [1, 2]], o: {} })).toBe('list:\n- a: 1\n  b: []\n- - 1\n  - 2\no: {}\n');
    expect(toYaml({ a: '0o17', b: '1:20' })).toBe('a: "0o17"\nb: "1:20"\n');
  });

  it('writes what a terminal could act on as escapes, in values and keys, and reads back the same', () => {
    const value = { name: 'a\u009b31mb\u202ec', 'k\u2028ey': ['\u007f'] };
    const text = toYaml(value);
    expect(text).toBe('name: "a\\u009b31mb\\u202ec"\n"k\\u2028ey":\n- "\\u007f"\n');
    expect(parseYaml(text)).toEqual(value);
  });

  it('writes an exact number as the server wrote it', () => {
    const text = toYaml({ big: new ExactNumber('12345678901234567890'), price: new ExactNumber('1.50') });
    expect(text).toBe('big: 12345678901234567890\nprice: 1.50\n');
  });
});

describe('detail tables', () => {
  const report = {
    id: 'rpt_1',
    tags: ['a,b', 'c', ''],
    none: [],
    nothing: null,
    empty: {},
    last_check: { status: 'up', latency_ms: 120 },
    incidents: [
      { start: '2026-11-22T18:00:00Z', end: '2026-11-22T18:05:00Z', duration_s: 300, cause: 'timeout' },
      { start: '2026-11-22T19:00:00Z', end: null, duration_s: null, cause: 'HTTP 503' },
    ],
  };

  it('keeps the boundaries of lists, tells [] from null, and puts a list of objects in a sub-table', async () => {
    const { out, stdout } = output();
    await out.print(report);
    expect(stdout()).toBe(
      [
        'id                     rpt_1',
        'tags                   "a,b", c, ""',
        'none                   []',
        'nothing                -',
        'empty                  {}',
        'last_check.status      up',
        'last_check.latency_ms  120',
        'incidents:',
        '  START                 END                   DURATION_S  CAUSE',
        '  2026-11-22T18:00:00Z  2026-11-22T18:05:00Z  300         timeout',
        '  2026-11-22T19:00:00Z  -                     -           HTTP 503',
        '',
      ].join('\n'),
    );
  });

  it('monitors get at 80x24: no line between rows when a value wraps, id and name on top, a URL whole', async () => {
    const monitor = {
      id: 'mon_yrhwxbg45iq2',
      name: 'Checkout service in production, behind the eu-west load balancer',
      type: 'http',
      target: 'https://checkout.example.com/health/deep?region=eu-west-1',
      interval_seconds: 60,
      paused: false,
      status: 'up',
      created_at: '2026-11-22T18:00:00Z',
      updated_at: '2026-11-22T18:00:00Z',
      last_check: { status: 'up', latency_ms: 132, checked_at: '2026-11-22T19:04:00Z' },
      report_id: 'rpt_yrhwxbg45iq2',
    };
    const { out, stdout } = output(
      { colorFlag: false },
      { stdoutIsTTY: true, stdoutColumns: 80, env: { TERM: 'xterm' } },
    );
    await out.print(monitor);
    const lines = stdout().trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(24);
    for (const line of lines) expect(textWidth(line)).toBeLessThanOrEqual(80);
    expect(lines.filter((line) => line.startsWith('├'))).toEqual([]);
    expect(lines[1]).toMatch(/^│ id +│ mon_yrhwxbg45iq2 +│$/);
    expect(lines[2]).toMatch(/^│ name +│ Checkout service/);
    expect(stdout()).toContain(`│ ${monitor.target} │`);
    // A dotted key gives way at its dot.
    expect(stdout()).toMatch(/│ last_check\. +│ 2026-11-22 19:04 UTC \(1m ago\) +│\n│ checked_at +│ +│/);
  });

  it('an exact number is a value as the server wrote it, alone, in a list and nested', async () => {
    const big = new ExactNumber('12345678901234567890');
    const { out, stdout } = output();
    await out.print({ big, list: [big, 1], nested: [{ n: big }, [big]] });
    await out.printList([{ id: 'a', big }]);
    expect(stdout()).toBe(
      [
        'big     12345678901234567890',
        'list    12345678901234567890, 1',
        'nested  [{"n":12345678901234567890},[12345678901234567890]]',
        'a\t12345678901234567890',
        '',
      ].join('\n'),
    );
  });

  it('on a terminal, timestamps show their age; off one they print as sent', async () => {
    const { out, stdout } = output({ colorFlag: false }, { stdoutIsTTY: true });
    await out.print({ at: '2026-11-22T19:02:00Z', later: '2026-11-22T19:02:00.5+00:00' });
    expect(stdout()).toBe(
      [
        '┌───────┬───────────────────────────────┐',
        '│ at    │ 2026-11-22 19:02 UTC (3m ago) │',
        '│ later │ 2026-11-22 19:02 UTC (2m ago) │',
        '└───────┴───────────────────────────────┘',
        '',
      ].join('\n'),
    );
    expect(age(-5000)).toBe('in 5s');
    expect(age(3 * 86_400_000)).toBe('3d ago');
    expect([age(59_999), age(91 * 60_000), age(120 * 60_000), age(121 * 60_000), age(47.9 * 3_600_000)]).toEqual([
      '59s ago',
      '1h31m ago',
      '2h ago',
      '2h1m ago',
      '47h ago',
    ]);
  });

  it('wraps a long value inside its own column at 80 columns', async () => {
    const { out, stdout } = output({ colorFlag: false }, { stdoutIsTTY: true, stdoutColumns: 80 });
    const long = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    await out.print({ id: 'x', description: long, url: `https://example.com/${'p'.repeat(150)}` });
    const lines = stdout().trimEnd().split('\n');
    for (const line of lines) expect(textWidth(line)).toBeLessThanOrEqual(80);
    // On a terminal the fields are a bordered table: a wrapped value goes on under its own first line.
    const continuation = lines.filter((l) => /^│ +│/.test(l));
    expect(continuation.length).toBeGreaterThan(3);
    for (const line of continuation) expect(line).toMatch(/^│ {13}│ \S/);
    const values = lines.filter((l) => l.startsWith('│')).map((l) => (l.split('│')[2] as string).trim());
    expect(values.join(' ')).toContain(long);
  });

  it('a terminal that says it has 0 columns (a pty nobody sized) wraps at COLUMNS, else 80', async () => {
    const long = 'x '.repeat(100).trim();
    for (const [env, width] of [
      [{}, 80],
      [{ COLUMNS: '60' }, 60],
    ] as const) {
      const { out, stdout } = output({ colorFlag: false }, { stdoutIsTTY: true, stdoutColumns: 0, env });
      await out.print({ v: long });
      const lines = stdout().trimEnd().split('\n');
      const widest = Math.max(...lines.map((l) => l.length));
      expect(widest).toBeLessThanOrEqual(width);
      expect(widest).toBeGreaterThan(width - 3);
    }
  });

  it('on a terminal, a numeric series is a sparkline and a percentage a bar', async () => {
    const { out, stdout } = output({ colorFlag: false }, { stdoutIsTTY: true });
    await out.print({
      uptime_percent: 50,
      latencies: [1, 2, 3, 8],
      hourly: [
        { hour: '2026-11-22T17:00:00Z', checks: 60, avg_ms: 100 },
        { hour: '2026-11-22T18:00:00Z', checks: 60, avg_ms: 300 },
      ],
    });
    expect(stdout()).toBe(
      [
        '┌────────────────┬────────────────────────────┐',
        '│ uptime_percent │ 50  ██████████··········   │',
        '│ latencies      │ ▁▂▃█  min 1  max 8  last 8 │',
        '└────────────────┴────────────────────────────┘',
        // 83 cells on one line: the span takes two at 80 columns, no timestamp broken.
        'hourly:  2 from 2026-11-22 17:00 UTC (2h5m ago)',
        '           to 2026-11-22 18:00 UTC (1h5m ago)',
        '  checks  ▄▄  min 60  max 60  last 60',
        '  avg_ms  ▁█  min 100  max 300  last 300',
        '',
      ].join('\n'),
    );
  });

  it('-o markdown is a document: a field table, and a table per list of objects', async () => {
    const { out, stdout } = output({ format: 'markdown' });
    await out.print({ id: 'rpt_1', note: 'a|b', incidents: report.incidents }, { title: 'Report' });
    expect(stdout()).toBe(
      [
        '# Report rpt_1',
        '',
        '| field | value |',
        '|---|---|',
        '| id | rpt_1 |',
        '| note | a\\|b |',
        '',
        '## incidents',
        '',
        '| start | end | duration_s | cause |',
        '|---|---|---|---|',
        '| 2026-11-22T18:00:00Z | 2026-11-22T18:05:00Z | 300 | timeout |',
        '| 2026-11-22T19:00:00Z | - | - | HTTP 503 |',
        '',
      ].join('\n'),
    );
  });

  it('cellText and wrapText', () => {
    expect(cellText(['a, b', 'c'])).toBe('"a, b", c');
    expect(cellText([1, null, true])).toBe('1, -, true');
    expect(cellText([{ a: 1 }])).toBe('[{"a":1}]');
    expect(wrapText('aaaa bbbb cccc', 9)).toEqual(['aaaa bbbb', 'cccc']);
    expect(wrapText('x'.repeat(10), 4)).toEqual(['xxxx', 'xxxx', 'xx']);
  });
});

describe('size and interrupts', () => {
  it('an object of 200,000 fields renders as a table in linear time', async () => {
    const big: Record<string, number> = {};
    for (let i = 0; i < 200_000; i++) big[`field_${i}`] = i;
    const { out, stdout } = output();
    const started = Date.now();
    await out.print(big);
    // Quadratic rendering took minutes for this size; linear takes well under a second.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(stdout().split('\n')).toHaveLength(200_001);
  });

  it('on a terminal, an object too big for cli-table3 (50,000 fields) is written by the linear writer, unbordered', async () => {
    const big: Record<string, number> = {};
    for (let i = 0; i < 50_000; i++) big[`field_${i}`] = i;
    const { out, stdout } = output({ colorFlag: false }, { stdoutIsTTY: true, stdoutColumns: 80 });
    const started = Date.now();
    await out.print(big);
    // cli-table3 would take minutes (quadratic in rows); far above what the linear writer needs, only to catch that.
    expect(Date.now() - started).toBeLessThan(20_000);
    const lines = stdout().trimEnd().split('\n');
    expect(lines).toHaveLength(50_000);
    expect(lines[0]).toBe('field_0      0');
    expect(lines[49_999]).toBe('field_49999  49999');
  });

  it('a render checks for an interrupt between chunks of rows and stops with InterruptedError', async () => {
    const controller = new AbortController();
    let writes = 0;
    const { out } = output(
      { signal: controller.signal },
      {
        stdout: {
          write: () => {
            writes++;
            controller.abort(); // Ctrl-C arrives while the first chunk is written
            return true;
          },
        },
      },
    );
    const lines = Array.from({ length: 10_000 }, (_, i) => `row ${i}`);
    await expect(out.writeLines(lines)).rejects.toBeInstanceOf(InterruptedError);
    expect(writes).toBe(1);
  });
});

describe('renderers (pure)', () => {
  const plainTty: View = { tty: true, width: 80, now: NOW, paint: PLAIN };

  it('textWidth counts wide characters as two cells and combining marks as none; padEnd and wrapText use it', () => {
    expect(textWidth('abc')).toBe(3);
    expect(textWidth('日本')).toBe(4);
    expect(textWidth('e\u0301')).toBe(1);
    // Unicode's East Asian Width data, not a hand-kept list of ranges: emoji outside the first blocks are wide too.
    expect([textWidth('🚀'), textWidth('☕'), textWidth('🫠'), textWidth('a\u200db')]).toEqual([2, 2, 2, 2]);
    expect(wrapText('🚀🚀🚀', 4)).toEqual(['🚀🚀', '🚀']);
    expect(padEnd('日本', 6)).toBe('日本  ');
    expect(wrapText('日本語のテキスト', 6)).toEqual(['日本語', 'のテキ', 'スト']);
    expect(wrapText('', 5)).toEqual(['']);
  });

  it('tableLines: columns two spaces apart; with a width the widest column gives way and wraps in place', () => {
    const rows = [
      [{ text: 'KEY' }, { text: 'VALUE' }],
      [{ text: 'a' }, { text: 'one two three four five six' }],
    ];
    expect(tableLines(rows)).toEqual(['KEY  VALUE', 'a    one two three four five six']);
    expect(tableLines(rows, { indent: '  ', width: 20 })).toEqual([
      '  KEY  VALUE',
      '  a    one two three',
      '       four five six',
    ]);
  });

  it('pathValue finds dotted paths and keys that hold a dot; leafPaths lists leaves in first-seen order', () => {
    const item = { a: { b: 1 }, 'x.y': 2, c: [1, 2], e: {} };
    expect(pathValue(item, 'a.b')).toBe(1);
    expect(pathValue(item, 'x.y')).toBe(2);
    expect(pathValue(item, 'a.z')).toBeUndefined();
    expect([...leafPaths(item).keys()]).toEqual(['a.b', 'x.y', 'c', 'e']);
  });

  it('defaultColumns without any well-known field takes the first six scalar fields', () => {
    const items = [{ k1: 1, k2: [1], k3: 'x', k4: 1, k5: 2, k6: 3, k7: 4, k8: 5 }];
    expect(defaultColumns(items)).toEqual(['k1', 'k3', 'k4', 'k5', 'k6', 'k7']);
    // A few well-known fields (a report, a channel): filled up with status-like fields and percentages first.
    const report = { id: 'r', monitor_id: 'm', period: '24h', uptime_percent: 99, hourly: [], monitor_status: 'up' };
    expect(defaultColumns([report])).toEqual(['id', 'monitor_status', 'uptime_percent', 'monitor_id', 'period']);
    const channel = { id: 'c', name: 'n', kind: 'email', enabled: true, target: 't', events: ['down'] };
    expect(defaultColumns([channel])).toEqual(['id', 'name', 'target', 'kind', 'enabled']);
  });

  it('wraps a value into more lines than a call takes as arguments', () => {
    const lines = detailLines({ note: 'x'.repeat(4_000_000) }, { ...PLAIN_VIEW, width: 20 });
    expect(lines.length).toBeGreaterThan(250_000);
    expect(lines.every((l) => l.length <= 20)).toBe(true);
  });

  it('a percentage in a row gets a short bar on a terminal; a long series is averaged to fit the width', () => {
    expect(
      rowLines(
        [
          { id: 'a', uptime_percent: 100 },
          { id: 'b', uptime_percent: 87.25 },
          { id: 'c', uptime_percent: 0 },
        ],
        ['id', 'uptime_percent'],
        plainTty,
      ),
    ).toEqual(['ID  UPTIME_PERCENT', 'a   ██████████ 100', 'b   ████████▊· 87.25', 'c   ·········· 0']);
    const series = Array.from({ length: 1000 }, (_, i) => (i < 500 ? 0 : 10));
    const [line] = detailLines({ values: series }, plainTty);
    expect(line).toBe(`values  ${'▁'.repeat(20)}${'█'.repeat(20)}  min 0  max 10  last 10`);
  });

  it('a list of objects that is not a series over time stays a sub-table on a terminal', () => {
    const lines = detailLines({ rows: [{ n: 1 }, { n: 'x' }] }, plainTty);
    expect(lines).toEqual(['rows:', '  N', '  1', '  x']);
  });

  it('markdownLines of a list is one table; cells escape pipes and backslashes and are never empty', () => {
    expect(markdownLines([{ a: 'x|y', b: '' }, { a: 'c\\d' }])).toEqual([
      '| a | b |',
      '|---|---|',
      '| x\\|y |   |',
      '| c\\\\d | - |',
    ]);
  });
});

describe('a report as a picture', () => {
  // A report as the emulator once simulated it: 24 full hours and three incidents, frozen as data.
  const report = JSON.parse(readFileSync(resolve(import.meta.dirname, '../fixtures/report.json'), 'utf8')) as Record<
    string,
    unknown
  >;

  it('on an 80-column terminal: bars, sparklines per hourly field, the incidents as a sub-table', async () => {
    const { out, stdout } = output({ colorFlag: false }, { stdoutIsTTY: true, stdoutColumns: 80 });
    await out.print(report, { title: 'Report' });
    expect(stdout()).toMatchInlineSnapshot(`
      "┌────────────────────────────┬────────────────────────────────┐
      │ id                         │ rpt_abcdefgh2345               │
      │ monitor_id                 │ mon_abcdefgh2345               │
      │ period                     │ 24h                            │
      │ period_start               │ 2026-11-21 19:00 UTC (24h ago) │
      │ period_end                 │ 2026-11-22 19:00 UTC (5m ago)  │
      │ uptime_percent             │ 87.5  █████████████████▌··     │
      │ checks                     │ 288                            │
      │ failures                   │ 36                             │
      │ avg_latency_ms             │ 143                            │
      │ latency_percentiles_ms.p50 │ 132                            │
      │ latency_percentiles_ms.p90 │ 183                            │
      │ latency_percentiles_ms.p95 │ 191                            │
      │ latency_percentiles_ms.p99 │ 484                            │
      │ latency_percentiles_ms.max │ 828                            │
      │ monitor_status             │ up                             │
      │ generated_at               │ 2026-11-22 19:04 UTC (1m ago)  │
      └────────────────────────────┴────────────────────────────────┘
      hourly:  24 from 2026-11-21 19:00 UTC (24h ago)
                  to 2026-11-22 18:00 UTC (1h5m ago)
        checks          ▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄  min 12  max 12  last 12
        failures        ▁▁▁▁▃▂▁▁▁▁▅▅▁▁▁▁▂█▃▁▁▁▁▁  min 0  max 12  last 0
        avg_latency_ms  ▃▃▂▂▂▂▁▄▁▃▂▁▂▄▃▆▄ ▅▅▅█▄▃  min 99  max 231  last 143
        p95_latency_ms  ▁▁▁▁▁▃▁▅▁▄▁▁▁▄▁▆▂ ▂▂▂█▂▁  min 120  max 828  last 169
      incidents:
      ┌────────────────┬────────────────┬──────────┬───────────────┬───────────────┐
      │ START          │ END            │ DURATION │ FAILED_CHECKS │ CAUSE         │
      ├────────────────┼────────────────┼──────────┼───────────────┼───────────────┤
      │ 2026-11-21     │ 2026-11-22     │ 30m      │ 6             │ timeout after │
      │ 23:40 UTC (19h │ 00:10 UTC (18h │          │               │ 10s           │
      │ ago)           │ ago)           │          │               │               │
      ├────────────────┼────────────────┼──────────┼───────────────┼───────────────┤
      │ 2026-11-22     │ 2026-11-22     │ 1h5m     │ 13            │ timeout after │
      │ 05:30 UTC (13h │ 06:35 UTC (12h │          │               │ 10s           │
      │ ago)           │ ago)           │          │               │               │
      ├────────────────┼────────────────┼──────────┼───────────────┼───────────────┤
      │ 2026-11-22     │ 2026-11-22     │ 1h25m    │ 17            │ HTTP 503      │
      │ 11:55 UTC      │ 13:20 UTC      │          │               │               │
      │ (7h10m ago)    │ (5h45m ago)    │          │               │               │
      └────────────────┴────────────────┴──────────┴───────────────┴───────────────┘
      "
    `);
  });

  it('-o markdown: the fields, a sparkline per hourly field, then the tables', async () => {
    const { out, stdout } = output({ format: 'markdown' });
    await out.print(report, { title: 'Report' });
    expect(stdout()).toMatchInlineSnapshot(`
      "# Report rpt_abcdefgh2345

      | field | value |
      |---|---|
      | id | rpt_abcdefgh2345 |
      | monitor_id | mon_abcdefgh2345 |
      | period | 24h |
      | period_start | 2026-11-21T19:00:00.000Z |
      | period_end | 2026-11-22T19:00:00.000Z |
      | uptime_percent | 87.5 |
      | checks | 288 |
      | failures | 36 |
      | avg_latency_ms | 143 |
      | latency_percentiles_ms.p50 | 132 |
      | latency_percentiles_ms.p90 | 183 |
      | latency_percentiles_ms.p95 | 191 |
      | latency_percentiles_ms.p99 | 484 |
      | latency_percentiles_ms.max | 828 |
      | monitor_status | up |
      | generated_at | 2026-11-22T19:04:00.000Z |

      ## hourly

      - checks: \`▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄\` min 12  max 12  last 12
      - failures: \`▁▁▁▁▃▂▁▁▁▁▅▅▁▁▁▁▂█▃▁▁▁▁▁\` min 0  max 12  last 0
      - avg_latency_ms: \`▃▃▂▂▂▂▁▄▁▃▂▁▂▄▃▆▄ ▅▅▅█▄▃\` min 99  max 231  last 143
      - p95_latency_ms: \`▁▁▁▁▁▃▁▅▁▄▁▁▁▄▁▆▂ ▂▂▂█▂▁\` min 120  max 828  last 169

      | hour | checks | failures | avg_latency_ms | p95_latency_ms |
      |---|---|---|---|---|
      | 2026-11-21T19:00:00.000Z | 12 | 0 | 145 | 165 |
      | 2026-11-21T20:00:00.000Z | 12 | 0 | 130 | 159 |
      | 2026-11-21T21:00:00.000Z | 12 | 0 | 124 | 149 |
      | 2026-11-21T22:00:00.000Z | 12 | 0 | 116 | 136 |
      | 2026-11-21T23:00:00.000Z | 12 | 4 | 117 | 131 |
      | 2026-11-22T00:00:00.000Z | 12 | 2 | 127 | 336 |
      | 2026-11-22T01:00:00.000Z | 12 | 0 | 99 | 120 |
      | 2026-11-22T02:00:00.000Z | 12 | 0 | 154 | 484 |
      | 2026-11-22T03:00:00.000Z | 12 | 0 | 102 | 121 |
      | 2026-11-22T04:00:00.000Z | 12 | 0 | 131 | 379 |
      | 2026-11-22T05:00:00.000Z | 12 | 6 | 111 | 128 |
      | 2026-11-22T06:00:00.000Z | 12 | 7 | 107 | 127 |
      | 2026-11-22T07:00:00.000Z | 12 | 0 | 119 | 143 |
      | 2026-11-22T08:00:00.000Z | 12 | 0 | 159 | 391 |
      | 2026-11-22T09:00:00.000Z | 12 | 0 | 140 | 159 |
      | 2026-11-22T10:00:00.000Z | 12 | 0 | 186 | 671 |
      | 2026-11-22T11:00:00.000Z | 12 | 1 | 149 | 186 |
      | 2026-11-22T12:00:00.000Z | 12 | 12 | - | - |
      | 2026-11-22T13:00:00.000Z | 12 | 4 | 168 | 196 |
      | 2026-11-22T14:00:00.000Z | 12 | 0 | 166 | 197 |
      | 2026-11-22T15:00:00.000Z | 12 | 0 | 167 | 195 |
      | 2026-11-22T16:00:00.000Z | 12 | 0 | 231 | 828 |
      | 2026-11-22T17:00:00.000Z | 12 | 0 | 160 | 185 |
      | 2026-11-22T18:00:00.000Z | 12 | 0 | 143 | 169 |

      ## incidents

      | start | end | duration_seconds | failed_checks | cause |
      |---|---|---|---|---|
      | 2026-11-21T23:40:00.000Z | 2026-11-22T00:10:00.000Z | 1800 | 6 | timeout after 10s |
      | 2026-11-22T05:30:00.000Z | 2026-11-22T06:35:00.000Z | 3900 | 13 | timeout after 10s |
      | 2026-11-22T11:55:00.000Z | 2026-11-22T13:20:00.000Z | 5100 | 17 | HTTP 503 |
      "
    `);
  });
});
