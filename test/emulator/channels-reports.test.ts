import { describe, expect, it } from 'vitest';
import { call, createMonitor, useEmulator } from './helpers.js';

describe('PATCH /v1/channels/{id}', () => {
  const emu = useEmulator();

  it('every account is seeded with three channels', () => {
    expect(emu().channels()).toEqual([
      {
        id: 'ch_ops',
        name: 'Ops mailbox',
        kind: 'email',
        enabled: true,
        target: 'ops@example.com',
        events: ['down', 'up'],
      },
      {
        id: 'ch_oncall',
        name: 'On-call webhook',
        kind: 'webhook',
        enabled: true,
        target: 'https://hooks.example.com/oncall',
        events: ['down'],
      },
      {
        id: 'ch_slack',
        name: 'Slack #alerts',
        kind: 'slack',
        enabled: false,
        target: '#alerts',
        events: ['down', 'up', 'paused', 'resumed'],
      },
    ]);
    expect(
      emu()
        .channels('acct_other')
        .map((c) => c.id),
    ).toEqual(['ch_ops', 'ch_oncall', 'ch_slack']);
  });

  it('updates name, enabled, target and events; answers {"ok": true}', async () => {
    const res = await call(emu(), 'PATCH', 'channels/ch_oncall', {
      body: { name: 'Pager', enabled: false, target: 'http://pager.example.com/hook', events: ['up', 'paused'] },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true });
    expect(
      emu()
        .channels()
        .find((c) => c.id === 'ch_oncall'),
    ).toEqual({
      id: 'ch_oncall',
      name: 'Pager',
      kind: 'webhook',
      enabled: false,
      target: 'http://pager.example.com/hook',
      events: ['up', 'paused'],
    });
    expect(
      (await call(emu(), 'PATCH', 'channels/ch_slack', { body: { target: '#ops-alerts', events: [] } })).status,
    ).toBe(200);
    expect((await call(emu(), 'PATCH', 'channels/ch_ops', { body: { target: 'oncall@example.org' } })).status).toBe(
      200,
    );
  });

  const invalid: Array<[string, string, unknown, string]> = [
    ['empty object', 'ch_ops', {}, 'nothing to update'],
    ['read-only id', 'ch_ops', { id: 'ch_x' }, 'id is read-only'],
    ['read-only kind', 'ch_ops', { kind: 'slack' }, 'kind is read-only'],
    ['unknown field', 'ch_ops', { enabled: true, color: 'red' }, 'unknown field: color'],
    ['name not string', 'ch_ops', { name: 1 }, 'name must be a string'],
    ['empty name', 'ch_ops', { name: '' }, 'name must not be empty'],
    ['enabled not boolean', 'ch_ops', { enabled: 'true' }, 'enabled must be a boolean'],
    ['target not string', 'ch_ops', { target: ['a'] }, 'target must be a string'],
    [
      'email target',
      'ch_ops',
      { target: 'not-an-address' },
      'target must be an email address for a channel of kind email',
    ],
    [
      'webhook target',
      'ch_oncall',
      { target: 'hooks.example.com' },
      'target must be an http:// or https:// URL for a channel of kind webhook',
    ],
    [
      'slack target',
      'ch_slack',
      { target: 'alerts' },
      'target must be a #channel name or an https:// webhook URL for a channel of kind slack',
    ],
    [
      'events not array',
      'ch_ops',
      { events: 'down' },
      'events must be an array of distinct values from: down, up, paused, resumed',
    ],
    [
      'unknown event',
      'ch_ops',
      { events: ['down', 'exploded'] },
      'events must be an array of distinct values from: down, up, paused, resumed',
    ],
    [
      'duplicate event',
      'ch_ops',
      { events: ['down', 'down'] },
      'events must be an array of distinct values from: down, up, paused, resumed',
    ],
  ];

  it.each(invalid)('422 for %s', async (_name, id, body, message) => {
    const before = emu().channels();
    const res = await call(emu(), 'PATCH', `channels/${id}`, { body });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({ error: message, request_id: res.headers.get('x-request-id') });
    expect(emu().channels()).toEqual(before);
  });

  it('400 for a body that is not a JSON object', async () => {
    const res = await call(emu(), 'PATCH', 'channels/ch_ops', { body: '"enabled"' });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('request body must be a JSON object');
  });

  it('unknown channel is 404', async () => {
    const res = await call(emu(), 'PATCH', 'channels/ch_nope', { body: { enabled: true } });
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: 'channel not found', request_id: res.headers.get('x-request-id') });
  });

  it('a method the document does not declare is 405, with Allow naming the ones it does', async () => {
    const doc = (await call(emu(), 'GET', 'openapi.json')).json;
    for (const [path, at] of [
      ['/channels/{id}', 'channels/ch_ops'],
      ['/channels', 'channels'],
    ] as const) {
      const declared = doc.paths[path]['x-allowed-methods'] as string[];
      for (const method of ['GET', 'DELETE', 'POST', 'PUT', 'PATCH'].filter((m) => !declared.includes(m))) {
        const res = await call(emu(), method, at);
        expect([method, res.status]).toEqual([method, 405]);
        expect(res.headers.get('allow')).toBe(declared.join(', '));
        expect(res.json.error).toBe(`method ${method} not allowed; allowed: ${declared.join(', ')}`);
      }
    }
  });
});

describe('GET /v1/reports/{id}', () => {
  // The emulator's clock is the test's: moving it runs the checks due (a report runs them before it is made).
  let now = Date.parse('2026-11-22T10:00:00.000Z');
  const emu = useEmulator({ clock: () => now, timeScale: 60, adminSecret: 's3cret' });
  const iso = (ms: number) => new Date(ms).toISOString();
  const outages = (method: string, body?: unknown) =>
    call(emu(), method, '/__emulator/outages', { token: null, body, headers: { 'x-emulator-admin': 's3cret' } });

  it('a pending monitor has a report of no checks, over an empty period at its creation', async () => {
    const m = await createMonitor(emu(), { name: 'p', target: 'https://example.com' });
    now += 500; // within the first interval (60 s at 60x: one second)
    const res = await call(emu(), 'GET', `reports/${m.report_id}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      id: m.report_id,
      monitor_id: m.id,
      period: '24h',
      period_start: m.created_at,
      period_end: m.created_at,
      uptime_percent: null,
      checks: 0,
      failures: 0,
      avg_latency_ms: null,
      latency_percentiles_ms: null,
      monitor_status: 'pending',
      generated_at: iso(now),
      hourly: [{ hour: m.created_at, checks: 0, failures: 0, avg_latency_ms: null, p95_latency_ms: null }],
      incidents: [],
    });
  });

  it('--time-scale 60 and an outage: up, then down, reads between 0 and 100 from the checks that ran', async () => {
    const m = await createMonitor(emu(), { name: 'shop', target: 'https://shop.example.com', interval_seconds: 60 });
    const created = Date.parse(m.created_at as string);
    expect((await call(emu(), 'GET', `monitors/${m.id}`)).json.status).toBe('up'); // the first check, at creation
    now += 9_000; // nine simulated minutes: nine more checks, all up
    expect((await outages('POST', { target: 'shop.example.com' })).status).toBe(201);
    now += 5_000;
    const down = (await call(emu(), 'GET', `reports/${m.report_id}`)).json;
    expect(down).toMatchObject({
      period_start: m.created_at, // never before the monitor was created
      period_end: iso(now), // the last check, due just now
      checks: 15,
      failures: 5,
      uptime_percent: 66.67,
      monitor_status: 'down',
      incidents: [{ start: iso(created + 10_000), end: null, failed_checks: 5, cause: 'outage' }],
    });
    expect((await outages('DELETE')).status).toBe(200);
    now += 1_000;
    const up = (await call(emu(), 'GET', `reports/${m.report_id}`)).json;
    expect(up).toMatchObject({ checks: 16, failures: 5, uptime_percent: 68.75, monitor_status: 'up' });
    expect(up.incidents).toEqual([
      {
        start: iso(created + 10_000),
        end: iso(created + 15_000),
        duration_seconds: 5,
        failed_checks: 5,
        cause: 'outage',
      },
    ]);
    // The same report twice when the clock stands still.
    expect((await call(emu(), 'GET', `reports/${m.report_id}`)).json).toEqual(up);
  });

  it('the account summary averages the monitors it has and counts them by status', async () => {
    const other = 'cpk_test_other';
    await createMonitor(emu(), { name: 'up', target: 'https://example.com', interval_seconds: 60 }, other);
    await createMonitor(emu(), { name: 'down', target: 'https://down.example.com', interval_seconds: 60 }, other);
    await createMonitor(emu(), { name: 'new', target: 'https://example.com', interval_seconds: 3600 }, other);
    now += 2_000;
    const res = await call(emu(), 'GET', 'reports/rpt_summary', { token: other });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      id: 'rpt_summary',
      monitor_id: null,
      period: '24h',
      uptime_percent: 50, // the mean of 100 and 0; the monitor not yet checked has none
      checks: 4,
      failures: 2,
      monitors: { total: 3, pending: 1, up: 1, down: 1, paused: 0 },
    });
    const empty = (await call(emu(), 'GET', 'reports/rpt_summary', { token: 'cpk_test_suspended' })).status;
    expect(empty).toBe(403);
  });

  it('a report with an incident has the shape and order the document shows', async () => {
    const m = await createMonitor(emu(), { name: 'f', target: 'https://blip.example.com', interval_seconds: 60 });
    now += 3_000;
    await outages('POST', { target: 'blip.example.com' });
    now += 2_000;
    await outages('DELETE');
    now += 2_000;
    const report = (await call(emu(), 'GET', `reports/${m.report_id}`)).json;
    expect(report).toMatchObject({ checks: 7, failures: 2 });
    expect(Object.keys(report.latency_percentiles_ms)).toEqual(['p50', 'p90', 'p95', 'p99', 'max']);
    const doc = (await call(emu(), 'GET', 'openapi.json', { token: null })).json;
    const example = doc.paths['/reports/{id}'].get.responses['200'].content['application/json'].example;
    expect(Object.keys(example)).toEqual(Object.keys(report));
    expect(Object.keys(example)).toEqual(doc.components.schemas.MonitorReport.required);
    expect(Object.keys(example.hourly[0])).toEqual(Object.keys(report.hourly[0]));
    expect(example.incidents.length).toBeGreaterThan(0);
    expect(Object.keys(example.incidents[0])).toEqual(Object.keys(report.incidents[0]));
  });

  it('deleting a monitor deletes its report', async () => {
    const m = await createMonitor(emu(), { name: 'gone' });
    expect((await call(emu(), 'GET', `reports/${m.report_id}`)).status).toBe(200);
    expect((await call(emu(), 'DELETE', `monitors/${m.id}`)).status).toBe(204);
    const res = await call(emu(), 'GET', `reports/${m.report_id}`);
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: 'report not found', request_id: res.headers.get('x-request-id') });
  });

  it('unknown reports are 404', async () => {
    for (const id of ['rpt_aaaaaaaaaaaa', 'nope', 'mon_aaaaaaaaaaaa', 'rpt_summary%2F']) {
      const res = await call(emu(), 'GET', `reports/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.json.error).toBe('report not found');
    }
  });
});
