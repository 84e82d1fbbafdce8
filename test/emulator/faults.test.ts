import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/server.js';
import { call, raw, useEmulator, waitForRequests } from './helpers.js';

describe('fault injection', () => {
  const emu = useEmulator();
  const auth = () => ({ authorization: `Bearer ${emu().token}` });
  const admin = () => ({ 'x-emulator-admin': emu().adminSecret, 'content-type': 'application/json' });

  afterEach(async () => {
    await raw(emu(), 'DELETE', '/__emulator/faults', admin());
  });

  it('kind status: default 503 error object, applied once', async () => {
    emu().injectFault({});
    const res = await call(emu(), 'GET', 'reports/rpt_summary');
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.json).toEqual({
      error: 'service unavailable (injected fault)',
      request_id: res.headers.get('x-request-id'),
    });
    expect((await call(emu(), 'GET', 'reports/rpt_summary')).status).toBe(200);
  });

  it('status, body, headers and retryAfter are used as given', async () => {
    emu().injectFault({ status: 429, retryAfter: '7', headers: { 'X-RateLimit-Remaining': '0' } });
    const limited = await call(emu(), 'GET', 'reports/rpt_summary');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(limited.json).toEqual({
      error: 'too many requests (injected fault)',
      request_id: limited.headers.get('x-request-id'),
    });

    emu().injectFault({ status: 200, body: '{"unexpected": "shape"}' });
    const odd = await call(emu(), 'GET', 'reports/rpt_summary');
    expect(odd.status).toBe(200);
    expect(odd.json).toEqual({ unexpected: 'shape' });
  });

  it('times applies the fault to that many matching requests', async () => {
    emu().injectFault({ times: 2, status: 500 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(emu(), 'GET', 'reports/rpt_summary')).status);
    expect(statuses).toEqual([500, 500, 200]);
  });

  it('matches method and path (exact, or prefix with *), FIFO among matches', async () => {
    emu().injectFault({ method: 'post', status: 502 });
    emu().injectFault({ path: '/v1/reports/rpt_summary', status: 504 });
    emu().injectFault({ path: '/v1/reports/*', status: 500 });
    emu().injectFault({ path: '/v1/reports/*', status: 501 });
    expect((await call(emu(), 'GET', 'reports/rpt_other')).status).toBe(500); // exact fault does not match, first prefix does
    expect((await call(emu(), 'GET', 'reports/rpt_summary')).status).toBe(504);
    expect((await call(emu(), 'GET', 'reports/rpt_summary')).status).toBe(501);
    expect((await call(emu(), 'GET', 'reports/rpt_summary')).status).toBe(200);
    expect((await call(emu(), 'POST', 'monitors', { body: { name: 'x' } })).status).toBe(502);
    // The path is matched without the query string, against the raw (encoded) path.
    emu().injectFault({ path: '/v1/monitors/a%2Fb', status: 418 });
    expect((await raw(emu(), 'GET', '/v1/monitors/a%2Fb?x=1', auth())).status).toBe(418);
  });

  it('a faulted request is recorded but never reaches auth or the store', async () => {
    emu().injectFault({ method: 'POST', path: '/v1/monitors', status: 503 });
    const before = emu().requests.length;
    const res = await call(emu(), 'POST', 'monitors', { body: { name: 'never' }, token: null });
    expect(res.status).toBe(503);
    expect(
      emu()
        .monitors()
        .some((m) => m.name === 'never'),
    ).toBe(false);
    expect(emu().requests.length).toBe(before + 1);
    expect(emu().requests.at(-1)).toMatchObject({ method: 'POST', path: '/v1/monitors', body: '{"name":"never"}' });
  });

  it('a fault without path skips openapi.json; one with a path can hit it', async () => {
    emu().injectFault({ status: 500 });
    expect((await call(emu(), 'GET', 'openapi.json')).status).toBe(200);
    expect((await call(emu(), 'GET', 'reports/rpt_summary')).status).toBe(500);
    emu().injectFault({ path: '/v1/openapi.json', status: 500 });
    expect((await call(emu(), 'GET', 'openapi.json')).status).toBe(500);
  });

  it('kind html: an HTML page with text/html, default 502', async () => {
    emu().injectFault({ kind: 'html' });
    const res = await call(emu(), 'GET', 'reports/rpt_summary');
    expect(res.status).toBe(502);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('<h1>502 Bad Gateway</h1>');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('kind truncated: 200, a longer Content-Length than sent, then the connection drops', async () => {
    emu().injectFault({ kind: 'truncated', body: '{"id":"mon_aaaaaaaaaaaa","status":"up"}' });
    const res = await raw(emu(), 'GET', '/v1/monitors/mon_aaaaaaaaaaaa', auth());
    expect(res.status).toBe(200);
    expect(res.headers?.['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers?.['content-length']).toBe('39');
    expect(res.body).toBe('{"id":"mon_aaaaaaaa'); // the first floor(39 / 2) = 19 bytes
    expect(res.error).toBeDefined();
  });

  it('kind stall: 200 and half the body, then nothing more until the client gives up', async () => {
    emu().injectFault({ kind: 'stall', body: '{"id":"mon_aaaaaaaaaaaa","status":"up"}' });
    const controller = new AbortController();
    const res = await fetch(`${emu().baseUrl}/reports/rpt_summary`, { headers: auth(), signal: controller.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('39');
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value!).toString('utf8')).toBe('{"id":"mon_aaaaaaaa');
    // The connection stays open: the next read ends only because the client aborts.
    const next = reader.read().then(
      () => 'more data',
      (err: Error) => err.name,
    );
    controller.abort();
    expect(await next).toBe('AbortError');
    expect((await call(emu(), 'GET', 'reports/rpt_summary')).status).toBe(200);
  });

  it('kind truncated breaks fetch body reading', async () => {
    emu().injectFault({ kind: 'truncated' });
    const res = await fetch(`${emu().baseUrl}/reports/rpt_summary`, { headers: auth() });
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
  });

  it('kind reset: the connection is reset with no response', async () => {
    emu().injectFault({ kind: 'reset' });
    const res = await raw(emu(), 'GET', '/v1/reports/rpt_summary', auth());
    expect(res.status).toBeUndefined();
    expect(res.error).toBe('ECONNRESET');
    expect((await raw(emu(), 'GET', '/v1/reports/rpt_summary', auth())).status).toBe(200);
  });

  it('kind commit-reset: the write is applied, then the connection is reset where its answer would go', async () => {
    const created = await call(emu(), 'POST', 'monitors', { body: { name: 'before' } });
    emu().injectFault({ method: 'PATCH', path: '/v1/monitors/*', kind: 'commit-reset' });
    const res = await raw(
      emu(),
      'PATCH',
      `/v1/monitors/${created.json.id}`,
      { ...auth(), 'content-type': 'application/json' },
      '{"name":"after"}',
    );
    expect(res.error).toBe('ECONNRESET');
    expect(res.status).toBeUndefined();
    expect(
      emu()
        .monitors()
        .find((m) => m.id === created.json.id)?.name,
    ).toBe('after');
    // The log shows the request, answered by nothing.
    expect(emu().requests.at(-1)).toMatchObject({ method: 'PATCH', status: null });
    // A refused write is lost the same way, and changes nothing.
    emu().injectFault({ method: 'POST', path: '/v1/monitors', kind: 'commit-reset' });
    const before = emu().monitors().length;
    const refused = await raw(emu(), 'POST', '/v1/monitors', { ...auth(), 'content-type': 'application/json' }, '{}');
    expect(refused.error).toBe('ECONNRESET');
    expect(emu().monitors()).toHaveLength(before);
  });

  it('kind redirect: 307 with Location and empty body; status overridable', async () => {
    emu().injectFault({ kind: 'redirect', location: 'https://elsewhere.invalid/v1/reports/rpt_summary' });
    const res = await raw(emu(), 'GET', '/v1/reports/rpt_summary', auth());
    expect(res.status).toBe(307);
    expect(res.headers?.location).toBe('https://elsewhere.invalid/v1/reports/rpt_summary');
    expect(res.body).toBe('');
    emu().injectFault({ kind: 'redirect', status: 301, location: '/v1/reports/rpt_summary' });
    expect((await raw(emu(), 'GET', '/v1/reports/rpt_summary', auth())).status).toBe(301);
  });

  it('kind hang: no answer until the client gives up', async () => {
    emu().injectFault({ kind: 'hang' });
    const controller = new AbortController();
    const start = emu().requests.length;
    const pending = fetch(`${emu().baseUrl}/reports/rpt_summary`, { headers: auth(), signal: controller.signal }).then(
      (res) => res.status,
      (err: Error) => err.name,
    );
    await waitForRequests(emu(), start + 1);
    controller.abort();
    expect(await pending).toBe('AbortError');
    expect((await call(emu(), 'GET', 'reports/rpt_summary')).status).toBe(200);
  });

  it('delayMs still answers with the fault', async () => {
    emu().injectFault({ status: 500, delayMs: 20 });
    expect((await call(emu(), 'GET', 'reports/rpt_summary')).status).toBe(500);
  });

  it('invalid faults are rejected', () => {
    const bad: Array<[unknown, string]> = [
      [{ kind: 'explode' }, 'kind must be one of status, html, truncated, stall, reset, hang, redirect, commit-reset'],
      [{ times: 0 }, 'times must be a positive integer'],
      [{ status: 99 }, 'status must be an integer between 200 and 599 for kind status'],
      [{ kind: 'redirect' }, 'location is required for kind redirect'],
      [
        { kind: 'redirect', location: '/x', status: 200 },
        'status must be an integer between 300 and 399 for kind redirect',
      ],
      [{ path: 'v1/monitors' }, 'path must be a string starting with /'],
      [{ headers: { 'bad name': 'x' } }, 'invalid header name: bad name'],
      [{ delayMs: -1 }, 'delayMs must be an integer between 0 and 600000'],
      [{ colour: 'red' }, 'unknown fault field: colour'],
    ];
    for (const [fault, message] of bad) expect(() => emu().injectFault(fault as never), message).toThrow(message);
  });
});

describe('latencyMs and failRate options', () => {
  it('latencyMs delays but answers normally', async () => {
    const emu = await startEmulator({ port: 0, latencyMs: 15 });
    try {
      expect((await call(emu, 'GET', 'reports/rpt_summary')).status).toBe(200);
    } finally {
      await emu.close();
    }
  });

  it('failRate uses the injected random: below the rate fails, otherwise answers', async () => {
    const values = [0.1, 0.9, 0.49, 0.5];
    const emu = await startEmulator({ port: 0, failRate: 0.5, random: () => values.shift() ?? 0.99 });
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await call(emu, 'GET', 'reports/rpt_summary')).status);
      expect(statuses).toEqual([503, 200, 503, 200]);
      expect(emu.requests).toHaveLength(4);
    } finally {
      await emu.close();
    }
  });

  it('failRate never creates anything', async () => {
    const emu = await startEmulator({ port: 0, failRate: 1 });
    try {
      expect((await call(emu, 'POST', 'monitors', { body: { name: 'x' } })).status).toBe(503);
      expect(emu.monitors()).toEqual([]);
    } finally {
      await emu.close();
    }
  });

  it('options are checked', async () => {
    await expect(startEmulator({ port: 0, failRate: 2 })).rejects.toThrow('failRate must be between 0 and 1');
    await expect(startEmulator({ port: 0, latencyMs: -1 })).rejects.toThrow('latencyMs must be a non-negative number');
    await expect(startEmulator({ port: 70000 })).rejects.toThrow('port must be an integer between 0 and 65535');
    await expect(startEmulator({ port: 0, adminSecret: '' })).rejects.toThrow('adminSecret must be a non-empty string');
  });
});
