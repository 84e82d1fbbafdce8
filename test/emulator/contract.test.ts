import { describe, expect, it } from 'vitest';
import { checkResponse } from '../../src/emulator/contract.js';
import { FAULT_KINDS } from '../../src/emulator/faults.js';
import {
  CHANNEL_KINDS,
  MAX_BODY_BYTES,
  MONITOR_STATUSES,
  MONITOR_TYPES,
  MONITOR_WRITABLE_FIELDS,
} from '../../src/emulator/model.js';
import { buildAdminDocument, buildOpenApiDocument } from '../../src/emulator/openapi.js';
import { call, createMonitor, useEmulator } from './helpers.js';

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

describe('the response check (what the suite runs on every answer)', () => {
  it('finds an undeclared status, a body that breaks the schema, a body where none is declared', () => {
    const base = { method: 'GET', url: '/v1/monitors/mon_x', contentType: 'application/json' };
    expect(checkResponse({ ...base, status: 418, body: json({}) })).toEqual([
      'GET /v1/monitors/mon_x -> 418: status 418 is not declared for getMonitor',
    ]);
    expect(checkResponse({ ...base, status: 200, body: json({ id: 'mon_x' }) }).length).toBeGreaterThan(0);
    expect(checkResponse({ ...base, status: 404, body: json({ message: 'monitor not found' }) })).toEqual([
      "GET /v1/monitors/mon_x -> 404: (body) must have required property 'error'",
    ]);
    expect(checkResponse({ ...base, method: 'DELETE', status: 204, body: json({}) })).toEqual([
      'DELETE /v1/monitors/mon_x -> 204: a body where deleteMonitor 204 declares none',
    ]);
    expect(checkResponse({ ...base, method: 'HEAD', status: 200, body: json({}) })).toEqual([
      'HEAD /v1/monitors/mon_x -> 200: HEAD answered with a body',
    ]);
    // The admin routes answer to their own document; one missing from it is a violation.
    const admin = { method: 'DELETE', url: '/__emulator/faults', contentType: 'application/json', status: 200 };
    expect(checkResponse({ ...admin, body: json({ ok: true, cleared: 2 }) })).toEqual([]);
    expect(checkResponse({ ...admin, body: json({ ok: true }) })).toEqual([
      "DELETE /__emulator/faults -> 200: (body) must have required property 'cleared'",
    ]);
    expect(checkResponse({ ...admin, url: '/__emulator/snapshots', body: json({}) })).toEqual([
      'DELETE /__emulator/snapshots -> 200: DELETE /__emulator/snapshots is not in the admin document',
    ]);
    // No operation addressed: the document promises nothing.
    expect(checkResponse({ ...base, url: '/v1/nothing', status: 404, body: json({}) })).toEqual([]);
  });
});

describe('the document agrees with what the code keeps (states, fields, limits)', () => {
  // Tests index freely into the parsed document.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const doc = buildOpenApiDocument('http://127.0.0.1:1/v1') as any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const admin = buildAdminDocument('http://127.0.0.1:1/v1') as any;

  it('enums, fields and limits are the ones the code uses', () => {
    const schemas = doc.components.schemas;
    expect(schemas.MonitorType.enum).toEqual([...MONITOR_TYPES]);
    expect(schemas.MonitorStatus.enum).toEqual([...MONITOR_STATUSES]);
    expect(schemas.ChannelKind.enum).toEqual([...CHANNEL_KINDS]);
    const properties = schemas.MonitorCreate.properties;
    const writable = Object.keys(properties).filter((field) => properties[field].readOnly !== true);
    expect(writable).toEqual([...MONITOR_WRITABLE_FIELDS]);
    expect(doc['x-emulator'].limits['max-body-bytes']).toBe(MAX_BODY_BYTES);
    expect(admin.components.schemas.Fault.properties.kind.enum).toEqual([...FAULT_KINDS]);
  });
});

describe('answers agree with the document', () => {
  const emu = useEmulator();

  it('GET /reports: a page holding the summary report (monitor_id null) conforms', async () => {
    await createMonitor(emu(), { name: 'r', target: 'https://example.com' });
    const res = await call(emu(), 'GET', 'reports?limit=100');
    expect(res.status).toBe(200);
    expect(res.json.data.map((r: { id: string }) => r.id)).toContain('rpt_summary');
    expect(
      checkResponse({
        method: 'GET',
        url: '/v1/reports?limit=100',
        status: 200,
        contentType: res.headers.get('content-type') ?? undefined,
        body: Buffer.from(res.text),
      }),
    ).toEqual([]);
  });

  it('a name is at most 200 characters counted as the document counts them (code points): 200 emoji fit', async () => {
    const fits = await call(emu(), 'POST', 'monitors', { body: { name: '😀'.repeat(200) } });
    expect(fits.status).toBe(201);
    expect(fits.json.name).toBe('😀'.repeat(200));
    const over = await call(emu(), 'POST', 'monitors', { body: { name: '😀'.repeat(201) } });
    expect(over.status).toBe(422);
    expect(over.json.error).toBe('name must be at most 200 characters');
    const channel = await call(emu(), 'PATCH', 'channels/ch_ops', { body: { name: '😀'.repeat(150) } });
    expect(channel.status).toBe(200);
    const patched = await call(emu(), 'PATCH', `monitors/${fits.json.id}`, { body: { name: '😀'.repeat(201) } });
    expect(patched.json.error).toBe('name must be at most 200 characters');
  });

  it('a target is at most 2048 characters counted in code points: 2048 fit, 2049 do not', async () => {
    const prefix = 'https://example.com/';
    const target = prefix + '😀'.repeat(2048 - prefix.length);
    const fits = await call(emu(), 'POST', 'monitors', { body: { name: 't', target } });
    expect(fits.status).toBe(201);
    const over = await call(emu(), 'POST', 'monitors', { body: { name: 't', target: `${target}x` } });
    expect(over.status).toBe(422);
    expect(over.json.error).toBe('target must be at most 2048 characters');
    const channel = await call(emu(), 'PATCH', 'channels/ch_ops', { body: { target: `${target}x` } });
    expect(channel.json.error).toBe('target must be at most 2048 characters');
  });

  it('a blank name is still "must not be empty", and the target rule still comes before later fields', async () => {
    const blank = await call(emu(), 'POST', 'monitors', { body: { name: ' \t ' } });
    expect([blank.status, blank.json.error]).toEqual([422, 'name must not be empty']);
    const both = await call(emu(), 'POST', 'monitors', {
      body: { name: 'x', type: 'tcp', target: 'nope', interval_seconds: 1 },
    });
    expect(both.json.error).toBe('target must be host:port (port 1-65535) for type tcp');
  });

  it('HEAD is answered as GET without a body where the document declares a GET, else 405 with Allow', async () => {
    const doc = (await call(emu(), 'GET', 'openapi.json')).json;
    const monitor = await createMonitor(emu(), { name: 'head', target: 'https://example.com' });
    const concrete: Record<string, string> = {
      '/monitors/{id}': `/monitors/${monitor.id}`,
      '/channels/{id}': '/channels/ch_ops',
      '/reports/{id}': '/reports/rpt_summary',
    };
    const headers = { authorization: `Bearer ${emu().token}` };
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      const url = emu().baseUrl + (concrete[path] ?? path);
      const head = await fetch(url, { method: 'HEAD', headers });
      expect(await head.text()).toBe('');
      if (item.get === undefined) {
        expect([path, head.status, head.headers.get('allow')]).toEqual([
          path,
          405,
          (item['x-allowed-methods'] as string[]).join(', '),
        ]);
        continue;
      }
      const getBody = Buffer.from(await (await fetch(url, { headers })).arrayBuffer());
      expect([path, head.status]).toEqual([path, 200]);
      expect(head.headers.get('content-type')).toBe('application/json; charset=utf-8');
      if (path !== '/reports/{id}') expect(Number(head.headers.get('content-length'))).toBe(getBody.length);
    }
  });

  it.each([
    ['channels?status=up', 'unknown query parameter status; allowed: limit, cursor'],
    ['monitors?type=smtp', 'invalid type: expected one of http, tcp, ping, dns'],
    ['reports?limit=1.5', 'invalid limit: expected an integer from 1 to 100'],
    ['monitors?limit=%2B5', 'invalid limit: expected an integer from 1 to 100'],
  ])('the query of %s is judged by the document: 400 %s', async (path, error) => {
    const res = await call(emu(), 'GET', path);
    expect([res.status, res.json.error]).toEqual([400, error]);
  });

  it('the admin routes answer as their document declares (checked after the file, with every other answer)', async () => {
    const admin = (method: string, path: string, body?: unknown) =>
      call(emu(), method, `/__emulator/${path}`, {
        token: null,
        body,
        headers: { 'x-emulator-admin': emu().adminSecret },
      });
    const made = await createMonitor(emu(), { name: 'checked', target: 'https://example.com' });
    await call(emu(), 'GET', `monitors/${made.id}`);
    const statuses = [
      (await admin('GET', 'openapi.json')).status,
      (await admin('GET', 'requests')).status,
      (await admin('POST', 'faults', { status: 503, path: '/v1/nothing' })).status,
      (await admin('GET', 'faults')).status,
      (await admin('DELETE', 'faults')).status,
      (await admin('POST', 'outages', { target: 'example.com', outcome: 'down' })).status,
      (await admin('GET', 'outages')).status,
      (await admin('DELETE', 'outages')).status,
      (await admin('GET', `checks?monitor=${made.id}`)).status,
      (await admin('GET', 'checks')).status,
    ];
    const state = await admin('GET', 'state');
    statuses.push(
      state.status,
      (await admin('PUT', 'state', state.json)).status,
      (await admin('PUT', 'state', {})).status,
    );
    statuses.push((await admin('DELETE', 'state')).status);
    expect(statuses).toEqual([200, 200, 201, 200, 200, 201, 200, 200, 200, 400, 200, 200, 422, 200]);
  });
});
