import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/server.js';
import { call, raw, useEmulator } from './helpers.js';

describe('admin routes', () => {
  const emu = useEmulator({ adminSecret: 'test-admin-secret' });
  const admin = { 'x-emulator-admin': 'test-admin-secret', 'content-type': 'application/json' };

  it('are 404 without the secret, or with a wrong one', async () => {
    const attempts: Array<Record<string, string>> = [
      {},
      { 'x-emulator-admin': 'wrong' },
      { 'x-emulator-admin': 'test-admin-secre' },
      { 'x-emulator-admin': '' },
    ];
    for (const headers of attempts) {
      for (const [method, path] of [
        ['GET', '/__emulator/requests'],
        ['POST', '/__emulator/faults'],
        ['DELETE', '/__emulator/faults'],
      ] as const) {
        const res = await raw(emu(), method, path, headers, method === 'POST' ? '{"status":500}' : undefined);
        expect(res.status).toBe(404);
        expect(JSON.parse(res.body)).toEqual({ error: 'not found', request_id: res.headers?.['x-request-id'] });
      }
    }
    // Nothing was queued by the rejected POSTs.
    expect((await call(emu(), 'GET', 'reports/rpt_summary')).status).toBe(200);
  });

  it('POST /__emulator/faults queues one fault or an array; GET lists; DELETE clears', async () => {
    const one = await raw(
      emu(),
      'POST',
      '/__emulator/faults',
      admin,
      JSON.stringify({ path: '/v1/reports/*', status: 500 }),
    );
    expect(one.status).toBe(201);
    expect(JSON.parse(one.body)).toEqual({ ok: true, queued: 1, pending: 1 });
    const two = await raw(
      emu(),
      'POST',
      '/__emulator/faults',
      admin,
      JSON.stringify([{ status: 502, times: 3 }, { kind: 'html' }]),
    );
    expect(JSON.parse(two.body)).toEqual({ ok: true, queued: 2, pending: 3 });
    const listed = JSON.parse((await raw(emu(), 'GET', '/__emulator/faults', admin)).body);
    expect(listed.faults).toEqual([
      { kind: 'status', path: '/v1/reports/*', times: 1, status: 500, remaining: 1 },
      { kind: 'status', times: 3, status: 502, remaining: 3 },
      { kind: 'html', times: 1, remaining: 1 },
    ]);
    expect((await call(emu(), 'GET', 'reports/rpt_summary')).status).toBe(500);
    expect((await call(emu(), 'GET', 'reports/rpt_summary')).status).toBe(502);
    const cleared = await raw(emu(), 'DELETE', '/__emulator/faults', admin);
    expect(JSON.parse(cleared.body)).toEqual({ ok: true, cleared: 2 });
    expect((await call(emu(), 'GET', 'reports/rpt_summary')).status).toBe(200);
  });

  it('rejects invalid faults (422) and malformed JSON (400), queuing nothing', async () => {
    const bad = await raw(
      emu(),
      'POST',
      '/__emulator/faults',
      admin,
      JSON.stringify([{ status: 500 }, { kind: 'nope' }]),
    );
    expect(bad.status).toBe(422);
    expect(JSON.parse(bad.body).error).toBe(
      'kind must be one of status, html, truncated, stall, reset, hang, redirect, commit-reset',
    );
    const malformed = await raw(emu(), 'POST', '/__emulator/faults', admin, '{');
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.body).error).toBe('malformed JSON body');
    expect(JSON.parse((await raw(emu(), 'GET', '/__emulator/faults', admin)).body).faults).toEqual([]);
  });

  it('unknown admin paths are 404 and wrong methods 405, with the secret', async () => {
    expect((await raw(emu(), 'GET', '/__emulator/nothing', admin)).status).toBe(404);
    const res = await raw(emu(), 'PUT', '/__emulator/requests', admin);
    expect(res.status).toBe(405);
    expect(res.headers?.allow).toBe('GET, DELETE');
  });

  it('GET /__emulator/requests returns the /v1 log with Authorization redacted', async () => {
    await raw(emu(), 'DELETE', '/__emulator/requests', admin);
    await call(emu(), 'POST', 'monitors', { body: { name: 'logged' } });
    await call(emu(), 'GET', 'openapi.json', { token: null });
    await call(emu(), 'GET', 'reports/rpt_summary', { token: 'cpk_test_readonly' });
    await call(emu(), 'GET', 'reports/rpt_summary', {
      headers: { authorization: 'Basic dXNlcjpwYXNzd29yZA==' },
      token: null,
    });
    const res = await raw(emu(), 'GET', '/__emulator/requests', admin);
    expect(res.status).toBe(200);
    const { requests } = JSON.parse(res.body);
    expect(requests.map((r: { method: string; path: string }) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/monitors',
      'GET /v1/openapi.json',
      'GET /v1/reports/rpt_summary',
      'GET /v1/reports/rpt_summary',
    ]);
    expect(requests[0].headers.authorization).toBe('Bearer cpk_…oken');
    expect(requests[0].headers['content-type']).toBe('application/json');
    expect(requests[0].body).toBe('{"name":"logged"}');
    // Arrival times, in arrival order: what tests of retry waits measure.
    const times = requests.map((r: { receivedAt: number }) => r.receivedAt);
    expect(times.every((t: unknown) => typeof t === 'number' && Number.isInteger(t))).toBe(true);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(requests[1].headers.authorization).toBeUndefined();
    expect(requests[2].headers.authorization).toBe('Bearer cpk_…only');
    expect(requests[3].headers.authorization).toBe('Basic …ZA==');
    expect(res.body).not.toContain('cpk_dev_emulator_token');
    expect(res.body).not.toContain('cpk_test_readonly');
    // In-process, the log keeps the headers as received (tests assert what the CLI sent).
    expect(emu().requests[0]?.headers.authorization).toBe('Bearer cpk_dev_emulator_token');
  });

  it('GET /__emulator/requests shows a token by its last 4 characters wherever it appears', async () => {
    await raw(emu(), 'DELETE', '/__emulator/requests', admin);
    const token = emu().token; // cpk_dev_emulator_token
    const opaque = 'opaque!secret-value-9876'; // not cpk-shaped: known because the request carried it
    await raw(
      emu(),
      'POST',
      `/v1/monitors/${token}?token=${encodeURIComponent(token)}&other=cpk_some_other_token_abcd`,
      {
        authorization: `Bearer ${token}`,
        'x-api-key': opaque,
        cookie: `session=${token}; other=${opaque}`,
        'content-type': 'application/json',
        'x-note': `(Bearer ${token})`,
      },
      JSON.stringify({ name: token, note: `key ${opaque}` }),
    );
    const res = await raw(emu(), 'GET', '/__emulator/requests', admin);
    for (const secret of [token, opaque, 'cpk_some_other_token_abcd', 'dev_emulator'])
      expect(res.body).not.toContain(secret);
    const [request] = JSON.parse(res.body).requests;
    expect(request.path).toBe('/v1/monitors/cpk_…oken?token=cpk_…oken&other=cpk_…abcd');
    expect(request.headers.authorization).toBe('Bearer cpk_…oken');
    expect(request.headers['x-api-key']).toBe('…9876');
    expect(request.headers.cookie).toBe('session=cpk_…oken; other=…9876');
    expect(request.headers['x-note']).toBe('(Bearer cpk_…oken)');
    expect(JSON.parse(request.body)).toEqual({ name: 'cpk_…oken', note: 'key …9876' });
  });

  it('admin requests are not recorded; DELETE /__emulator/requests empties the log', async () => {
    const before = emu().requests.length;
    await raw(emu(), 'GET', '/__emulator/faults', admin);
    expect(emu().requests.length).toBe(before);
    const res = await raw(emu(), 'DELETE', '/__emulator/requests', admin);
    expect(JSON.parse(res.body)).toEqual({ ok: true, cleared: before });
    expect(emu().requests).toEqual([]);
  });
});

describe('request log and log lines', () => {
  it('records every /v1 request in order with raw path and body, and logs lines without tokens', async () => {
    const lines: string[] = [];
    const emu = await startEmulator({ port: 0, log: (line) => lines.push(line) });
    try {
      await raw(emu, 'GET', '/v1/monitors/a%2Fb?token=cpk_leaky_secret', { authorization: `Bearer ${emu.token}` });
      await call(emu, 'PATCH', 'channels/ch_ops', { body: { enabled: false } });
      await raw(emu, 'GET', '/elsewhere');
      expect(emu.requests.map((r) => [r.method, r.path, r.body])).toEqual([
        ['GET', '/v1/monitors/a%2Fb?token=cpk_leaky_secret', ''],
        ['PATCH', '/v1/channels/ch_ops', '{"enabled":false}'],
      ]);
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatch(/^GET \/v1\/monitors\/a%2Fb\?token=cpk_… 404 \d+ms$/);
      expect(lines[1]).toMatch(/^PATCH \/v1\/channels\/ch_ops 200 \d+ms$/);
      expect(lines[2]).toMatch(/^GET \/elsewhere 404 \d+ms$/);
      expect(lines.join('\n')).not.toContain(emu.token);
      expect(lines.join('\n')).not.toContain('leaky');
      // A token the request carried is not logged either, whatever its shape.
      await raw(emu, 'GET', '/v1/monitors/opaque!secret-value?x=1', { authorization: 'Bearer opaque!secret-value' });
      expect(lines[3]).toMatch(/^GET \/v1\/monitors\/…\?x=1 401 \d+ms$/);
    } finally {
      await emu.close();
    }
  });
});
