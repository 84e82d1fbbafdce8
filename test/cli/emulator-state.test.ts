// State you can seed, inspect, export and reset: --import, --export-on-exit,
// the admin state routes, the request log with status and latency
// (`cpk emulator requests`), and tokens declared with --token NAME:TOKEN[:SCOPES].
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killAllTracked } from '../helpers/children.js';
import { runCli } from '../helpers/cli.js';
import { adminCall, apiCall, startEmulatorProcess, type EmulatorProcess } from '../helpers/emulator-process.js';
import { runCpk } from '../helpers/in-process.js';

const SECRET = 'state-secret';
const start = (args: string[]) => startEmulatorProcess(['--admin-secret', SECRET, ...args]);
const stop = (emu: EmulatorProcess) => emu.stop();
const api = apiCall;
const admin = (emu: EmulatorProcess, method: string, path: string, body?: unknown) =>
  adminCall(emu, SECRET, method, path, body);

describe('cpk emulator: state you can seed, export and reset', () => {
  // An emulator a failed or timed-out test did not stop is not left running.
  afterEach(killAllTracked);

  it('--export-on-exit writes the state on SIGTERM; --import starts from it and leaves the file as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-state-'));
    const file = join(dir, 'seed.json');
    const first = await start(['--export-on-exit', file]);
    const id = (await api(first, 'POST', '/monitors', { name: 'kept', team: 'web' })).id as string;
    await stop(first);
    const exported = readFileSync(file, 'utf8');
    expect(JSON.parse(exported)).toMatchObject({ version: 1 });

    const second = await start(['--import', file]);
    try {
      const env = { CPK_BASE_URL: second.baseUrl, CPK_TOKEN: second.token };
      const got = await runCpk(['monitors', 'get', id, '--json'], { env });
      expect(got.code, got.stderr).toBe(0);
      expect(JSON.parse(got.stdout)).toMatchObject({ id, name: 'kept', team: 'web' });
      await api(second, 'POST', '/monitors', { name: 'not exported' });
    } finally {
      await stop(second);
    }
    expect(readFileSync(file, 'utf8')).toBe(exported);

    writeFileSync(join(dir, 'bad.json'), '{"version": 2}');
    const bad = await runCli(['emulator', '--port', '0', '--import', join(dir, 'bad.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(`cpk: --import: ${join(dir, 'bad.json')}: not an emulator state file (version is not 1)\n`);
  });

  it('admin routes export (GET), reset (DELETE) and import (PUT) the state while it runs', async () => {
    const emu = await start([]);
    try {
      const id = (await api(emu, 'POST', '/monitors', { name: 'one' })).id as string;
      const exported = await admin(emu, 'GET', '/state');
      expect(exported.status).toBe(200);
      expect(JSON.stringify(exported.body)).toContain(id);
      expect(await admin(emu, 'DELETE', '/state')).toEqual({ status: 200, body: { ok: true } });
      expect((await api(emu, 'GET', '/monitors')).data).toEqual([]);
      const refused = await admin(emu, 'PUT', '/state', { version: 7 });
      expect(refused.status).toBe(422);
      expect(refused.body.error).toBe('not an emulator state file (version is not 1)');
      expect(await admin(emu, 'PUT', '/state', exported.body)).toEqual({ status: 200, body: { ok: true } });
      expect(((await api(emu, 'GET', '/monitors')).data as Array<{ id: string }>).map((m) => m.id)).toEqual([id]);
      // Without the secret the routes do not exist.
      expect((await fetch(`${emu.url}/__emulator/state`, { method: 'DELETE' })).status).toBe(404);
      expect(((await api(emu, 'GET', '/monitors')).data as unknown[]).length).toBe(1);
    } finally {
      await stop(emu);
    }
  });

  it('cpk emulator requests prints each request with its status and latency (table, or JSON lines with --json)', async () => {
    const emu = await start([]);
    try {
      await api(emu, 'POST', '/monitors', { name: 'logged' });
      await api(emu, 'GET', '/monitors/mon_nosuchmonitor');
      const env = { CPK_BASE_URL: emu.baseUrl, CPK_EMULATOR_ADMIN_SECRET: SECRET };
      const json = await runCpk(['emulator', 'requests', '--json'], { env });
      expect(json.code, json.stderr).toBe(0);
      const lines = json.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.map((l) => [l.method, l.path, l.status])).toEqual([
        ['POST', '/v1/monitors', 201],
        ['GET', '/v1/monitors/mon_nosuchmonitor', 404],
      ]);
      for (const l of lines) expect(l.latencyMs).toEqual(expect.any(Number));
      expect(json.stdout).not.toContain(emu.token);
      const table = await runCpk(['emulator', 'requests', '--admin-secret', SECRET, '--base-url', emu.baseUrl]);
      expect(table.code, table.stderr).toBe(0);
      expect(table.stdout).toMatch(
        /^201\t\S+\tPOST\t\/v1\/monitors\t[\d.]+\treq_\w{16}\n404\t\S+\tGET\t\/v1\/monitors\/mon_nosuchmonitor\t[\d.]+\treq_\w{16}\n$/,
      );
      const wrong = await runCpk(['emulator', 'requests', '--admin-secret', 'nope', '--base-url', emu.baseUrl]);
      expect(wrong.code).not.toBe(0);
      expect(wrong.stderr).not.toContain('nope');
    } finally {
      await stop(emu);
    }
  });

  it('--token NAME:TOKEN[:SCOPES] declares a token of its own account, with those scopes', async () => {
    const emu = await start([
      '--token',
      'ci:cpk_ci_token:monitors:read,reports:read',
      '--token',
      'team:cpk_team_token',
    ]);
    try {
      await api(emu, 'POST', '/monitors', { name: 'of acct_dev' });
      const ci = { CPK_BASE_URL: emu.baseUrl, CPK_TOKEN: 'cpk_ci_token' };
      const list = await runCpk(['monitors', 'list', '--json'], { env: ci });
      expect(list.code, list.stderr).toBe(0);
      expect(JSON.parse(list.stdout)).toEqual([]);
      const create = await runCpk(['monitors', 'create', '--name', 'x'], { env: ci });
      expect(create.code).toBe(5);
      expect(create.stderr).toContain('token lacks required scope monitors:write');
      const team = { CPK_BASE_URL: emu.baseUrl, CPK_TOKEN: 'cpk_team_token' };
      const made = await runCpk(['monitors', 'create', '--name', 'of team', '-q'], { env: team });
      expect(made.code, made.stderr).toBe(0);
      expect(JSON.parse((await runCpk(['monitors', 'list', '--json'], { env: ci })).stdout)).toEqual([]);
    } finally {
      await stop(emu);
    }
    const bad = await runCli(['emulator', '--port', '0', '--token', 'ci:cpk_x:monitors:fly']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      'cpk: invalid --token ci:…: unknown scope "monitors:fly" (scopes: monitors:read, monitors:write, channels:read, channels:write, reports:read)\n',
    );
  });
});
