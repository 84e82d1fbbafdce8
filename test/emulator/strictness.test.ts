// Requests a client should not send, refused rather than guessed at; and what the documents let a test send.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { adminDocument, publicDocument } from '../../src/emulator/openapi.js';
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

describe('every status the emulator sends is declared where it sends it', () => {
  const emu = useEmulator();
  const admin = () => ({ 'x-emulator-admin': emu().adminSecret });

  /** The responses each operation of `path` declares for `status` (the admin document for /__emulator paths). */
  function declared(path: string, status: number): Array<Record<string, unknown> | undefined> {
    const isAdmin = path.startsWith('/__emulator');
    const doc = (isAdmin ? adminDocument : publicDocument) as { paths: Record<string, Record<string, unknown>> };
    const item = doc.paths[isAdmin ? path : path.replace(/^\/v1/, '').replace(/\/mon_\w+$/, '/{id}')] ?? {};
    const ops = Object.values(item).filter((op) => typeof op === 'object' && op !== null && 'operationId' in op);
    expect(ops.length, path).toBeGreaterThan(0);
    const responses = (doc as unknown as { components: { responses: Record<string, Record<string, unknown>> } })
      .components.responses;
    return ops.map((op) => {
      const response = (op as unknown as { responses: Record<string, { $ref?: string }> }).responses[String(status)];
      // A shared response by reference, or one written in place.
      return response?.$ref === undefined ? response : responses[response.$ref.split('/').pop() ?? ''];
    });
  }

  /** One request written as raw bytes: the status line's code. */
  function rawStatus(bytes: string): Promise<number> {
    const { hostname, port } = new URL(emu().url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => socket.end(bytes));
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1])));
      socket.on('error', reject);
    });
  }

  it('405 with Allow, on each operation of the path', async () => {
    const res = await raw(emu(), 'PUT', '/v1/monitors/mon_x', { authorization: `Bearer ${emu().token}` });
    expect([res.status, res.headers?.allow]).toEqual([405, 'GET, PATCH, DELETE']);
    for (const response of declared('/v1/monitors/mon_x', 405))
      expect(Object.keys((response as { headers: object }).headers)).toContain('Allow');
    const onAdmin = await raw(emu(), 'PUT', '/__emulator/checks', admin());
    expect([onAdmin.status, onAdmin.headers?.allow]).toEqual([405, 'GET']);
    for (const response of declared('/__emulator/checks', 405)) expect(response).toBeDefined();
  });

  it('431 and 400 "malformed HTTP request", answered before any route is known', async () => {
    const big = await raw(emu(), 'GET', '/v1/monitors', { 'x-padding': 'x'.repeat(20_000) });
    expect(big.status).toBe(431);
    const malformed = await rawStatus('GET /v1/monitors HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n');
    expect(malformed).toBe(400);
    for (const path of ['/v1/monitors', '/v1/monitors/mon_x', '/v1/reports', '/v1/openapi.json', '/__emulator/faults'])
      for (const status of [400, 408, 431])
        expect(declared(path, status), `${status} ${path}`).not.toContain(undefined);
  });

  it('the statuses of faults: 429, 500, 502 (an HTML page) and 503', async () => {
    for (const [fault, status] of [
      [{ status: 429 }, 429],
      [{ status: 500 }, 500],
      [{ kind: 'html' }, 502],
      [{}, 503],
    ] as const) {
      emu().injectFault(fault);
      expect((await call(emu(), 'GET', 'monitors/mon_x')).status).toBe(status);
      for (const path of ['/v1/monitors', '/v1/monitors/mon_x', '/v1/channels', '/v1/reports', '/v1/openapi.json'])
        expect(declared(path, status), `${status} ${path}`).not.toContain(undefined);
    }
    const [html] = declared('/v1/monitors/mon_x', 502) as Array<{ content: object }>;
    expect(Object.keys(html?.content ?? {})).toEqual(['application/json', 'text/html']);
  });
});
