// Validation from the service's own word (#15): plan, apply and `cpk validate`
// check each manifest entry against the create and update bodies the
// service's OpenAPI document declares (the emulator declares them), with
// file:line:column, every problem at once, nothing sent; against a service
// that declares nothing (the reference server), nothing is checked.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCpk } from '../helpers/in-process.js';
import { useEmulator } from '../helpers/emulator.js';
import { startReferenceServer, useReferenceServer, type ReferenceServer } from '../helpers/reference-server.js';

const f = useEmulator({}, { inProcess: true });

/** A manifest in a directory of its own (the state file goes beside it). */
function write(text: string, name = 'cpk.yaml'): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'cpk-validate-'));
  const file = join(dir, name);
  writeFileSync(file, text);
  return { dir, file };
}

type JsonSchema = { properties: Record<string, unknown>; additionalProperties?: boolean };

/** Requests other than the read of the public document. */
const changes = (requests: Array<{ method: string; path: string }>) =>
  requests.filter((q) => q.path !== '/v1/openapi.json').map((q) => `${q.method} ${q.path}`);

const BAD = [
  'monitors:',
  '  web:',
  '    name: Web',
  '    type: htp',
  '    target: https://web.example.com/health',
  '    interval: 10s',
  '  api:',
  '    name: API',
  '    interval_seconds: 100000',
  '    paused: true',
  '',
].join('\n');

describe('plan and apply check entries against the bodies the service declares', () => {
  it('problems of structure and problems of fields come in one run, in file order', async () => {
    const { file } = write(
      [
        'monitors:',
        '  web:',
        '    name: Web',
        '    type: htp',
        '    intervall: 1m',
        '  api:',
        '    interval: soon',
        '',
      ].join('\n'),
    );
    for (const command of [['plan'], ['validate']]) {
      const r = await f.cpk([...command, '-f', file]);
      expect(r.code).toBe(2);
      expect(r.stderr.split('\n')).toEqual([
        `${file}:4:11: monitors.web.type must be one of http, tcp, ping, dns; did you mean "http"?`,
        `${file}:5:5: monitors.web.intervall is not a field the service declares; did you mean "interval"? (to send it as it is, list it under custom_fields:)`,
        `${file}:6:3: monitors.api: missing required field "name"`,
        `${file}:7:15: monitors.api.interval must be seconds (60) or a duration such as 90s, 5m, 1h or 1h30m`,
        `cpk: ${file} is not a valid manifest (4 problems); nothing was sent`,
        '',
      ]);
    }
  });

  it('plan: every problem with its position, exit 2, nothing but the document read', async () => {
    const { file } = write(BAD);
    const sent = f.mark();
    const r = await f.cpk(['plan', '-f', file]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      [
        `${file}:4:11: monitors.web.type must be one of http, tcp, ping, dns; did you mean "http"?`,
        `${file}:6:15: monitors.web.interval must be at least 30 (sent as interval_seconds: 10)`,
        `${file}:9:23: monitors.api.interval_seconds must be at most 86400`,
        `cpk: ${file} does not match what the service declares (3 problems); nothing was sent`,
        '',
      ].join('\n'),
    );
    expect(changes(sent())).toEqual([]);
  });

  it('apply --yes: the same problems, nothing created; --json gets them in the one error', async () => {
    const { file } = write(BAD);
    const sent = f.mark();
    const r = await f.cpk(['apply', '-f', file, '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}:6:15: monitors.web.interval must be at least 30`);
    expect(r.stderr).toContain('(3 problems); nothing was sent');
    const json = await f.cpk(['apply', '-f', file, '--yes', '--json']);
    expect(json.code).toBe(2);
    expect(json.stdout).toBe('');
    const error = JSON.parse(json.stderr) as { error: string; exit_code: number };
    expect(error.exit_code).toBe(2);
    expect(error.error).toContain(`${file}:9:23: monitors.api.interval_seconds must be at most 86400`);
    expect(changes(sent())).toEqual([]);
    expect(f.emu.monitors().filter((m) => m.name === 'Web' || m.name === 'API')).toEqual([]);
  });

  it('a misspelt field is an error with "did you mean", also of the alias interval, in a JSON manifest too', async () => {
    const { file } = write(
      JSON.stringify(
        { monitors: { typo: { name: 'typo', intervall: '5m', Target: 'https://t.example.com/' } } },
        null,
        2,
      ),
      'monitors.json',
    );
    const r = await f.cpk(['plan', '-f', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      [
        `${file}:5:7: monitors.typo.intervall is not a field the service declares; did you mean "interval"? (to send it as it is, list it under custom_fields:)`,
        `${file}:6:7: monitors.typo.Target is not a field the service declares; did you mean "target"? (to send it as it is, list it under custom_fields:)`,
        `cpk: ${file} does not match what the service declares (2 problems); nothing was sent`,
        '',
      ].join('\n'),
    );
  });

  it('custom_fields: a deliberate field near a declared one is sent as it is; other custom fields need nothing', async () => {
    const { file } = write(
      'custom_fields: [types]\nmonitors:\n  kept:\n    name: custom kept\n    types: [a, b]\n    team: payments\n',
    );
    const sent = f.mark();
    const r = await f.cpk(['apply', '-f', file, '--yes']);
    expect(r.stderr).toMatch(/^created kept: mon_\w+\n$/);
    expect(r.code).toBe(0);
    const posts = sent().filter((q) => q.method === 'POST');
    expect(posts.map((q) => JSON.parse(q.body) as unknown)).toEqual([
      { name: 'custom kept', types: ['a', 'b'], team: 'payments' },
    ]);
  });

  it("channel settings are checked against the channel's declared update body", async () => {
    const { file } = write(
      'monitors:\n  m:\n    name: with channel\nchannels:\n  ch_ops:\n    enabeld: true\n    events: [down, sideways]\n',
    );
    const sent = f.mark();
    const r = await f.cpk(['apply', '-f', file, '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      [
        `${file}:6:5: channels.ch_ops.enabeld is not a field the service accepts; did you mean "enabled"?`,
        `${file}:7:20: channels.ch_ops.events.1 must be one of down, up, paused, resumed`,
        `cpk: ${file} does not match what the service declares (2 problems); nothing was sent`,
        '',
      ].join('\n'),
    );
    expect(changes(sent())).toEqual([]);
  });

  it('a valid manifest plans as before', async () => {
    const { file } = write(
      'monitors:\n  fine:\n    name: fine\n    type: tcp\n    target: db.example.com:5432\n    interval: 1m\n',
    );
    const r = await f.cpk(['plan', '-f', file, '--debug']);
    expect(r.code).toBe(10);
    expect(r.stdout).toContain('+ fine: create');
    expect(r.stderr).toMatch(
      /validation: 1 entry checked against the declared bodies \(monitor create and update, channel update\): 0 problems/,
    );
  });
  it('entries a cached document refuses are checked against the current one before anything is refused', async () => {
    // The service declared no `type` field when its document was cached.
    await f.serveOlderDocument((document) => {
      const { schemas } = (document as unknown as { components: { schemas: Record<string, JsonSchema> } }).components;
      for (const name of ['MonitorCreate', 'MonitorUpdate']) {
        delete schemas[name]!.properties.type;
        schemas[name]!.additionalProperties = false;
      }
    });
    expect((await f.cpk(['monitors', 'list'])).code).toBe(0);
    const { file } = write('monitors:\n  newer:\n    name: newer\n    type: tcp\n    target: db.example.com:5432\n');
    const r = await f.cpk(['plan', '-f', file, '--debug']);
    expect(r.stderr).not.toContain('is not a field the service accepts');
    expect(r.code).toBe(10);
    expect(r.stdout).toContain('+ newer: create');
    expect(r.stderr).toContain('openapi: the document refuses this; asking the service for its current one');
  });
});

describe('cpk validate', () => {
  it('valid: exit 0, a one-line summary on stderr, nothing on stdout, no token needed or sent', async () => {
    const { file } = write('monitors:\n  ok:\n    name: ok\n    interval: 5m\nchannels:\n  ch_x:\n    enabled: true\n');
    const sent = f.mark();
    const r = await f.spawned(['validate', '-f', file], { env: { CPK_TOKEN: undefined } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `${file}: 1 monitor and 1 channel valid (checked against the bodies the service declares: monitor create and update, channel update)\n`,
    );
    const withToken = await f.cpk(['validate', '-f', file, '--refresh-spec']);
    expect(withToken.code).toBe(0);
    const requests = sent();
    expect(requests.map((q) => `${q.method} ${q.path}`)).toEqual(requests.map(() => 'GET /v1/openapi.json'));
    expect(requests.length).toBeGreaterThanOrEqual(1);
    expect(requests.every((q) => q.headers.authorization === undefined)).toBe(true);
  });

  it('invalid: one line per problem and exit 2; --json prints the list on stdout', async () => {
    const { file } = write(BAD);
    const r = await f.cpk(['validate', '-f', file], { env: { CPK_TOKEN: undefined } });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n').slice(0, 3)).toEqual([
      `${file}:4:11: monitors.web.type must be one of http, tcp, ping, dns; did you mean "http"?`,
      `${file}:6:15: monitors.web.interval must be at least 30 (sent as interval_seconds: 10)`,
      `${file}:9:23: monitors.api.interval_seconds must be at most 86400`,
    ]);
    const json = await f.cpk(['validate', '-f', file, '--json'], { env: { CPK_TOKEN: undefined } });
    expect(json.code).toBe(2);
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout)).toEqual([
      {
        file,
        line: 4,
        column: 11,
        message: 'monitors.web.type must be one of http, tcp, ping, dns; did you mean "http"?',
      },
      {
        file,
        line: 6,
        column: 15,
        message: 'monitors.web.interval must be at least 30 (sent as interval_seconds: 10)',
      },
      { file, line: 9, column: 23, message: 'monitors.api.interval_seconds must be at most 86400' },
    ]);
  });

  it('a directory of manifests: each problem names its own file; custom_fields of one file holds for all', async () => {
    const { dir } = write('custom_fields: [types]\nmonitors:\n  a:\n    name: A\n    types: [x]\n', 'a.yaml');
    writeFileSync(join(dir, 'b.yaml'), 'monitors:\n  b:\n    name: B\n    types: [y]\n    interval: 10s\n');
    const a = join(dir, 'a.yaml');
    const b = join(dir, 'b.yaml');
    const r = await f.cpk(['validate', '-f', dir, '--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual([
      {
        file: b,
        line: 5,
        column: 15,
        message: 'monitors.b.interval must be at least 30 (sent as interval_seconds: 10)',
      },
    ]);
    writeFileSync(b, 'monitors:\n  b:\n    name: B\n    types: [y]\n    interval: 1m\n');
    const ok = await f.cpk(['validate', '-f', a, '-f', b]);
    expect(ok.code).toBe(0);
    expect(ok.stderr).toMatch(new RegExp(`^${a}, ${b}: 2 monitors and 0 channels valid \\(checked against`));
  });

  it("the manifest's own problems are reported the same way, in --json too", async () => {
    const { file } = write('monitors:\n  x:\n    type: http\n');
    const r = await f.cpk(['validate', '-f', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `${file}:2:3: monitors.x: missing required field "name"\ncpk: ${file} is not a valid manifest (1 problem); nothing was sent\n`,
    );
    const json = await f.cpk(['validate', '-f', file, '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toEqual([
      { file, line: 2, column: 3, message: 'monitors.x: missing required field "name"' },
    ]);
  });
});

describe('a service that declares nothing', () => {
  const ref = useReferenceServer();
  const env = () => ({ CPK_BASE_URL: ref.baseUrl, CPK_TOKEN: ref.token });

  it('plan and apply check nothing beyond the manifest schema (said under --debug)', async () => {
    const { file } = write(
      'monitors:\n  loose:\n    name: loose\n    type: htp\n    intervall: 5m\n    interval: 10s\n',
    );
    const plan = await runCpk(['plan', '-f', file, '--debug'], { env: env() });
    expect(plan.code).toBe(10);
    expect(plan.stderr).toContain(
      "validation: the service's document is missing, unreachable or not an OpenAPI document; entries are not checked",
    );
    const apply = await runCpk(['apply', '-f', file, '--yes'], { env: env() });
    expect(apply.stderr).toBe('created loose: ref_mon_1\n');
    expect(apply.code).toBe(0);
    expect([...ref.monitors.values()]).toMatchObject([
      { name: 'loose', type: 'htp', intervall: '5m', interval_seconds: 10 },
    ]);
  });

  it('cpk validate says the manifest schema alone was checked', async () => {
    const { file } = write('monitors:\n  loose:\n    name: loose\n    intervall: 5m\n');
    const r = await runCpk(['validate', '-f', file], { env: { CPK_BASE_URL: ref.baseUrl } });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `${file}: 1 monitor and 0 channels valid (the service's document is missing, unreachable or not an OpenAPI document: checked against the manifest schema only)\n`,
    );
  });
});

describe('a service that cannot be reached', () => {
  it('validate checks the manifest schema only, and says why (exit 0)', async () => {
    const { file } = write('monitors:\n  u:\n    name: unreachable\n    type: htp\n');
    // Port 1 on loopback: nothing listens there; no retries, so that the test is quick.
    const env = { CPK_BASE_URL: 'http://127.0.0.1:1/v1', CPK_TOKEN: undefined };
    const r = await runCpk(['validate', '-f', file, '--retries', '0', '--debug'], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('openapi: could not fetch the document');
    expect(r.stderr).toContain(
      `${file}: 1 monitor and 0 channels valid (the service's document is missing, unreachable or not an OpenAPI document: checked against the manifest schema only)\n`,
    );
  });
});

describe('documents that declare other rules, or unusable ones', () => {
  const body = (schema: unknown) => ({
    openapi: '3.0.3',
    info: { title: 'strict', version: '1' },
    paths: {
      '/monitors': {
        post: {
          requestBody: { content: { 'application/json': { schema } } },
          responses: { '201': { description: 'ok' } },
        },
      },
    },
  });
  const servers: ReferenceServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });
  const serve = async (document: unknown) => {
    const s = await startReferenceServer({ document });
    servers.push(s);
    return s;
  };

  it('a body that accepts no other field, and requires one: unknown fields and missing ones are errors', async () => {
    const strict = await serve({
      ...body({ $ref: '#/components/schemas/Create' }),
      components: {
        schemas: {
          Create: {
            type: 'object',
            required: ['name', 'target'],
            additionalProperties: false,
            properties: {
              name: { type: 'string' },
              target: { type: 'string', nullable: true },
              tags: { type: 'array', items: { type: 'string' } },
            },
          },
        },
      },
    });
    const { file } = write('monitors:\n  s:\n    name: strict\n    team: web\n    tags: [a, 1]\n');
    const r = await runCpk(['plan', '-f', file], { env: { CPK_BASE_URL: strict.baseUrl, CPK_TOKEN: strict.token } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      [
        `${file}:2:3: monitors.s: missing required field "target"`,
        `${file}:4:5: monitors.s.team is not a field the service accepts`,
        `${file}:5:15: monitors.s.tags.1 must be a string`,
        `cpk: ${file} does not match what the service declares (3 problems); nothing was sent`,
        '',
      ].join('\n'),
    );
    expect(changes(strict.requests)).toEqual([]);
  });

  it('a pattern that would take exponential time never hangs plan: patterns are left to the service, the other rules still hold', async () => {
    const hostile = await serve(
      body({
        type: 'object',
        properties: {
          name: { type: 'string', pattern: '^(a+)+$' },
          interval_seconds: { type: 'integer', minimum: 30 },
        },
      }),
    );
    const { file } = write(`monitors:\n  h:\n    name: ${'a'.repeat(40)}!\n    interval: 10s\n`);
    const r = await runCpk(['plan', '-f', file], { env: { CPK_BASE_URL: hostile.baseUrl, CPK_TOKEN: hostile.token } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      [
        `${file}:4:15: monitors.h.interval must be at least 30 (sent as interval_seconds: 10)`,
        `cpk: ${file} does not match what the service declares (1 problem); nothing was sent`,
        '',
      ].join('\n'),
    );
    expect(changes(hostile.requests)).toEqual([]);
  });

  it('a schema cpk cannot use is "nothing declared": plan goes on', async () => {
    const broken = await serve(body({ type: 'object', properties: { name: { type: 'no-such-type' } } }));
    const { file } = write('monitors:\n  b:\n    name: broken doc\n');
    const r = await runCpk(['plan', '-f', file, '--debug'], {
      env: { CPK_BASE_URL: broken.baseUrl, CPK_TOKEN: broken.token },
    });
    expect(r.code).toBe(10);
    expect(r.stdout).toContain('+ b: create');
    expect(r.stderr).toMatch(/validation: the document's body schemas cannot be used \(.*\); entries are not checked/);
  });
});

describe('thousands of problems: the first 200 and the count', () => {
  it('2,000 entries with schema and field problems: 200 lines in file order, how many more, and the count', async () => {
    const n = 2_000;
    const entries = Array.from({ length: n }, (_, i) => `  m${i}:\n    nme: M${i}\n`).join('');
    const { file } = write(`monitors:\n${entries}`);
    const r = await f.cpk(['validate', '-f', file], { timeoutMs: 120_000 });
    expect(r.code).toBe(2);
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(202);
    // Each entry twice: the schema's missing name, and the service's near miss of it, in one run.
    const nme = (i: number) =>
      `${file}:${2 * i + 3}:5: monitors.m${i}.nme is not a field the service declares; did you mean "name"? (to send it as it is, list it under custom_fields:)`;
    expect(lines[0]).toBe(`${file}:2:3: monitors.m0: missing required field "name"`);
    expect(lines[1]).toBe(nme(0));
    expect(lines[198]).toBe(`${file}:200:3: monitors.m99: missing required field "name"`);
    expect(lines[199]).toBe(nme(99));
    expect(lines[200]).toBe(`… and ${2 * n - 200} more problems, not shown`);
    expect(lines[201]).toBe(`cpk: ${file} is not a valid manifest (${2 * n} problems); nothing was sent`);
  }, 150_000);

  it('2,000 problems against the declared bodies: 200 lines, how many more, and the count', async () => {
    const n = 2_000;
    const entries = Array.from({ length: n }, (_, i) => `  m${i}:\n    name: M${i}\n    interval: 5s\n`).join('');
    const { file } = write(`monitors:\n${entries}`);
    const r = await f.cpk(['plan', '-f', file], { timeoutMs: 120_000 });
    expect(r.code).toBe(2);
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(202);
    expect(lines[0]).toBe(`${file}:4:15: monitors.m0.interval must be at least 30 (sent as interval_seconds: 5)`);
    expect(lines[199]).toBe(
      `${file}:${3 * 199 + 4}:15: monitors.m199.interval must be at least 30 (sent as interval_seconds: 5)`,
    );
    expect(lines[200]).toBe(`… and ${n - 200} more problems, not shown`);
    expect(lines[201]).toBe(`cpk: ${file} does not match what the service declares (${n} problems); nothing was sent`);
  }, 150_000);
});
