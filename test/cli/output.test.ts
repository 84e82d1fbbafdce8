// Output formats end to end: the built CLI against the emulator.
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { useEmulator } from '../helpers/emulator.js';

const f = useEmulator({}, { inProcess: true });
let ids: string[] = [];
const LONG = `A monitor whose name is long enough to wrap ${'and wrap '.repeat(12)}at eighty columns`;

beforeAll(async () => {
  const input = [
    JSON.stringify({ name: 'out-a', target: 'https://a.example.com/health', tags: ['a,b', 'c'] }),
    JSON.stringify({ name: LONG, target: 'https://b.example.com/health', tags: [] }),
  ].join('\n');
  const r = await f.cpk(['monitors', 'create', '--from', '-', '-q'], { input });
  expect(r.code).toBe(0);
  ids = r.stdout.trim().split('\n');
});

describe('several items', () => {
  it('get of several ids prints one row per monitor: off a terminal, tab-separated fields and no header', async () => {
    const r = await f.cpk(['monitors', 'get', ...ids]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^${ids[0]}\tout-a\t\\w+\thttp\thttps://a\\.example\\.com/health\t60$`));
  });

  it('--columns takes dotted paths; an array keeps its boundaries', async () => {
    const r = await f.cpk(['monitors', 'get', ...ids, '--columns', 'id,tags,last_check.latency_ms']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^${ids[0]}\t"a,b", c\t(\\d+|-)$`));
    expect(lines[1]).toMatch(new RegExp(`^${ids[1]}\t\\[\\]\t(\\d+|-)$`));
  });

  it('-o json, jsonl and yaml carry the same values; -o wide a column per field', async () => {
    const [json, jsonl, yaml, wide] = await Promise.all(
      ['json', 'jsonl', 'yaml', 'wide'].map((format) => f.cpk(['monitors', 'get', ...ids, '-o', format])),
    );
    for (const r of [json, jsonl, yaml, wide]) expect(r!.code).toBe(0);
    const items = JSON.parse(json!.stdout) as Array<Record<string, unknown>>;
    expect(items.map((m) => m.id)).toEqual(ids);
    expect(
      jsonl!.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual(items);
    expect(parseYaml(yaml!.stdout)).toEqual(items);
    const fields = wide!.stdout.split('\n')[0]!.split('\t');
    expect(fields[0]).toBe(ids[0]);
    expect(fields).toEqual(expect.arrayContaining([String(items[0]!.report_id), '"a,b", c']));
  });

  it('--columns with a field no item has, and a list expression under -o jsonl, warn naming the nearest field', async () => {
    const typo = await f.cpk(['monitors', 'get', ...ids, '--columns', 'id,nmae']);
    expect(typo.code).toBe(0);
    expect(typo.stderr).toBe('warning: --columns: no item has a field "nmae" (did you mean "name"?)\n');
    const far = await f.cpk(['monitors', 'get', ids[0]!, '--columns', 'nonexistent']);
    expect(far.stderr).toMatch(/^warning: --columns: no item has a field "nonexistent"; the fields are id, name, /);
    const jsonl = await f.cpk(['monitors', 'get', ...ids, '-o', 'jsonl', '--query', '[].id']);
    expect(jsonl.code).toBe(0);
    expect(jsonl.stdout).toBe('null\nnull\n');
    expect(jsonl.stderr).toBe(
      'warning: --query "[].id" selected null from every item: under -o jsonl it applies to each item, not the list (did you mean "id"?)\n',
    );
    const right = await f.cpk(['monitors', 'get', ...ids, '-o', 'jsonl', '--query', 'id']);
    expect(right.stderr).toBe('');
  });

  it('a bad -o, or --json with another format, is a usage error before anything is sent', async () => {
    const [bad, both] = await Promise.all([
      f.cpk(['monitors', 'get', ids[0]!, '-o', 'xml']),
      f.cpk(['monitors', 'get', ids[0]!, '--json', '-o', 'yaml']),
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('cpk: invalid -o "xml": expected one of table, wide, json, jsonl, yaml, markdown, name\n');
    expect(both.code).toBe(2);
    expect(JSON.parse(both.stderr)).toMatchObject({ error: '--json means -o json; it cannot be used with -o yaml' });
  });
});

describe('one item', () => {
  it('wraps a long value inside its own column at 80 columns', async () => {
    const r = await f.cpk(['monitors', 'get', ids[1]!], { env: { COLUMNS: '80' } });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    const at = lines.findIndex((l) => l.startsWith('name '));
    expect(lines[at]).toMatch(/^name {2,}A monitor whose name/);
    const indent = lines[at]!.indexOf('A monitor');
    expect(lines[at + 1]).toMatch(new RegExp(`^ {${indent}}\\S`));
    expect(lines[at + 2]).toMatch(new RegExp(`^ {${indent}}\\S`));
    expect(r.stdout).toMatch(/^tags {2,}\[\]$/m);
  });
});

describe('reports', () => {
  it('reports get ID -o markdown prints the report as a document: fields, hourly series and incidents', async () => {
    const created = await f.cpk([
      'monitors',
      'create',
      '--name',
      'md',
      '--target',
      'https://md.example.com',
      '--interval',
      '1h',
      '-q',
    ]);
    const id = created.stdout.trim();
    expect((await f.cpk(['monitors', 'get', id, '--json'])).code).toBe(0); // the simulated check
    // A day of hourly checks, seven of them in an outage of the host, then up again: a full report.
    f.advance(12 * 3_600_000);
    await f.outage('md.example.com');
    f.advance(7 * 3_600_000);
    await f.outage(null);
    f.advance(6 * 3_600_000);
    const thaw = f.freeze(); // the three reports below are made at the same time, so they read alike
    const reportId = `rpt_${id.slice(4)}`;
    const [json, md, plain] = await Promise.all([
      f.cpk(['reports', 'get', reportId, '--json']),
      f.cpk(['reports', 'get', reportId, '-o', 'markdown']),
      f.cpk(['reports', 'get', reportId]),
    ]).finally(thaw);
    expect(md.code).toBe(0);
    const report = JSON.parse(json.stdout) as {
      hourly: Record<string, unknown>[];
      incidents: Record<string, unknown>[];
    };
    const lines = md.stdout.split('\n');
    expect(lines.slice(0, 4)).toEqual([`# Report ${reportId}`, '', '| field | value |', '|---|---|']);
    expect(lines).toContain('| uptime_percent | 70.83 |'); // 17 of 24 checks up
    const cell = (v: unknown) => (v === null ? '-' : String(v));
    const row = (item: Record<string, unknown>) => `| ${Object.values(item).map(cell).join(' | ')} |`;
    const hourly = lines.indexOf('## hourly');
    expect(lines.slice(hourly + 2, hourly + 6).map((l) => l.replace(/`.*`/, '`…`'))).toEqual(
      ['checks', 'failures', 'avg_latency_ms', 'p95_latency_ms'].map((k) =>
        expect.stringMatching(`^- ${k}: \`…\` min `),
      ),
    );
    const table = lines.indexOf('| hour | checks | failures | avg_latency_ms | p95_latency_ms |');
    expect(lines.slice(table + 2, table + 26)).toEqual(report.hourly.map(row));
    const incidents = lines.indexOf('## incidents');
    expect(report.incidents.length).toBeGreaterThan(0);
    expect(lines.slice(incidents + 2, incidents + 4 + report.incidents.length)).toEqual([
      '| start | end | duration_seconds | failed_checks | cause |',
      '|---|---|---|---|---|',
      ...report.incidents.map(row),
    ]);
    expect(md.stdout.endsWith(`${row(report.incidents.at(-1)!)}\n`)).toBe(true);

    // Off a terminal, the table: each list of objects is an indented sub-table under its key, values as sent.
    expect(plain.code).toBe(0);
    const t = plain.stdout.trimEnd().split('\n');
    const sub = (key: string, items: Record<string, unknown>[]) => {
      const at = t.indexOf(`${key}:`);
      expect(at).toBeGreaterThan(0);
      const head = Object.keys(items[0]!).map((k) => k.toUpperCase());
      expect(t[at + 1]).toMatch(new RegExp(`^  ${head.join(' +')}$`));
      const rows = t.slice(at + 2, at + 2 + items.length).map((l) => l.trim().split(/ {2,}/));
      expect(rows).toEqual(items.map((item) => Object.values(item).map(cell)));
    };
    sub('hourly', report.hourly);
    sub('incidents', report.incidents);
  });
});
