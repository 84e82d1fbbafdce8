// `cpk doctor` passes against the emulator, and fails each check when its
// cause is set up; exit 0 only when all pass.
import { describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useEmulator } from '../helpers/emulator.js';
import { checkNode, checkSkew } from '../../src/cli/doctor-checks.js';

const f = useEmulator({}, { inProcess: true });

interface Report {
  ok: boolean;
  checks: Array<{ name: string; ok: boolean; skipped: boolean; detail: string; fix: string | null }>;
}

async function doctor(
  env: Record<string, string | undefined> = {},
  args: string[] = [],
): Promise<{ code: number | null; report: Report; stderr: string }> {
  const r = await f.cpk(['doctor', '--json', '--retries', '0', ...args], { env });
  return { code: r.code, report: JSON.parse(r.stdout) as Report, stderr: r.stderr };
}

function failing(report: Report): string[] {
  return report.checks.filter((c) => !c.ok).map((c) => c.name);
}

describe('cpk doctor', () => {
  it('passes every check against the emulator, exit 0', async () => {
    const r = await f.spawned(['doctor']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trim().split('\n');
    expect(lines.map((l) => l.split(':')[0])).toEqual([
      '✓ Node.js',
      '✓ Config file',
      '✓ Profile and base URL',
      '✓ Proxy',
      '✓ Service',
      '✓ Clock',
      '✓ Token',
    ]);
    expect(r.stdout).toContain(`${f.emu.baseUrl} (from CPK_BASE_URL)`);
    expect(r.stdout).toMatch(/Service: reachable; openapi\.json: OpenAPI 3\.1\.\d+, API version \S+/);
    expect(r.stdout).toMatch(/Token: cpk_…\S{4} from CPK_TOKEN: accepted by the service/);
    expect(r.stdout).not.toContain(f.emu.token);
  });

  it('--json gives every check, and ok', async () => {
    const { code, report } = await doctor();
    expect(code).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.checks.every((c) => c.ok && c.fix === null)).toBe(true);
  });

  it('a config file others can read fails, naming chmod', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-doctor-'));
    const login = await f.cpk(['auth', 'login', '--with-token', '--no-verify', '--insecure-storage'], {
      env: { CPK_CONFIG_DIR: dir, CPK_TOKEN: undefined },
      input: `${f.emu.token}\n`,
    });
    expect(login.code).toBe(0);
    chmodSync(join(dir, 'config.json'), 0o644);
    const { code, report, stderr } = await doctor({ CPK_CONFIG_DIR: dir });
    expect(code).toBe(1);
    expect(failing(report)).toEqual(['Config file']);
    expect(report.checks.find((c) => c.name === 'Config file')!.fix).toContain('chmod 600');
    expect(stderr).toBe('1 of 7 checks failed.\n');
  });

  it('a plain-http base URL off loopback fails the base URL check', async () => {
    const { code, report } = await doctor({ CPK_BASE_URL: 'http://monitoring.example.com' });
    expect(code).toBe(1);
    expect(failing(report)).toEqual(['Profile and base URL']);
  });

  it('an unreachable service fails the service check; the token, which needs it, is not checked', async () => {
    const { report } = await doctor({ CPK_BASE_URL: 'http://127.0.0.1:9' });
    expect(failing(report)).toEqual(['Service']);
    expect(report.checks.find((c) => c.name === 'Token')).toMatchObject({ ok: true, skipped: true });
    expect(report.checks.find((c) => c.name === 'Service')!.detail).toMatch(/cannot connect/);
  });

  it('openapi.json not answering fails the service check', async () => {
    f.emu.injectFault({ method: 'GET', path: '/v1/openapi.json', status: 500 });
    const { report } = await doctor();
    expect(failing(report)).toEqual(['Service']);
  });

  it('no token, a foreign token and a revoked token fail the token check', async () => {
    for (const token of [undefined, 'ghp_notcpk', 'cpk_test_revoked']) {
      const { code, report } = await doctor({ CPK_TOKEN: token });
      expect(code, String(token)).toBe(1);
      expect(failing(report), String(token)).toEqual(['Token']);
      expect(report.checks.find((c) => c.name === 'Token')!.fix, String(token)).toBeTruthy();
    }
  });

  it('a proxy variable that is not a URL fails the proxy check', async () => {
    const { report } = await doctor({ HTTPS_PROXY: 'not a url', HTTP_PROXY: undefined });
    expect(failing(report)).toContain('Proxy');
  });

  it('a server clock far from ours fails the clock check', async () => {
    f.emu.injectFault({
      method: 'GET',
      path: '/v1/openapi.json',
      status: 200,
      body: JSON.stringify({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} }),
      headers: { 'content-type': 'application/json', date: 'Mon, 01 Jan 2001 00:00:00 GMT' },
    });
    const { report } = await doctor();
    expect(failing(report)).toEqual(['Clock']);
    expect(report.checks.find((c) => c.name === 'Clock')!.fix).toMatch(/NTP/);
  });
});

describe('doctor checks', () => {
  it.each([
    ['20.19.0', true],
    ['20.19.10', true],
    ['20.20.2', true],
    ['22.0.0', true],
    ['24.1.0', true],
    ['20.18.1', false],
    ['20.18.0', false],
    ['18.19.0', false],
  ])('Node %s passes: %s', (version, ok) => {
    expect(checkNode(version).ok).toBe(ok);
  });

  it("the minimum is package.json's engines.node", () => {
    expect(checkNode('20.18.1')).toMatchObject({
      ok: false,
      detail: '20.18.1 (cpk needs >= 20.19.0)',
      fix: 'install Node.js 20.19.0 or newer',
    });
  });

  it('clock skew within a minute passes', () => {
    const now = Date.parse('2026-01-01T00:00:30Z');
    expect(checkSkew('Thu, 01 Jan 2026 00:00:00 GMT', now).ok).toBe(true);
    expect(checkSkew('Thu, 01 Jan 2026 00:02:00 GMT', now).ok).toBe(false);
    expect(checkSkew(undefined, now).ok).toBe(true);
  });
});
