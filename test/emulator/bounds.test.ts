// The emulator's own bounds: a deep body is a 400 that
// stores nothing; the request log is a ring with bodies cut short.
import { describe, expect, it } from 'vitest';
import { call, useEmulator } from './helpers.js';
import { jsonDepth } from '../../src/core/json.js';
import { REQUEST_LOG_BODY_BYTES } from '../../src/emulator/server.js';

describe('deep bodies', () => {
  const emu = useEmulator();
  it('a create nested 3000 deep is 400 and stores nothing; 64 deep is fine', async () => {
    const before = emu().monitors().length;
    const deep = `{"name":"deep","x":${'['.repeat(3000)}${']'.repeat(3000)}}`;
    const r = await call(emu(), 'POST', 'monitors', { body: deep });
    expect(r.status).toBe(400);
    expect((r.json as { error: string }).error).toBe('request body nests deeper than 64 levels');
    expect(emu().monitors().length).toBe(before);
    const ok = await call(emu(), 'POST', 'monitors', { body: `{"name":"ok","x":${'['.repeat(62)}${']'.repeat(62)}}` });
    expect(ok.status).toBe(201);
    expect(jsonDepth('{"a":"[[[[{{{{","b":[1,{"c":2}]}')).toBe(3);
  });
});

describe('the request log', () => {
  const emu = useEmulator({ requestLogLimit: 5 });
  it('keeps the last requests only, each body cut at a bound', async () => {
    for (let i = 0; i < 12; i++) await call(emu(), 'GET', `monitors/mon_${i}`);
    expect(emu().requests.length).toBeLessThanOrEqual(6);
    expect(emu().requests.at(-1)?.path).toBe('/v1/monitors/mon_11');
    await call(emu(), 'POST', 'monitors', { body: { name: 'x'.repeat(REQUEST_LOG_BODY_BYTES * 2) } });
    const last = emu().requests.at(-1)!;
    expect(last.body.length).toBeLessThan(REQUEST_LOG_BODY_BYTES + 100);
    expect(last.body).toMatch(/…\(truncated, \d+ characters\)$/);
  });
});

describe('the request log is bounded in bytes', () => {
  const emu = useEmulator({ requestLogBytes: 64 * 1024 });

  it('a logged body is cut at REQUEST_LOG_BODY_BYTES bytes of UTF-8, not characters, at a character boundary', async () => {
    await call(emu(), 'POST', 'monitors', { body: { name: '€'.repeat(REQUEST_LOG_BODY_BYTES) } });
    const last = emu().requests.at(-1)!;
    const kept = last.body.replace(/…\(truncated, \d+ characters\)$/, '');
    expect(last.body).not.toBe(kept);
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(REQUEST_LOG_BODY_BYTES);
    expect(Buffer.byteLength(kept)).toBeGreaterThan(REQUEST_LOG_BODY_BYTES - 4);
    expect(kept).not.toContain('\uFFFD');
    expect(kept.startsWith('{"name":"€€€')).toBe(true);
  });

  it('the whole log stays under its byte budget, oldest entries dropped first, the newest kept', async () => {
    for (let i = 0; i < 20; i++)
      await call(emu(), 'POST', 'monitors', { body: { name: 'n', pad: `${i}:`.padEnd(10_000, 'x') } });
    const bytes = emu().requests.reduce((sum, r) => sum + Buffer.byteLength(r.body) + Buffer.byteLength(r.path), 0);
    expect(bytes).toBeLessThanOrEqual(64 * 1024);
    expect(emu().requests.length).toBeLessThan(20);
    expect(emu().requests.at(-1)?.body).toContain('"pad":"19:');
  });
});
