// What the transport only carries, through the built CLI: answers whose
// reading is cpk's own (numbers exactly as the server wrote them, documents
// nested too deep, keys like __proto__) and usage errors found before any
// request. test/e2e/hostile.test.ts and resilience.test.ts hold what a
// transport can change, on both transports; these run once.
import { describe, expect, it } from 'vitest';
import { expectCleanFailure, TOKEN, useHostile } from '../helpers/hostile.js';
import { type CliResult } from '../helpers/cli.js';
import { runCpk } from '../helpers/in-process.js';
import { useEmulator } from '../helpers/emulator.js';

const hostile = useHostile();

function cpk(args: string[], env: Record<string, string>): Promise<CliResult> {
  return runCpk(args, { env: { CPK_TOKEN: TOKEN, ...env }, timeoutMs: 90_000 });
}

const f = useEmulator({}, { inProcess: true });

/** The requests that reached the emulator for `path`. */
function arrivals(path: string, method = 'GET') {
  return f.emu.requests.filter((r) => r.path === path && r.method === method);
}

describe.concurrent('exact numbers and deep documents (items 11, 12)', () => {
  const EXACT = '{"id":"mon_1","big":12345678901234567890,"odd":9007199254740993,"huge":1e400,"price":1.50,"plain":60}';

  it('--json, cpk api and -o yaml print every number as the server wrote it', async () => {
    const s = await hostile({ kind: 'raw', body: EXACT });
    const env = { CPK_BASE_URL: `${s.url}/v1` };
    const [json, api, yaml] = await Promise.all([
      cpk(['monitors', 'get', 'mon_1', '--json'], env),
      cpk(['api', 'GET', '/monitors/mon_1'], env),
      cpk(['monitors', 'get', 'mon_1', '-o', 'yaml'], env),
    ]);
    for (const r of [json, api]) {
      expect(r.code, r.stderr).toBe(0);
      for (const text of [
        '"big": 12345678901234567890',
        '"odd": 9007199254740993',
        '"huge": 1e400',
        '"price": 1.50',
        '"plain": 60',
      ])
        expect(r.stdout).toContain(text);
    }
    expect(yaml.code, yaml.stderr).toBe(0);
    expect(yaml.stdout).toContain('big: 12345678901234567890');
    expect(yaml.stdout).toContain('odd: 9007199254740993');
  });

  it('a response nested 5000 deep: one line and exit 1 (table and --json), no stack', async () => {
    const body = `{"id":"mon_1","deep":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const s = await hostile({ kind: 'raw', body });
    const env = { CPK_BASE_URL: `${s.url}/v1` };
    for (const args of [
      ['monitors', 'get', 'mon_1'],
      ['monitors', 'get', 'mon_1', '--json'],
    ]) {
      const r = await cpk([...args, '--retries', '0'], env);
      expectCleanFailure(r, 1, /JSON nested deeper than 1000 levels/);
    }
  });
});

describe.concurrent('usage errors before any request', () => {
  it('--max-time 0 and CPK_MAX_TIME=soon are usage errors', async () => {
    const [a, b] = await Promise.all([
      cpk(['monitors', 'get', 'mon_1', '--max-time', '0'], {}),
      cpk(['monitors', 'get', 'mon_1'], { CPK_MAX_TIME: 'soon' }),
    ]);
    expectCleanFailure(a, 2, /^cpk: invalid --max-time "0": expected a positive number of seconds, at most 86400$/);
    expectCleanFailure(
      b,
      2,
      /^cpk: invalid CPK_MAX_TIME "soon": expected a positive number of seconds, at most 86400$/,
    );
  });
  for (const [what, token] of [
    ['a line break', 'cpk_abc\ndef123456'],
    ['DEL', 'cpk_abc\x7fdef123456'],
    ['a carriage return', 'cpk_abc\rdef123456'],
    ['a character outside ASCII', 'cpk_abcé123456'],
  ] as const) {
    it(`a token holding ${what} is a usage error before any request, never printed`, async () => {
      const s = await hostile({ kind: 'silent' });
      const r = await runCpk(['monitors', 'get', 'mon_1', '--timeout', '1'], {
        env: { CPK_TOKEN: token, CPK_BASE_URL: `${s.url}/v1` },
        timeoutMs: 60_000,
      });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        /^cpk: the token from CPK_TOKEN holds a line break, a control character or a character outside ASCII/,
      );
      expect(r.stderr).not.toMatch(/abc|def|123456|\n\s+at /);
      expect(s.connections).toBe(0);
    });
  }
  it('a token no header can carry is a problem of the token only: auth status still reports the rest', async () => {
    const r = await runCpk(['auth', 'status', '--json'], {
      env: { CPK_TOKEN: 'cpk_abc\ndef123456', CPK_BASE_URL: 'http://127.0.0.1:9/v1' },
    });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ base_url: 'http://127.0.0.1:9/v1', token: null });
    expect(JSON.parse(r.stderr)).toMatchObject({
      error: expect.stringMatching(/^the token from CPK_TOKEN holds/),
      exit_code: 2,
    });
    expect(r.stdout + r.stderr).not.toMatch(/abc|def|123456/);
  });
  it('a bad --retries or CPK_MAX_ATTEMPTS is a usage error and sends nothing', async () => {
    const id = 'mon_usage';
    const path = `/v1/monitors/${id}`;
    const runs = await Promise.all([
      f.cpk(['monitors', 'get', id, '--retries', 'many']),
      f.cpk(['monitors', 'get', id, '--retries', '11']),
      f.cpk(['monitors', 'get', id], { env: { CPK_MAX_ATTEMPTS: '0' } }),
      f.cpk(['monitors', 'get', id], { env: { CPK_MAX_ATTEMPTS: 'lots' } }),
    ]);
    for (const r of runs) {
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^cpk: invalid (--retries|CPK_MAX_ATTEMPTS) .+\n$/);
    }
    expect(arrivals(path)).toHaveLength(0);
  });
});

describe.concurrent('bad answers', () => {
  it('JSON keys like __proto__ are data: printed as sent, never a prototype', async () => {
    const path = '/v1/reports/rpt_proto';
    const body = '{"id":"rpt_proto","__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}';
    f.emu.injectFault({ method: 'GET', path, status: 200, body, times: 2 });
    const asJson = await f.cpk(['reports', 'get', 'rpt_proto', '--json']);
    expect(asJson.code).toBe(0);
    expect(asJson.stdout).toBe(`${JSON.stringify(JSON.parse(body), null, 2)}\n`);
    expect(asJson.stdout).toContain('"__proto__": {');
    const table = await f.cpk(['reports', 'get', 'rpt_proto']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^__proto__\.polluted\s+true$/m);
    expect(table.stdout).toMatch(/^constructor\.prototype\.x\s+1$/m);
  });

  it('id, status or ok found only under __proto__ is an unexpected shape, exit 1', async () => {
    // The only POST of this file: the fault stays for every later POST.
    f.emu.injectFault({
      method: 'POST',
      path: '/v1/monitors',
      status: 201,
      body: '{"__proto__":{"id":"mon_x","status":"up"}}',
    });
    f.emu.injectFault({
      method: 'PATCH',
      path: '/v1/channels/ch_proto',
      status: 200,
      body: '{"__proto__":{"ok":true}}',
    });
    const [create, update] = await Promise.all([
      f.cpk(['monitors', 'create', '--name', 'proto']),
      f.cpk(['channels', 'update', 'ch_proto', '--set', 'enabled=true']),
    ]);
    expect(create.code).toBe(1);
    expect(create.stderr).toMatch(/unexpected response .* expected a JSON object with string "id" and "status"/);
    expect(update.code).toBe(1);
    expect(update.stderr).toMatch(/unexpected response .* expected a JSON object with a boolean "ok"/);
  });
});
