import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { publicDocument } from '../../src/emulator/openapi.js';
import { startEmulator } from '../../src/emulator/server.js';
import { call, createMonitor, raw, useEmulator } from './helpers.js';

describe('authentication (401)', () => {
  const emu = useEmulator();

  const cases: Array<[string, Record<string, string>, string]> = [
    ['missing header', {}, 'missing Authorization header'],
    ['empty header', { authorization: '' }, 'missing Authorization header'],
    [
      'other scheme',
      { authorization: 'Basic dXNlcjpwYXNz' },
      "malformed Authorization header: expected 'Bearer <token>'",
    ],
    ['scheme only', { authorization: 'Bearer' }, "malformed Authorization header: expected 'Bearer <token>'"],
    [
      'two tokens',
      { authorization: 'Bearer cpk_a cpk_b' },
      "malformed Authorization header: expected 'Bearer <token>'",
    ],
    [
      'token without scheme',
      { authorization: 'cpk_dev_emulator_token' },
      "malformed Authorization header: expected 'Bearer <token>'",
    ],
    ['wrong prefix', { authorization: 'Bearer sk_live_123' }, 'malformed token: API tokens start with cpk_'],
    ['unknown token', { authorization: 'Bearer cpk_unknown' }, 'invalid token'],
    ['expired token', { authorization: 'Bearer cpk_test_expired' }, 'token expired'],
    ['revoked token', { authorization: 'Bearer cpk_test_revoked' }, 'token revoked'],
  ];

  it.each(cases)('%s -> 401', async (_name, headers, message) => {
    const res = await raw(emu(), 'GET', '/v1/reports/rpt_summary', headers);
    expect(res.status).toBe(401);
    expect(res.headers?.['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(res.body)).toEqual({ error: message, request_id: res.headers?.['x-request-id'] });
    expect(String(res.headers?.['www-authenticate'])).toMatch(/^Bearer realm="cpk"/);
  });

  it('accepts the scheme name case-insensitively', async () => {
    const res = await raw(emu(), 'GET', '/v1/reports/rpt_summary', { authorization: `bearer ${emu().token}` });
    expect(res.status).toBe(200);
  });

  it('authenticates before routing: unknown paths are 401 without a token, 404 with one', async () => {
    expect((await call(emu(), 'GET', 'nothing/here', { token: null })).status).toBe(401);
    const found = await call(emu(), 'GET', 'nothing/here');
    expect(found.status).toBe(404);
    expect(found.json.error).toBe('not found');
    expect((await call(emu(), 'GET', 'monitors', { token: null })).status).toBe(401);
    expect((await call(emu(), 'GET', '/v1', { token: null })).status).toBe(401);
  });

  it('authenticates before validation', async () => {
    const res = await call(emu(), 'POST', 'monitors', { token: 'cpk_test_expired', body: '{oops' });
    expect(res.status).toBe(401);
    expect(emu().monitors()).toHaveLength(0);
  });
});

describe('authorization (403)', () => {
  const emu = useEmulator();

  it('a suspended account is 403 on every route, including unknown ones', async () => {
    for (const [method, path] of [
      ['GET', 'reports/rpt_summary'],
      ['POST', 'monitors'],
      ['GET', 'nowhere'],
    ] as const) {
      const res = await call(emu(), method, path, {
        token: 'cpk_test_suspended',
        body: method === 'POST' ? { name: 'x' } : undefined,
      });
      expect(res.status).toBe(403);
      expect(res.json).toEqual({ error: 'account suspended', request_id: res.headers.get('x-request-id') });
    }
  });

  it('the read-only token reads but cannot write', async () => {
    const m = await createMonitor(emu(), { name: 'ro', target: 'https://example.com' });
    expect((await call(emu(), 'GET', `monitors/${m.id}`, { token: 'cpk_test_readonly' })).status).toBe(200);
    expect((await call(emu(), 'GET', `reports/${m.report_id}`, { token: 'cpk_test_readonly' })).status).toBe(200);
    const writes: Array<[string, string, string, unknown]> = [
      ['POST', 'monitors', 'monitors:write', { name: 'x' }],
      ['PATCH', `monitors/${m.id}`, 'monitors:write', { name: 'y' }],
      ['DELETE', `monitors/${m.id}`, 'monitors:write', undefined],
      ['PATCH', 'channels/ch_ops', 'channels:write', { enabled: false }],
    ];
    for (const [method, path, scope, body] of writes) {
      const res = await call(emu(), method, path, { token: 'cpk_test_readonly', body });
      expect(res.status).toBe(403);
      expect(res.json.error).toBe(`token lacks required scope ${scope}`);
      expect(res.headers.get('www-authenticate')).toBe(
        `Bearer realm="cpk", error="insufficient_scope", scope="${scope}"`,
      );
    }
    expect(emu().monitors()).toHaveLength(1);
    expect(
      emu()
        .channels()
        .find((c) => c.id === 'ch_ops')?.enabled,
    ).toBe(true);
  });

  it('checks scope before existence and validation', async () => {
    const res = await call(emu(), 'PATCH', 'monitors/mon_doesnotexist', { token: 'cpk_test_readonly', body: '{bad' });
    expect(res.status).toBe(403);
  });

  it('a 405 needs authentication but no scope', async () => {
    expect((await call(emu(), 'PUT', 'monitors', { token: null })).status).toBe(401);
    const res = await call(emu(), 'PUT', 'monitors', { token: 'cpk_test_readonly' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST');
  });
});

describe('account isolation', () => {
  const emu = useEmulator();

  it("another account's monitor and report are 404, never 403", async () => {
    const m = await createMonitor(emu(), { name: 'mine', target: 'https://example.com' });
    const other = { token: 'cpk_test_other' };
    for (const [method, path, body] of [
      ['GET', `monitors/${m.id}`, undefined],
      ['PATCH', `monitors/${m.id}`, { name: 'stolen' }],
      ['DELETE', `monitors/${m.id}`, undefined],
    ] as const) {
      const res = await call(emu(), method, path, { ...other, body });
      expect(res.status).toBe(404);
      expect(res.json.error).toBe('monitor not found');
    }
    const report = await call(emu(), 'GET', `reports/${m.report_id}`, other);
    expect(report.status).toBe(404);
    expect(report.json.error).toBe('report not found');
    expect((await call(emu(), 'GET', `monitors/${m.id}`)).json.name).toBe('mine');
  });

  it('each account has its own monitors, channels and summary', async () => {
    await createMonitor(emu(), { name: 'theirs', target: 'https://example.org' }, 'cpk_test_other');
    expect(
      emu()
        .monitors('acct_other')
        .map((m) => m.name),
    ).toEqual(['theirs']);
    expect(
      emu()
        .monitors()
        .map((m) => m.name),
    ).toEqual(['mine']);
    const patched = await call(emu(), 'PATCH', 'channels/ch_ops', {
      token: 'cpk_test_other',
      body: { name: 'Other ops' },
    });
    expect(patched.status).toBe(200);
    expect(
      emu()
        .channels('acct_other')
        .find((c) => c.id === 'ch_ops')?.name,
    ).toBe('Other ops');
    expect(
      emu()
        .channels()
        .find((c) => c.id === 'ch_ops')?.name,
    ).toBe('Ops mailbox');
    const summary = await call(emu(), 'GET', 'reports/rpt_summary', { token: 'cpk_test_other' });
    expect(summary.json.monitors).toEqual({ total: 1, pending: 1, up: 0, down: 0, paused: 0 });
  });
});

describe('the token option', () => {
  it('replaces the development token', async () => {
    const emu = await startEmulator({ port: 0, token: 'cpk_custom_1234' });
    try {
      expect(emu.token).toBe('cpk_custom_1234');
      expect((await call(emu, 'GET', 'reports/rpt_summary')).status).toBe(200);
      const old = await call(emu, 'GET', 'reports/rpt_summary', { token: 'cpk_dev_emulator_token' });
      expect(old.status).toBe(401);
      expect(old.json.error).toBe('invalid token');
    } finally {
      await emu.close();
    }
  });

  it('must start with cpk_', async () => {
    await expect(startEmulator({ port: 0, token: 'abc_123' })).rejects.toThrow('emulator token must start with cpk_');
    await expect(startEmulator({ port: 0, token: 'cpk_has space' })).rejects.toThrow(/no spaces/);
    await expect(startEmulator({ port: 0, token: 'cpk_test_readonly' })).rejects.toThrow(/collides/);
  });
});

describe('docs/emulator.md, "Tokens and scopes"', () => {
  it('names every scope an operation of the document requires', () => {
    const docs = readFileSync(new URL('../../docs/emulator.md', import.meta.url), 'utf8');
    const section = /- \*\*Tokens and scopes\.\*\*([\s\S]*?)Seeded\s+tokens/.exec(docs)?.[1] ?? '';
    const named = new Set([...section.matchAll(/`([a-z]+:[a-z]+)`/g)].map((m) => m[1]));
    const required = new Set<string>();
    for (const item of Object.values(publicDocument.paths as Record<string, Record<string, unknown>>))
      for (const op of Object.values(item))
        if (typeof op === 'object' && op !== null && 'x-required-scope' in op)
          required.add(String((op as Record<string, unknown>)['x-required-scope']));
    expect([...required].sort()).toEqual([...named].sort());
  });
});
