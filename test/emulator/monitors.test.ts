import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/server.js';
import { call, createMonitor, raw, useEmulator } from './helpers.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('POST /v1/monitors', () => {
  const emu = useEmulator();

  it('creates a pending monitor with defaults, 201 and Location', async () => {
    const res = await call(emu(), 'POST', 'monitors', {
      body: { name: 'Homepage', target: 'https://example.com/health' },
    });
    expect(res.status).toBe(201);
    const m = res.json;
    expect(m.id).toMatch(/^mon_[a-z2-7]{12}$/);
    expect(res.headers.get('location')).toBe(`/v1/monitors/${m.id}`);
    expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{16}$/);
    expect(m).toEqual({
      id: m.id,
      name: 'Homepage',
      type: 'http',
      target: 'https://example.com/health',
      interval_seconds: 60,
      paused: false,
      status: 'pending',
      created_at: m.created_at,
      updated_at: m.created_at,
      last_check: null,
      report_id: `rpt_${m.id.slice(4)}`,
    });
    expect(m.created_at).toMatch(ISO);
    expect(
      emu()
        .monitors()
        .find((x) => x.id === m.id),
    ).toEqual(m);
  });

  it('accepts a monitor without target (stored as null) and every type', async () => {
    expect((await createMonitor(emu(), { name: 'bare' })).target).toBeNull();
    for (const [type, target] of [
      ['tcp', 'db.example.com:5432'],
      ['tcp', '[::1]:22'],
      ['ping', '10.0.0.1'],
      ['dns', 'example.com'],
    ]) {
      const m = await createMonitor(emu(), { name: type, type, target, interval_seconds: 30 });
      expect(m).toMatchObject({ type, target, interval_seconds: 30 });
    }
  });

  it('stores and returns extra fields exactly as sent, any JSON type', async () => {
    const extras = {
      team: 'web',
      tags: ['a', 1, null],
      meta: { nested: { deep: true } },
      weight: 2.5,
      note: null,
      flag: false,
    };
    const m = await createMonitor(emu(), { name: 'extras', ...extras });
    expect(m).toMatchObject(extras);
    const got = await call(emu(), 'GET', `monitors/${m.id}`);
    expect(got.json).toMatchObject(extras);
    const patched = await call(emu(), 'PATCH', `monitors/${m.id}`, { body: { team: 'ops', added: [1] } });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ ...extras, team: 'ops', added: [1] });
  });

  it('keeps a "__proto__" field as plain data', async () => {
    const res = await call(emu(), 'POST', 'monitors', { body: '{"name":"proto","__proto__":{"polluted":true}}' });
    expect(res.status).toBe(201);
    expect(JSON.parse(res.text).__proto__).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  const invalid: Array<[string, unknown, string]> = [
    ['missing name', { target: 'https://example.com' }, 'name is required'],
    ['name not a string', { name: 42 }, 'name must be a string'],
    ['name null', { name: null }, 'name must be a string'],
    ['empty name', { name: '' }, 'name must not be empty'],
    ['blank name', { name: '   ' }, 'name must not be empty'],
    ['long name', { name: 'x'.repeat(201) }, 'name must be at most 200 characters'],
    ['unknown type', { name: 'a', type: 'smtp' }, 'type must be one of http, tcp, ping, dns'],
    ['target not a string', { name: 'a', target: 5 }, 'target must be a string or null'],
    [
      'http target not a URL',
      { name: 'a', target: 'example.com' },
      'target must be an http:// or https:// URL for type http',
    ],
    [
      'ftp target',
      { name: 'a', target: 'ftp://example.com' },
      'target must be an http:// or https:// URL for type http',
    ],
    ['empty target', { name: 'a', target: '' }, 'target must be an http:// or https:// URL for type http'],
    [
      'long target',
      { name: 'a', target: `https://example.com/${'x'.repeat(2048)}` },
      'target must be at most 2048 characters',
    ],
    [
      'tcp without port',
      { name: 'a', type: 'tcp', target: 'db.example.com' },
      'target must be host:port (port 1-65535) for type tcp',
    ],
    [
      'tcp port 0',
      { name: 'a', type: 'tcp', target: 'db.example.com:0' },
      'target must be host:port (port 1-65535) for type tcp',
    ],
    [
      'tcp port too big',
      { name: 'a', type: 'tcp', target: 'db:70000' },
      'target must be host:port (port 1-65535) for type tcp',
    ],
    [
      'ping URL',
      { name: 'a', type: 'ping', target: 'https://example.com' },
      'target must be a hostname or IP address for type ping',
    ],
    [
      'dns with port',
      { name: 'a', type: 'dns', target: 'example.com:53' },
      'target must be a hostname or IP address for type dns',
    ],
    [
      'interval too small',
      { name: 'a', interval_seconds: 29 },
      'interval_seconds must be an integer between 30 and 86400',
    ],
    [
      'interval too big',
      { name: 'a', interval_seconds: 86401 },
      'interval_seconds must be an integer between 30 and 86400',
    ],
    [
      'interval fraction',
      { name: 'a', interval_seconds: 60.5 },
      'interval_seconds must be an integer between 30 and 86400',
    ],
    [
      'interval string',
      { name: 'a', interval_seconds: '60' },
      'interval_seconds must be an integer between 30 and 86400',
    ],
    ['paused not boolean', { name: 'a', paused: 'yes' }, 'paused must be a boolean'],
    ['read-only id', { name: 'a', id: 'mon_mine' }, 'id is read-only'],
    ['read-only status', { name: 'a', status: 'up' }, 'status is read-only'],
    ['read-only created_at', { name: 'a', created_at: 'x' }, 'created_at is read-only'],
    ['read-only updated_at', { name: 'a', updated_at: 'x' }, 'updated_at is read-only'],
    ['read-only last_check', { name: 'a', last_check: null }, 'last_check is read-only'],
    ['read-only report_id', { name: 'a', report_id: 'rpt_x' }, 'report_id is read-only'],
  ];

  it.each(invalid)('422 for %s', async (_name, body, message) => {
    const before = emu().monitors().length;
    const res = await call(emu(), 'POST', 'monitors', { body });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({ error: message, request_id: res.headers.get('x-request-id') });
    expect(emu().monitors()).toHaveLength(before);
  });

  it('accepts the bounds of interval_seconds and name', async () => {
    expect((await createMonitor(emu(), { name: 'x'.repeat(200), interval_seconds: 30 })).interval_seconds).toBe(30);
    expect((await createMonitor(emu(), { name: 'max', interval_seconds: 86400 })).interval_seconds).toBe(86400);
  });

  const unreadable: Array<[string, string, string]> = [
    ['malformed JSON', '{"name": ', 'malformed JSON body'],
    ['an array', '[{"name":"a"}]', 'request body must be a JSON object'],
    ['null', 'null', 'request body must be a JSON object'],
    ['a string', '"name"', 'request body must be a JSON object'],
    ['empty', '', 'request body is empty; expected a JSON object'],
  ];

  it.each(unreadable)('400 for %s', async (_name, body, message) => {
    const res = await raw(
      emu(),
      'POST',
      '/v1/monitors',
      { authorization: `Bearer ${emu().token}`, 'content-type': 'application/json' },
      body,
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ error: message, request_id: res.headers?.['x-request-id'] });
  });

  it('415 for a body that is not declared as JSON', async () => {
    const res = await call(emu(), 'POST', 'monitors', {
      body: '{"name":"a"}',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(415);
    expect(res.json.error).toBe('Content-Type must be application/json');
    const ok = await call(emu(), 'POST', 'monitors', {
      body: '{"name":"a"}',
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(ok.status).toBe(201);
  });

  it('413 for a body over 1 MiB; exactly 1 MiB is accepted', async () => {
    const big = JSON.stringify({ name: 'big', pad: 'x'.repeat(1024 * 1024) });
    const res = await call(emu(), 'POST', 'monitors', { body: big });
    expect(res.status).toBe(413);
    expect(res.json.error).toBe('request body exceeds 1048576 bytes');
    const prefix = '{"name":"fits","pad":"';
    const fits = prefix + 'x'.repeat(1024 * 1024 - prefix.length - 2) + '"}';
    expect(Buffer.byteLength(fits)).toBe(1024 * 1024);
    expect((await call(emu(), 'POST', 'monitors', { body: fits })).status).toBe(201);
  });
});

describe('GET / PATCH / DELETE /v1/monitors/{id}', () => {
  const emu = useEmulator();

  it('GET returns the monitor; unknown id is 404', async () => {
    const m = await createMonitor(emu(), { name: 'g', target: 'https://example.com' });
    const res = await call(emu(), 'GET', `monitors/${m.id}`);
    expect(res.status).toBe(200);
    expect(res.json.id).toBe(m.id);
    const missing = await call(emu(), 'GET', 'monitors/mon_aaaaaaaaaaaa');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ error: 'monitor not found', request_id: missing.headers.get('x-request-id') });
  });

  it('PATCH updates some fields and returns the full monitor', async () => {
    const m = await createMonitor(emu(), { name: 'p', target: 'https://example.com' });
    const res = await call(emu(), 'PATCH', `monitors/${m.id}`, { body: { name: 'renamed', interval_seconds: 300 } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      id: m.id,
      name: 'renamed',
      interval_seconds: 300,
      target: 'https://example.com',
      type: 'http',
      created_at: m.created_at,
    });
    expect(Object.keys(res.json)).toEqual(Object.keys(m));
  });

  it('PATCH validation: 422 messages, and a failed PATCH changes nothing', async () => {
    const m = await createMonitor(emu(), { name: 'v', target: 'https://example.com' });
    const cases: Array<[unknown, string]> = [
      [{}, 'nothing to update'],
      [{ name: '' }, 'name must not be empty'],
      [{ name: 'ok', status: 'up' }, 'status is read-only'],
      [{ type: 'tcp' }, 'target must be host:port (port 1-65535) for type tcp'],
      [{ target: 'db:5432' }, 'target must be an http:// or https:// URL for type http'],
      [{ interval_seconds: 10 }, 'interval_seconds must be an integer between 30 and 86400'],
      [{ paused: 1 }, 'paused must be a boolean'],
      [{ target: true }, 'target must be a string or null'],
    ];
    for (const [body, message] of cases) {
      const res = await call(emu(), 'PATCH', `monitors/${m.id}`, { body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.json.error).toBe(message);
    }
    expect((await call(emu(), 'PATCH', `monitors/${m.id}`, { body: '[]' })).status).toBe(400);
    expect((await call(emu(), 'PATCH', `monitors/${m.id}`, { body: '{' })).status).toBe(400);
    expect(
      emu()
        .monitors()
        .find((x) => x.id === m.id),
    ).toEqual(m);
    const both = await call(emu(), 'PATCH', `monitors/${m.id}`, { body: { type: 'tcp', target: 'db:5432' } });
    expect(both.status).toBe(200);
    expect(both.json).toMatchObject({ type: 'tcp', target: 'db:5432' });
  });

  it('PATCH of an unknown id is 404 even with an invalid body', async () => {
    const res = await call(emu(), 'PATCH', 'monitors/mon_nothinghere', { body: {} });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('monitor not found');
  });

  it('DELETE answers 204 with no body, then 404', async () => {
    const m = await createMonitor(emu(), { name: 'd' });
    const res = await call(emu(), 'DELETE', `monitors/${m.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect((await call(emu(), 'GET', `monitors/${m.id}`)).status).toBe(404);
    const again = await call(emu(), 'DELETE', `monitors/${m.id}`);
    expect(again.status).toBe(404);
    expect(again.json.error).toBe('monitor not found');
    expect(
      emu()
        .monitors()
        .some((x) => x.id === m.id),
    ).toBe(false);
  });
});

describe('monitor states', () => {
  const emu = useEmulator();

  it('pending -> up on the first GET, with a simulated last_check', async () => {
    const m = await createMonitor(emu(), { name: 's', target: 'https://example.com' });
    expect(m.status).toBe('pending');
    const first = (await call(emu(), 'GET', `monitors/${m.id}`)).json;
    expect(first.status).toBe('up');
    expect(first.last_check.status).toBe('up');
    expect(first.last_check.latency_ms).toBeGreaterThanOrEqual(20);
    expect(first.last_check.latency_ms).toBeLessThan(300);
    expect(first.last_check.checked_at).toMatch(ISO);
    expect(first.updated_at).toBe(m.updated_at);
    const second = (await call(emu(), 'GET', `monitors/${m.id}`)).json;
    expect(second.last_check).toEqual(first.last_check);
  });

  it('pending -> down when the host contains "down", or there is no target', async () => {
    for (const body of [
      { name: 'http', target: 'https://api-DOWN.example.com/x' },
      { name: 'tcp', type: 'tcp', target: 'down.example.com:443' },
      { name: 'dns', type: 'dns', target: 'shutdown.example' },
      { name: 'none' },
    ]) {
      const m = await createMonitor(emu(), body);
      const got = (await call(emu(), 'GET', `monitors/${m.id}`)).json;
      expect(got.status, body.name).toBe('down');
      expect(got.last_check).toMatchObject({ status: 'down', latency_ms: null });
    }
    // Only the host counts: "down" in the path does not.
    const m = await createMonitor(emu(), { name: 'path', target: 'https://example.com/down' });
    expect((await call(emu(), 'GET', `monitors/${m.id}`)).json.status).toBe('up');
  });

  it('paused via PATCH, back to pending on resume, checked again on GET', async () => {
    const m = await createMonitor(emu(), { name: 'p', target: 'https://example.com' });
    await call(emu(), 'GET', `monitors/${m.id}`);
    const paused = await call(emu(), 'PATCH', `monitors/${m.id}`, { body: { paused: true } });
    expect(paused.json).toMatchObject({ status: 'paused', paused: true });
    expect((await call(emu(), 'GET', `monitors/${m.id}`)).json.status).toBe('paused');
    const resumed = await call(emu(), 'PATCH', `monitors/${m.id}`, { body: { paused: false } });
    expect(resumed.json).toMatchObject({ status: 'pending', paused: false });
    expect((await call(emu(), 'GET', `monitors/${m.id}`)).json.status).toBe('up');
    // paused: false on a running monitor changes nothing.
    expect((await call(emu(), 'PATCH', `monitors/${m.id}`, { body: { paused: false } })).json.status).toBe('up');
  });

  it('created paused; a target change sends it back to pending', async () => {
    const p = await createMonitor(emu(), { name: 'cp', paused: true, target: 'https://example.com' });
    expect(p).toMatchObject({ status: 'paused', paused: true });
    const m = await createMonitor(emu(), { name: 'tc', target: 'https://example.com' });
    await call(emu(), 'GET', `monitors/${m.id}`);
    const changed = await call(emu(), 'PATCH', `monitors/${m.id}`, { body: { target: 'https://down.example.com' } });
    expect(changed.json).toMatchObject({ status: 'pending', last_check: null });
    expect((await call(emu(), 'GET', `monitors/${m.id}`)).json.status).toBe('down');
  });
});

describe('routing of monitor ids', () => {
  const emu = useEmulator();
  const auth = () => ({ authorization: `Bearer ${emu().token}` });

  it('an id with %2F is one id that does not exist, never another route', async () => {
    const m = await createMonitor(emu(), { name: 'r' });
    for (const path of [
      `/v1/monitors/${m.id}%2F`,
      `/v1/monitors/x%2F..%2F${m.id}`,
      '/v1/monitors/..%2Freports%2Frpt_summary',
      `/v1/monitors/%2E%2E`,
    ]) {
      const res = await raw(emu(), 'GET', path, auth());
      expect(res.status, path).toBe(404);
      expect(JSON.parse(res.body).error, path).toBe('monitor not found');
    }
    expect(emu().requests.at(-1)?.path).toBe('/v1/monitors/%2E%2E');
    // Percent-encoded letters decode to the real id.
    const encoded = `/v1/monitors/${encodeURIComponent(m.id).replace('m', '%6D')}`;
    expect((await raw(emu(), 'GET', encoded, auth())).status).toBe(200);
  });

  it('malformed percent-encoding is 404 monitor not found', async () => {
    const res = await raw(emu(), 'GET', '/v1/monitors/%E0%A4%A', auth());
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body).error).toBe('monitor not found');
  });

  it('extra segments, trailing slashes and dot segments are unknown routes', async () => {
    for (const path of [
      '/v1/monitors/a/b',
      '/v1/monitors/',
      '/v1/monitors/mon_x/report',
      '/v1//monitors',
      '/v1/monitors/../reports/rpt_summary',
    ]) {
      const res = await raw(emu(), 'GET', path, auth());
      expect(res.status, path).toBe(404);
      expect(JSON.parse(res.body).error, path).toBe('not found');
    }
  });

  it('the query string is ignored', async () => {
    const res = await raw(emu(), 'GET', '/v1/reports/rpt_summary?x=1', auth());
    expect(res.status).toBe(200);
  });

  it('wrong methods are 405 with Allow', async () => {
    const cases: Array<[string, string, string]> = [
      ['PUT', '/v1/monitors', 'GET, POST'],
      ['PUT', '/v1/monitors/mon_x', 'GET, PATCH, DELETE'],
      ['POST', '/v1/monitors/mon_x', 'GET, PATCH, DELETE'],
      ['DELETE', '/v1/reports/rpt_summary', 'GET'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await raw(emu(), method, path, auth());
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers?.allow).toBe(allow);
      expect(JSON.parse(res.body)).toEqual({
        error: `method ${method} not allowed; allowed: ${allow}`,
        request_id: res.headers?.['x-request-id'],
      });
    }
  });

  it('paths outside /v1 are 404 without authentication and are not recorded', async () => {
    const before = emu().requests.length;
    for (const path of ['/', '/v2/monitors', '/monitors', '/v1x']) {
      const res = await raw(emu(), 'GET', path);
      expect(res.status, path).toBe(404);
      expect(JSON.parse(res.body)).toEqual({ error: 'not found', request_id: res.headers?.['x-request-id'] });
    }
    expect(emu().requests.length).toBe(before);
  });
});

describe("a monitor's own fields keep their numbers as the client wrote them", () => {
  const emu = useEmulator();

  it('create, update and read back: open fields exact; typed fields read as numbers', async () => {
    const created = await call(emu(), 'POST', 'monitors', {
      body: '{"name":"exact","interval_seconds":120.0,"big":9007199254740993,"l":[-12345678901234567890,1.50,-0]}',
    });
    expect(created.status).toBe(201);
    const id = created.json.id as string;
    const patched = await call(emu(), 'PATCH', `monitors/${id}`, {
      body: '{"o":{"d":0.1000000000000000055511151231257827}}',
    });
    expect(patched.status).toBe(200);
    const got = await call(emu(), 'GET', `monitors/${id}`);
    expect(got.text).toContain('"interval_seconds":120,');
    expect(got.text).toContain(
      '"big":9007199254740993,"l":[-12345678901234567890,1.50,-0],"o":{"d":0.1000000000000000055511151231257827}}',
    );
  });

  it('--persist: a restart reads them back as written', async () => {
    const persistFile = join(mkdtempSync(join(tmpdir(), 'cpk-exact-persist-')), 'state.json');
    const first = await startEmulator({ port: 0, persistFile });
    const created = await call(first, 'POST', 'monitors', { body: '{"name":"kept","big":12345678901234567890}' });
    await first.close();
    const second = await startEmulator({ port: 0, persistFile });
    const got = await call(second, 'GET', `monitors/${created.json.id as string}`);
    await second.close();
    expect(got.text).toContain('"big":12345678901234567890}');
  });
});
