// CI-native output, end to end against the emulator: workflow commands
// (annotations) on stderr under GitHub Actions and nothing of the kind
// elsewhere, the job summary, JUnit reports parsed by a real XML parser, and
// the deploy gate (--assert).
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { useEmulator } from '../helpers/emulator.js';

const f = useEmulator({}, { inProcess: true });

function dir(files: Record<string, string> = {}): string {
  const d = mkdtempSync(join(tmpdir(), 'cpk-ci-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(d, name), text);
  return d;
}

interface Case {
  name: string;
  classname: string;
  failure?: { message: string; text: string };
  skipped?: unknown;
}

/** The report as a reader sees it: <testsuites><testsuite><testcase>..., with the counts. */
function junit(path: string): { suites: Record<string, string>; suite: Record<string, string>; cases: Case[] } {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    textNodeName: 'text',
    isArray: (name) => name === 'testcase' || name === 'testsuite',
    parseAttributeValue: false,
    parseTagValue: false,
    trimValues: false,
  });
  const doc = parser.parse(readFileSync(path, 'utf8'), true) as {
    testsuites: Record<string, string> & { testsuite: Array<Record<string, string> & { testcase?: Case[] }> };
  };
  expect(doc.testsuites.testsuite).toHaveLength(1);
  const suite = doc.testsuites.testsuite[0]!;
  const cases = (suite.testcase ?? []).map((c) => {
    const failure = c.failure as unknown as { message: string; text?: string } | undefined;
    return {
      ...c,
      ...(failure ? { failure: { message: failure.message, text: failure.text ?? '' } } : {}),
    };
  });
  return { suites: doc.testsuites, suite, cases };
}

const ACTIONS = (d: string) => ({
  GITHUB_ACTIONS: 'true',
  GITHUB_WORKSPACE: d,
  GITHUB_STEP_SUMMARY: join(d, 'summary.md'),
});

const BAD = `monitors:
  checkout:
    name: Checkout
    target: https://shop.example.com/health
    interval: 5m
  search:
    target: https://shop.example.com/search
`;

describe('validate: annotations and JUnit', () => {
  it('under GitHub Actions prints each problem as ::error at its file, line and column; nothing of it elsewhere', async () => {
    const d = dir({ 'prod.yaml': BAD });
    const file = join(d, 'prod.yaml');
    const plain = await f.cpk(['validate', '-f', file]);
    const actions = await f.cpk(['validate', '-f', file, '--junit', join(d, 'v.xml')], { env: ACTIONS(d) });
    expect(plain.code).toBe(2);
    expect(plain.stderr).not.toContain('::');
    expect(actions.code).toBe(2);
    expect(actions.stdout).toBe('');
    // The path relative to the workspace, as the pull request's diff names it; line and column of the entry.
    expect(actions.stderr).toContain(
      '::error file=prod.yaml,line=6,col=3,title=cpk validate::monitors.search: missing required field "name"\n',
    );
    // Everything else on stderr is as it is outside Actions.
    expect(actions.stderr.replace(/^::error .*\n/gm, '')).toBe(plain.stderr);
    const report = junit(join(d, 'v.xml'));
    expect(report.suite).toMatchObject({ name: 'cpk validate', tests: '1', failures: '1' });
    expect(report.cases).toEqual([
      expect.objectContaining({
        name: prodPath(d),
        classname: 'manifest',
        failure: {
          message: 'monitors.search: missing required field "name"',
          text: `${prodPath(d)}:6:3: monitors.search: missing required field "name"`,
        },
      }),
    ]);
  });

  it('a valid manifest: one passing case per entry, no annotation, no summary', async () => {
    const d = dir({
      'cpk.yaml':
        BAD.replace('  search:\n', '  search:\n    name: Search\n') + 'channels:\n  ch_email:\n    enabled: true\n',
    });
    const r = await f.cpk(['validate', '-f', join(d, 'cpk.yaml'), '--junit', join(d, 'v.xml')], { env: ACTIONS(d) });
    expect(r.stderr).not.toContain('::');
    expect(r.code).toBe(0);
    const report = junit(join(d, 'v.xml'));
    expect(report.suites).toMatchObject({ tests: '3', failures: '0' });
    expect(report.cases.map((c) => [c.classname, c.name, c.failure])).toEqual([
      ['monitors', 'checkout', undefined],
      ['monitors', 'search', undefined],
      ['channels', 'ch_email', undefined],
    ]);
    expect(existsSync(join(d, 'summary.md'))).toBe(false);
  });

  it('escapes properties and data: a file name with : and , and a message with %, a newline and ::', async () => {
    const d = dir({ 'a:b,c%.yaml': 'monitors:\n  "x%y::z":\n    target: https://e.example.com\n' });
    const r = await f.cpk(['validate', '-f', join(d, 'a:b,c%.yaml')], { env: ACTIONS(d) });
    expect(r.code).toBe(2);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('::'));
    expect(lines).toEqual([
      `::error file=a%3Ab%2Cc%25.yaml,line=2,col=3,title=cpk validate::monitors."x%25y::z": a monitor key is 1 to 100 letters, digits, '.', '_' or '-', starting with a letter or digit`,
      '::error file=a%3Ab%2Cc%25.yaml,line=2,col=3,title=cpk validate::monitors."x%25y::z": missing required field "name"',
    ]);
  });
});

describe('plan and apply: annotations, job summary, JUnit', () => {
  it('apply: a failed create is annotated at its entry with the server text escaped; the summary and JUnit say what happened', async () => {
    const d = dir({
      'cpk.yaml': `monitors:
  good:
    name: Good
    target: https://good.example.com
  bad:
    name: Bad
    target: https://bad.example.com
`,
    });
    f.emu.injectFault({
      method: 'POST',
      path: '/v1/monitors',
      status: 422,
      body: JSON.stringify({ error: 'rejected: 100% sure\nsecond line ::warning::fake \u001b[31mred' }),
      headers: { 'content-type': 'application/json' },
      times: 1,
    });
    const r = await f.cpk(
      ['apply', '-f', join(d, 'cpk.yaml'), '--yes', '--concurrency', '1', '--junit', join(d, 'a.xml')],
      {
        env: ACTIONS(d),
      },
    );
    expect(r.code).toBe(7);
    const commands = r.stderr.split('\n').filter((l) => l.startsWith('::'));
    expect(commands).toHaveLength(1);
    // The service's text: % escaped, its newline already folded by cpk's HTTP layer (one line, so
    // the runner sees no second command), the escape sequence removed.
    expect(commands[0]).toMatch(
      /^::error file=cpk\.yaml,line=2,col=3,title=cpk apply::create good: rejected: 100%25 sure second line ::warning::fake red \(request id: req_\w+\)$/,
    );
    // One line: the newline is %0A, so the runner sees no second command.
    expect(r.stderr).not.toMatch(/^::warning/m);
    const summary = readFileSync(join(d, 'summary.md'), 'utf8');
    // What apply did, not the plan again (the plan's step put it there): counts, the failures, what was done.
    expect(summary.replace(/req_\w+/, 'req_X').replace(/mon_\w+/, 'mon_X')).toBe(
      [
        '### cpk apply: 1 created, 0 updated, 0 deleted, 1 failed',
        '',
        '0 unchanged.',
        '',
        '| Failed | Error |',
        '| --- | --- |',
        '| `good` | `rejected: 100% sure second line ::warning::fake red (request id: req_X)` |',
        '',
        '<details>',
        '<summary>Done (1)</summary>',
        '',
        '```text',
        'created bad: mon_X',
        '```',
        '',
        '</details>',
        '',
        '',
      ].join('\n'),
    );
    const report = junit(join(d, 'a.xml'));
    expect(report.suite).toMatchObject({ name: 'cpk apply', tests: '2', failures: '1' });
    expect(report.cases.map((c) => [c.name, c.failure?.message])).toEqual([
      ['good (create)', 'rejected: 100% sure second line ::warning::fake red'],
      ['bad (create)', undefined],
    ]);
    expect(report.cases[0]!.failure!.text).toMatch(
      /^rejected: 100% sure second line ::warning::fake red \(request id: req_\w+\)$/,
    );
  });

  it('plan: the markdown in the job summary, one case per monitor; outside Actions no summary is written', async () => {
    const d = dir({ 'cpk.yaml': 'monitors:\n  web:\n    name: Web\n    target: https://web.example.com\n' });
    const summary = join(d, 'summary.md');
    const outside = await f.cpk(['plan', '-f', join(d, 'cpk.yaml')], { env: { GITHUB_STEP_SUMMARY: summary } });
    expect(outside.code).toBe(10);
    expect(existsSync(summary)).toBe(false);
    const r = await f.cpk(['plan', '-f', join(d, 'cpk.yaml'), '--junit', join(d, 'p.xml')], { env: ACTIONS(d) });
    expect(r.code).toBe(10);
    expect(r.stdout).toBe(outside.stdout);
    const markdown = (await f.cpk(['plan', '-f', join(d, 'cpk.yaml'), '-o', 'markdown'])).stdout;
    expect(readFileSync(summary, 'utf8')).toBe(markdown);
    expect(junit(join(d, 'p.xml')).cases.map((c) => [c.classname, c.name, c.failure])).toEqual([
      ['monitors', 'web (create)', undefined],
    ]);
  });
});

describe('an error that ends a command under Actions', () => {
  it('is one annotation whose title names the command, and whose message says the error once, without cpk again', async () => {
    const d = dir({ 'cpk.yaml': 'monitors:\n  web:\n    name: Web\n' });
    const r = await f.cpk(['plan', '-f', join(d, 'cpk.yaml')], { env: { ...ACTIONS(d), CPK_TOKEN: undefined } });
    expect(r.code).toBe(4);
    const [annotation, ...more] = r.stderr.split('\n').filter((l) => l.startsWith('::'));
    expect(more).toEqual([]);
    expect(annotation).toMatch(/^::error title=cpk plan::no token/);
  });
});

describe('monitors wait --junit', () => {
  it('one case per monitor: matched ones pass, a timed-out one fails with its last value', async () => {
    const up = await f.create({ name: 'w', target: 'https://up.example.com' });
    const d = dir();
    const ok = await f.cpk(['monitors', 'wait', up, '--for', 'status=up', '--junit', join(d, 'ok.xml')]);
    expect(ok.code).toBe(0);
    expect(junit(join(d, 'ok.xml')).cases).toEqual([{ name: `${up} status=up`, classname: 'monitors' }]);
    const late = await f.cpk([
      'monitors',
      'wait',
      up,
      '--for',
      'status=down',
      '--timeout',
      '1',
      '--every',
      '1',
      '--junit',
      join(d, 'late.xml'),
    ]);
    expect(late.code).toBe(8);
    const [c] = junit(join(d, 'late.xml')).cases;
    expect(c).toMatchObject({ name: `${up} status=down`, failure: { message: `timed out after 1s: ${up} status=up` } });
    expect(readdirSync(d).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});

describe('the deploy gate: --assert', () => {
  it('reports get: every assertion checked, each failure with what it saw, exit 9; JUnit has one case per assertion', async () => {
    // Hourly checks: seven up, then one down in an outage of its host: 87.5% up.
    const id = await f.create({ name: 'g', target: 'https://gate.example.com', interval_seconds: 3600 });
    const reportId = (await f.cpk(['monitors', 'get', id, '--query', 'report_id'])).stdout.trim();
    f.advance(6 * 3_600_000);
    await f.outage('gate.example.com');
    f.advance(3_600_000);
    await f.outage(null);
    const d = dir();
    const r = await f.cpk([
      'reports',
      'get',
      reportId,
      '--assert',
      'uptime_percent >= `99.5`',
      '--assert',
      'monitor_id == `"nope"`',
      '--assert',
      'uptime_percent > `0`',
      '--junit',
      join(d, 'gate.xml'),
    ]);
    expect(r.code).toBe(9);
    // The verdict alone, on stderr: the report prints only when asked for (-o, --json, --query).
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      [
        'cpk: assertion failed: uptime_percent >= `99.5` (uptime_percent is 87.5)',
        `cpk: assertion failed: monitor_id == \`"nope"\` (monitor_id is "${id}")`,
        'cpk: 2 of 3 assertions failed',
        '',
      ].join('\n'),
    );
    const report = junit(join(d, 'gate.xml'));
    expect(report.suite).toMatchObject({ tests: '3', failures: '2' });
    expect(report.cases.map((c) => [c.classname, c.name, c.failure?.message])).toEqual([
      ['assertions', 'uptime_percent >= `99.5`', 'uptime_percent is 87.5'],
      ['assertions', 'monitor_id == `"nope"`', `monitor_id is "${id}"`],
      ['assertions', 'uptime_percent > `0`', undefined],
    ]);
    const pass = await f.cpk(['reports', 'get', reportId, '--assert', 'uptime_percent >= `80`', '-o', 'json']);
    expect([pass.code, pass.stderr]).toEqual([0, '']);
    expect(JSON.parse(pass.stdout)).toMatchObject({ uptime_percent: 87.5 });
    const held = await f.cpk(['reports', 'get', reportId, '--assert', 'uptime_percent >= `80`']);
    expect(held).toMatchObject({ code: 0, stdout: '', stderr: 'the assertion held\n' });
  });

  it('a bad expression is exit 2 before anything is sent; --junit without --assert is a usage error', async () => {
    const seen = f.mark();
    const bad = await f.cpk(['reports', 'get', 'rpt_x', '--assert', 'uptime_percent >=']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^cpk: invalid --assert "uptime_percent >=": .*nothing was sent\n/);
    const lone = await f.cpk(['monitors', 'get', 'mon_x', '--junit', 'x.xml']);
    expect(lone.code).toBe(2);
    expect(lone.stderr).toContain('give at least one --assert');
    const watch = await f.cpk(['reports', 'get', 'rpt_x', '--watch', '--assert', 'a']);
    expect(watch.code).toBe(2);
    expect(seen()).toEqual([]);
  });

  it('monitors get ID...: each assertion over each monitor; under Actions each failure is an annotation, escaped', async () => {
    const [a, b] = await Promise.all(
      ['https://up.example.com', 'https://down.example.com'].map((target) => f.create({ name: 'gate', target })),
    );
    expect((await f.cpk(['api', 'PATCH', `monitors/${b}`, '--set', 'paused=true'])).code).toBe(0);
    const expression = "paused == `false` ||\nname == '50% ::off'";
    const r = await f.cpk(['monitors', 'get', a!, b!, '--assert', expression, '-o', 'json'], {
      env: { GITHUB_ACTIONS: 'true' },
    });
    expect(r.code).toBe(9);
    expect(JSON.parse(r.stdout)).toHaveLength(2);
    const commands = r.stderr.split('\n').filter((l) => l.startsWith('::'));
    expect(commands).toEqual([
      `::error title=cpk monitors get::assertion failed: ${b}: paused == \`false\` ||%0Aname == '50%25 ::off' (paused is true, name is "gate")`,
    ]);
  });
});

function prodPath(d: string): string {
  return join(d, 'prod.yaml');
}
