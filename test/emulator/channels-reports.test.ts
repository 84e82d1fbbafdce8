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
  const emu = useEmulator();

  it('a pending monitor has an empty report', async () => {
    const m = await createMonitor(emu(), { name: 'p', target: 'https://example.com' });
    const res = await call(emu(), 'GET', `reports/${m.report_id}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      id: m.report_id,
      monitor_id: m.id,
      period: '24h',
      period_start: null,
      period_end: null,
      uptime_percent: null,
      checks: 0,
      failures: 0,
      avg_latency_ms: null,
      latency_percentiles_ms: null,
      monitor_status: 'pending',
      generated_at: res.json.generated_at,
      hourly: [],
      incidents: [],
    });
  });

  it('up -> 100, flaky -> 87.5, down -> 0, derived from the check', async () => {
    const up = await createMonitor(emu(), { name: 'up', target: 'https://example.com', interval_seconds: 300 });
    const flaky = await createMonitor(emu(), { name: 'flaky', target: 'https://flaky.example.com' });
    const down = await createMonitor(emu(), {
      name: 'down',
      type: 'tcp',
      target: 'down.example.com:22',
      interval_seconds: 86400,
    });
    const latency: Record<string, number | null> = {};
    for (const m of [up, flaky, down])
      latency[m.id] = (await call(emu(), 'GET', `monitors/${m.id}`)).json.last_check.latency_ms;

    const r = async (id: string) => (await call(emu(), 'GET', `reports/${id}`)).json;
    expect(await r(up.report_id)).toMatchObject({
      uptime_percent: 100,
      checks: 288,
      failures: 0,
      avg_latency_ms: latency[up.id],
      monitor_status: 'up',
    });
    expect(await r(flaky.report_id)).toMatchObject({
      uptime_percent: 87.5,
      checks: 1440,
      failures: 180,
      avg_latency_ms: latency[flaky.id],
    });
    expect(await r(down.report_id)).toMatchObject({
      uptime_percent: 0,
      checks: 1,
      failures: 1,
      avg_latency_ms: null,
      monitor_status: 'down',
    });
    // Deterministic: the same report twice (apart from generated_at).
    const again = await r(flaky.report_id);
    expect({ ...again, generated_at: 0 }).toEqual({ ...(await r(flaky.report_id)), generated_at: 0 });
  });

  it('the account summary counts monitors by status', async () => {
    const res = await call(emu(), 'GET', 'reports/rpt_summary');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      id: 'rpt_summary',
      monitor_id: null,
      period: '24h',
      uptime_percent: 62.5, // mean of 100, 87.5 and 0; the pending monitor has none
      checks: 288 + 1440 + 1,
      failures: 180 + 1,
      monitors: { total: 4, pending: 1, up: 2, down: 1, paused: 0 },
    });
    const other = (await call(emu(), 'GET', 'reports/rpt_summary', { token: 'cpk_test_other' })).json;
    expect(other).toMatchObject({ uptime_percent: null, checks: 0, avg_latency_ms: null, monitors: { total: 0 } });
  });

  it('a checked monitor has 24 hourly buckets, percentiles and incidents, in the shape and order the document shows', async () => {
    const m = await createMonitor(emu(), {
      name: 'flaky2',
      target: 'https://flaky2.example.com',
      interval_seconds: 600,
    });
    await call(emu(), 'GET', `monitors/${m.id}`); // the simulated check
    const report = (await call(emu(), 'GET', `reports/${m.report_id}`)).json;
    expect(report.hourly).toHaveLength(24);
    expect(report.hourly.reduce((n: number, b: { checks: number }) => n + b.checks, 0)).toBe(144);
    expect(report.incidents.reduce((n: number, i: { failed_checks: number }) => n + i.failed_checks, 0)).toBe(18);
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
