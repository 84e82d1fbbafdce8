// Numbers are data: a number that enters cpk (--set, --data, --from, cpk api,
// a manifest in YAML or JSON, a saved plan, the state file) reaches the
// service exactly as written, and plan compares numbers by their exact value.
// What reached the server is read from the emulator's log as raw text.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useEmulator } from '../helpers/emulator.js';

const f = useEmulator({}, { inProcess: true });

/** Numbers a double cannot hold as written: 2^53+1, 20 digits, negatives, -0, a long decimal, trailing zeros. */
const EXACT =
  '{"big":9007199254740993,"twenty":12345678901234567890,"neg":-98765432109876543210,"zero":-0,' +
  '"pi":3.14159265358979323846264338327950288,"price":1.50,"nested":{"list":[1,18446744073709551617,{"n":-1e-400}]}}';

function workdir(): string {
  return mkdtempSync(join(tmpdir(), 'cpk-exact-'));
}

/** The raw body of each request of `method` since the mark. */
function bodies(sent: () => Array<{ method: string; body: string }>, method: string): string[] {
  return sent()
    .filter((q) => q.method === method)
    .map((q) => q.body);
}

/** A monitor created with a raw JSON body (JSON.stringify could not write these numbers). */
async function createRaw(text: string): Promise<string> {
  const res = await fetch(`${f.emu.baseUrl}/monitors`, {
    method: 'POST',
    headers: { authorization: `Bearer ${f.emu.token}`, 'content-type': 'application/json' },
    body: text,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** The monitor as the service answers it, as text. */
async function getRaw(id: string): Promise<string> {
  const res = await fetch(`${f.emu.baseUrl}/monitors/${id}`, { headers: { authorization: `Bearer ${f.emu.token}` } });
  return res.text();
}

describe('numbers that enter cpk are sent exactly as written', () => {
  it('--set: integers past 2^53, 20 digits, negatives, -0, long decimals, nested values', async () => {
    const sent = f.mark();
    const r = await f.cpk([
      'monitors',
      'create',
      '--name',
      'exact set',
      '--set',
      'budget=9007199254740993',
      '--set',
      'limits.max=12345678901234567890',
      '--set',
      'limits.min=-12345678901234567890',
      '--set',
      'zero=-0',
      '--set',
      'ratio=0.1000000000000000055511151231257827',
      '--set',
      'list=[1,9007199254740993,{"x":1.50}]',
      '-q',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(bodies(sent, 'POST')).toEqual([
      '{"budget":9007199254740993,"limits":{"max":12345678901234567890,"min":-12345678901234567890},"zero":-0,' +
        '"ratio":0.1000000000000000055511151231257827,"list":[1,9007199254740993,{"x":1.50}],"name":"exact set"}',
    ]);
    // The emulator keeps the client's own fields as sent (its monitor schema is open).
    const stored = await getRaw(r.stdout.trim());
    expect(stored).toContain('"budget":9007199254740993');
    expect(stored).toContain('"limits":{"max":12345678901234567890,"min":-12345678901234567890}');
  });

  it('--data as an argument, @file and stdin', async () => {
    const dir = workdir();
    const file = join(dir, 'body.json');
    const body = `{"name":"exact data",${EXACT.slice(1)}`;
    writeFileSync(file, body);
    const sent = f.mark();
    for (const [data, input] of [
      [body, undefined],
      [`@${file}`, undefined],
      ['-', body],
    ] as const) {
      const r = await f.cpk(['monitors', 'create', '--data', data, '-q'], input === undefined ? {} : { input });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    }
    expect(bodies(sent, 'POST')).toEqual([body, body, body]);
  });

  it('cpk api --data: an object, an array and a bare number', async () => {
    const id = await createRaw('{"name":"exact api"}');
    const sent = f.mark();
    const r = await f.cpk(['api', 'PATCH', `/monitors/${id}`, '--data', EXACT]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // The answer is printed as the service wrote it.
    expect(r.stdout).toContain('"twenty": 12345678901234567890');
    await f.cpk(['api', 'POST', '/monitors', '--data', '[9007199254740993,-0]']);
    await f.cpk(['api', 'POST', '/monitors', '--data', '12345678901234567890']);
    expect(bodies(sent, 'PATCH')).toEqual([EXACT]);
    expect(bodies(sent, 'POST')).toEqual(['[9007199254740993,-0]', '12345678901234567890']);
  });

  it('create --from: NDJSON and a JSON array', async () => {
    const dir = workdir();
    const ndjson = join(dir, 'm.ndjson');
    const array = join(dir, 'm.json');
    const one = `{"name":"exact from 1",${EXACT.slice(1)}`;
    const two = '{"name":"exact from 2","big":-9007199254740993}';
    writeFileSync(ndjson, `${one}\n${two}\n`);
    writeFileSync(array, `[${one},\n${two}]`);
    for (const from of [ndjson, array]) {
      const sent = f.mark();
      const r = await f.cpk(['monitors', 'create', '--from', from, '--concurrency', '1', '-q']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(bodies(sent, 'POST')).toEqual([one, two]);
    }
  });

  it('--dry-run --json shows the body with its numbers as written', async () => {
    const r = await f.cpk(['monitors', 'create', '--name', 'n', '--set', 'b=9007199254740993', '--dry-run', '--json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('"b": 9007199254740993');
  });

  it('a number that cannot be kept is a usage error, and nothing is sent', async () => {
    const dir = workdir();
    const file = join(dir, 'big.json');
    writeFileSync(file, '{"name":"x","n":[1e999]}');
    const sent = f.mark();
    for (const args of [
      ['monitors', 'create', '--name', 'x', '--set', 'n=-1e999'],
      ['monitors', 'create', '--data', '{"name":"x","n":1E400}'],
      ['monitors', 'create', '--data', `@${file}`],
      ['monitors', 'create', '--from', file],
      ['api', 'POST', '/monitors', '--data', '{"n":1e999}'],
    ]) {
      const r = await f.cpk(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/too large for JSON/);
    }
    expect(sent()).toEqual([]);
  });
});

describe('manifests: plan compares exactly, apply sends exactly', () => {
  const yamlOf = (name: string, channel: string) =>
    `monitors:\n  web:\n    name: ${name}\n    discord_channel: ${channel}\n    budget: -0.30000000000000000000001\n    limits: {max: 18446744073709551617, list: [1.50, -12345678901234567890]}\n`;

  it('YAML: apply sends the exact digits; plan then shows no change', async () => {
    const dir = workdir();
    const file = join(dir, 'cpk.yaml');
    writeFileSync(file, yamlOf('exact yaml', '1234567890123456789'));
    const sent = f.mark();
    const r = await f.cpk(['apply', '-f', file, '--yes']);
    expect(r.code).toBe(0);
    expect(bodies(sent, 'POST')).toEqual([
      '{"name":"exact yaml","discord_channel":1234567890123456789,"budget":-0.30000000000000000000001,' +
        '"limits":{"max":18446744073709551617,"list":[1.50,-12345678901234567890]}}',
    ]);
    const plan = await f.cpk(['plan', '-f', file]);
    expect(plan.stdout).toContain('(1 unchanged)');
    expect(plan.code).toBe(0);
  });

  it('JSON manifest: the service holds the exact 19-digit value: no change; a different one is PATCHed exactly', async () => {
    const dir = workdir();
    const id = await createRaw('{"name":"exact json","discord_channel":1234567890123456789,"ratio":1,"big":100}');
    const file = join(dir, 'cpk.json');
    // 1.0 and 1e2 are the values the service holds, spelt otherwise: no change.
    const manifest = (channel: string) =>
      `{"monitors":{"web":{"name":"exact json","discord_channel":${channel},"ratio":1.0,"big":1e2}}}`;
    writeFileSync(file, manifest('1234567890123456789'));
    expect((await f.cpk(['import', `web=${id}`, '-f', file])).code).toBe(0);
    const same = await f.cpk(['plan', '-f', file]);
    expect(same.stdout).toContain('(1 unchanged)');
    expect(same.code).toBe(0);

    writeFileSync(file, manifest('1234567890123456788'));
    const changed = await f.cpk(['plan', '-f', file]);
    expect(changed.code).toBe(10);
    expect(changed.stdout).toContain('discord_channel: 1234567890123456789 -> 1234567890123456788');
    const sent = f.mark();
    expect((await f.cpk(['apply', '-f', file, '--yes'])).code).toBe(0);
    expect(bodies(sent, 'PATCH')).toEqual(['{"discord_channel":1234567890123456788}']);
    expect(await getRaw(id)).toContain('"discord_channel":1234567890123456788');
  });

  it('YAML .nan and .inf are usage errors, nothing sent', async () => {
    const dir = workdir();
    const file = join(dir, 'cpk.yaml');
    writeFileSync(file, 'monitors:\n  web:\n    name: inf\n    a: .inf\n    b: [-.inf, .nan]\n');
    const sent = f.mark();
    const r = await f.cpk(['apply', '-f', file, '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('monitors.web.a must be a finite number');
    expect(r.stderr).toContain('monitors.web.b.1 must be a finite number');
    // Only the service's public document, read without the token to check the entries.
    expect(sent().filter((q) => q.path !== '/v1/openapi.json' || q.headers.authorization !== undefined)).toEqual([]);
  });

  it('a saved plan keeps the exact digits: apply PLAN sends them', async () => {
    const dir = workdir();
    const file = join(dir, 'cpk.yaml');
    writeFileSync(file, yamlOf('exact saved', '1234567890123456789'));
    const out = join(dir, 'plan.json');
    const plan = await f.cpk(['plan', '-f', file, '--out', out]);
    expect(plan.code).toBe(10);
    expect(readFileSync(out, 'utf8')).toContain('"discord_channel": 1234567890123456789');
    const sent = f.mark();
    const r = await f.cpk(['apply', out, '--yes']);
    expect(r.code).toBe(0);
    expect(bodies(sent, 'POST')).toEqual([
      '{"name":"exact saved","discord_channel":1234567890123456789,"budget":-0.30000000000000000000001,' +
        '"limits":{"max":18446744073709551617,"list":[1.50,-12345678901234567890]}}',
    ]);
  });

  it('the state file: what it records is read and written back with its numbers as written', async () => {
    const dir = workdir();
    const file = join(dir, 'cpk.yaml');
    writeFileSync(file, 'channels:\n  ch_oncall:\n    enabled: true\n');
    expect((await f.cpk(['apply', '-f', file, '--yes'])).code).toBe(0);
    const statePath = join(dir, 'cpk.state.json');
    // Settings recorded as applied (the service does not show a channel back) holding numbers a double cannot.
    const recorded = readFileSync(statePath, 'utf8').replace(
      '"enabled": true',
      '"enabled": true,\n        "weight": 12345678901234567890,\n        "share": -0.1000000000000000055511151231257827',
    );
    writeFileSync(statePath, recorded);
    // A monitor to create: the state is written again, and what it recorded keeps its numbers.
    writeFileSync(file, 'channels:\n  ch_oncall:\n    enabled: true\nmonitors:\n  web:\n    name: exact state\n');
    const sent = f.mark();
    const r = await f.cpk(['apply', '-f', file, '--yes']);
    expect(r.code).toBe(0);
    expect(bodies(sent, 'PATCH')).toEqual([]);
    const after = readFileSync(statePath, 'utf8');
    expect(after).toContain('"weight": 12345678901234567890,');
    expect(after).toContain('"share": -0.1000000000000000055511151231257827');
  });
});

describe('import writes the numbers the service holds as it holds them', () => {
  it('monitors get --manifest, and import --all into a YAML and a JSON manifest; plan then shows no change', async () => {
    const id = await createRaw('{"name":"exact import","big":1234567890123456789,"l":[1.50,-0]}');
    const manifest = await f.cpk(['monitors', 'get', id, '--manifest']);
    expect(manifest.code).toBe(0);
    expect(manifest.stdout).toContain('big: 1234567890123456789\n');
    expect(manifest.stdout).toContain('  - 1.50\n      - -0\n');
    const dir = workdir();
    for (const [name, text] of [
      ['cpk.yaml', 'monitors:\n  other:\n    name: other\n'],
      ['c.json', '{"monitors":{"other":{"name":"other","n":12345678901234567890}}}'],
    ] as const) {
      const file = join(dir, name);
      writeFileSync(file, text);
      const r = await f.cpk(['import', '--all', '-f', file]);
      expect(r.code).toBe(0);
      const written = readFileSync(file, 'utf8');
      expect(written).toMatch(/"?big"?: 1234567890123456789\b/);
      if (name === 'c.json') expect(written).toContain('"n": 12345678901234567890');
      const plan = await f.cpk(['plan', '-f', file, '--json']);
      const steps = JSON.parse(plan.stdout).monitors as Array<{ key: string; action: string }>;
      expect(steps.find((s) => s.key === 'exact-import')?.action).toBe('unchanged');
    }
  });
});
