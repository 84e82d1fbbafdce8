// Requests a client should not send, refused rather than guessed at; and what the documents let a test send.
import { describe, expect, it } from 'vitest';
import { call, createMonitor, raw, useEmulator } from './helpers.js';

describe('ambiguous requests are refused, not guessed at', () => {
  const emu = useEmulator();

  it('two Authorization headers: 401 malformed, whichever comes first', async () => {
    for (const pair of [
      [`Bearer ${emu().token}`, 'Bearer nope'],
      ['Bearer nope', `Bearer ${emu().token}`],
    ]) {
      const res = await raw(emu(), 'GET', '/v1/monitors/mon_unknown', {
        authorization: pair as unknown as string,
      });
      expect(res.status).toBe(401);
      expect(JSON.parse(res.body).error).toBe('malformed Authorization header: sent more than once');
      expect(res.headers?.['www-authenticate']).toContain('error="invalid_token"');
    }
  });

  it('a query parameter given twice: 400 naming it', async () => {
    const res = await call(emu(), 'GET', 'monitors?limit=5&limit=6');
    expect([res.status, res.json.error]).toEqual([400, 'query parameter limit given more than once']);
    expect((await call(emu(), 'GET', 'monitors?limit=5')).status).toBe(200);
  });

  it('a body in a charset other than UTF-8: 415, nothing created', async () => {
    const before = emu().monitors().length;
    for (const type of ['application/json; charset=iso-8859-1', 'application/json;charset="latin1"']) {
      const res = await call(emu(), 'POST', 'monitors', {
        body: '{"name":"caf\u00e9"}',
        headers: { 'content-type': type },
      });
      expect(res.status, type).toBe(415);
      expect(res.json.error).toMatch(/^charset (iso-8859-1|latin1) is not supported: send the body as UTF-8$/);
    }
    expect(emu().monitors().length).toBe(before);
    const utf8 = await call(emu(), 'POST', 'monitors', {
      body: '{"name":"caf\u00e9"}',
      headers: { 'content-type': 'application/json; charset=UTF-8' },
    });
    expect([utf8.status, utf8.json.name]).toEqual([201, 'caf\u00e9']);
  });

  it('the admin document is not served without the admin secret', async () => {
    const url = `${emu().url}/__emulator/openapi.json`;
    const without = await fetch(url);
    expect(without.status).toBe(404);
    expect(((await without.json()) as { error: string }).error).toBe('not found');
    expect((await fetch(url, { headers: { 'x-emulator-admin': 'wrong' } })).status).toBe(404);
    const withSecret = await fetch(url, { headers: { 'x-emulator-admin': emu().adminSecret } });
    expect(withSecret.status).toBe(200);
    expect(((await withSecret.json()) as { info: { title: string } }).info.title).toBe('cpk emulator administration');
  });
});

describe('what the documents say a client may send', () => {
  const emu = useEmulator();

  it('target null, as responses show it: none on create, cleared on update', async () => {
    const created = await createMonitor(emu(), { name: 'n', target: null });
    expect(created.target).toBeNull();
    const monitor = await createMonitor(emu(), { name: 'm', target: 'https://up.example.com' });
    expect((await call(emu(), 'GET', `monitors/${monitor.id}`)).json.status).toBe('up');
    const cleared = await call(emu(), 'PATCH', `monitors/${monitor.id}`, { body: { target: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.json).toMatchObject({ target: null, status: 'pending', last_check: null });
    // A monitor without a target checks as down.
    expect((await call(emu(), 'GET', `monitors/${monitor.id}`)).json.status).toBe('down');
  });

  it("a fault's body may be a JSON object, sent as its JSON text", async () => {
    const res = await fetch(`${emu().url}/__emulator/faults`, {
      method: 'POST',
      headers: { 'x-emulator-admin': emu().adminSecret, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 429, body: { error: 'slow down', retry_in: 2 } }),
    });
    expect(res.status).toBe(201);
    const limited = await call(emu(), 'GET', 'reports/rpt_summary');
    expect(limited.status).toBe(429);
    expect(limited.text).toBe('{"error":"slow down","retry_in":2}');
    expect(limited.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });
});
