// Verification: counting and finding the logged requests that match a pattern, as WireMock's verify API does.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, raw, useEmulator } from './helpers.js';

describe('verification: POST /__emulator/requests/count and /find', () => {
  const emu = useEmulator();
  const ask = async (what: 'count' | 'find', pattern: unknown, secret = emu().adminSecret) => {
    const res = await fetch(`${emu().url}/__emulator/requests/${what}`, {
      method: 'POST',
      headers: { 'x-emulator-admin': secret, 'content-type': 'application/json' },
      body: JSON.stringify(pattern),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  const count = async (pattern: unknown) => (await ask('count', pattern)).json.count;
  let refusedId: string | null = null;

  beforeAll(async () => {
    await raw(emu(), 'DELETE', '/__emulator/requests', { 'x-emulator-admin': emu().adminSecret });
    await call(emu(), 'POST', 'monitors', { body: { name: 'api', interval_seconds: 60, tags: ['a', 'b'] } });
    await call(emu(), 'POST', 'monitors', { body: { name: 'web' }, headers: { 'x-ci-run': '42' } });
    const refused = await call(emu(), 'POST', 'monitors', { body: { name: '' } });
    refusedId = refused.headers.get('x-request-id');
    await call(emu(), 'GET', 'monitors?limit=5&status=up');
    await call(emu(), 'GET', 'monitors/mon_nothere');
  });

  it('each log entry carries the request id its answer was sent with', async () => {
    const found = await ask('find', { request_id: refusedId });
    expect(found.status).toBe(200);
    const [entry] = found.json.requests as Array<Record<string, unknown>>;
    expect(entry).toMatchObject({ method: 'POST', path: '/v1/monitors', status: 422, request_id: refusedId });
    expect(emu().requests.map((r) => r.request_id)).toContain(refusedId);
  });

  it('matches method, path (exact or prefix), query, body fields, headers and status', async () => {
    expect(await count({})).toBe(5);
    expect(await count({ method: 'post', path: '/v1/monitors' })).toBe(3);
    expect(await count({ method: 'ANY', path: '/v1/monitors' })).toBe(4);
    expect(await count({ path: '/v1/monitors/*' })).toBe(1);
    expect(await count({ path: '/v1/monitor' })).toBe(0);
    // Body fields: equal as JSON, others ignored; a field's value whole (an array in order, a number as a number).
    expect(await count({ method: 'POST', body: { name: 'api' } })).toBe(1);
    expect(await count({ body: { name: 'api', interval_seconds: 60, tags: ['a', 'b'] } })).toBe(1);
    expect(await count({ body: { interval_seconds: '60' } })).toBe(0);
    expect(await count({ body: { tags: ['b', 'a'] } })).toBe(0);
    expect(await count({ body: { name: 'api', paused: false } })).toBe(0);
    // Query parameters: each given must be there with that value, others may be too.
    expect(await count({ query: { limit: '5' } })).toBe(1);
    expect(await count({ query: { limit: '5', status: 'down' } })).toBe(0);
    // Headers by any case of their name; status as answered.
    expect(await count({ headers: { 'X-CI-Run': '42' } })).toBe(1);
    expect(await count({ method: 'POST', status: 201 })).toBe(2);
    expect(await count({ status: 404 })).toBe(1);
  });

  it('tokens stay redacted: a header matches as the log shows it, never the token itself', async () => {
    expect(await count({ headers: { authorization: `Bearer ${emu().token}` } })).toBe(0);
    expect(await count({ headers: { authorization: 'Bearer cpk_…oken' } })).toBe(5);
    const found = await ask('find', { path: '/v1/monitors/*' });
    expect(JSON.stringify(found.json)).not.toContain(emu().token);
  });

  it('a pattern that is not one is 422, naming the field; without the secret the route does not exist', async () => {
    expect(await ask('count', { url: '/v1/monitors' })).toMatchObject({
      status: 422,
      json: { error: 'unknown pattern field: url' },
    });
    expect((await ask('count', { status: 'ok' })).json.error).toBe(
      'status must be an integer from 100 to 599, or null',
    );
    expect((await ask('count', { body: 'name=api' })).json.error).toBe(
      'body must be a JSON object of the fields to match',
    );
    expect((await ask('count', {}, 'wrong')).status).toBe(404);
  });

  it('a request answered by nothing matches status null', async () => {
    emu().injectFault({ method: 'DELETE', kind: 'reset' });
    expect(
      (await raw(emu(), 'DELETE', '/v1/monitors/mon_gone', { authorization: `Bearer ${emu().token}` })).error,
    ).toBe('ECONNRESET');
    expect(await count({ method: 'DELETE', status: null })).toBe(1);
  });
});
