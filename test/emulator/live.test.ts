// Monitors that live, in process: checks run on the schedule without any
// request, and close() stops the scheduler.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startEmulator } from '../../src/emulator/server.js';

afterEach(() => vi.restoreAllMocks());

describe('scheduled checks', () => {
  it('check a monitor on its interval with no request reading it, and stop at close()', async () => {
    const intervals = new Map<unknown, boolean>(); // handle -> cleared
    const realSet = globalThis.setInterval;
    const realClear = globalThis.clearInterval;
    vi.spyOn(globalThis, 'setInterval').mockImplementation(((fn: () => void, ms?: number) => {
      const handle = realSet(fn, ms);
      intervals.set(handle, false);
      return handle;
    }) as typeof setInterval);
    vi.spyOn(globalThis, 'clearInterval').mockImplementation(((handle: Parameters<typeof clearInterval>[0]) => {
      if (intervals.has(handle)) intervals.set(handle, true);
      realClear(handle);
    }) as typeof clearInterval);

    const emu = await startEmulator({ port: 0, timeScale: 3600, seed: 1 });
    const res = await fetch(`${emu.baseUrl}/monitors`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'lives', target: 'https://example.com', interval_seconds: 60 }),
    });
    expect(res.status).toBe(201);
    const seen = new Set<string>();
    // 60 s at 3600x: a check every ~17 ms; bounded only to catch a hang.
    for (let i = 0; i < 200 && seen.size < 3; i++) {
      await new Promise((r) => setTimeout(r, 20));
      const check = emu.monitors()[0]?.last_check as { checked_at: string } | null;
      if (check) seen.add(check.checked_at);
    }
    expect(seen.size).toBeGreaterThanOrEqual(3);
    expect(emu.monitors()[0]?.status).toBe('up');
    expect(emu.requests.map((r) => r.method)).toEqual(['POST']);
    await emu.close();
    expect(intervals.size).toBeGreaterThan(0);
    expect([...intervals.values()].every(Boolean)).toBe(true);
  });
});
