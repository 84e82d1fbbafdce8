// close() leaves nothing behind. Deterministic on a loaded machine: instead
// of watching the process-wide count of timers (vitest has timers of its
// own), every timer created while the emulator runs is tracked through a spy,
// and each must have fired or been cleared once close() resolved.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startEmulator } from '../../src/emulator/server.js';
import { raw, waitForRequests } from './helpers.js';

afterEach(() => vi.restoreAllMocks());

describe('close()', () => {
  it('leaves no timers or sockets behind after close()', async () => {
    const count = (kind: string) => process.getActiveResourcesInfo().filter((r) => r === kind).length;
    const serversBefore = count('TCPServerWrap');
    const timers = new Map<unknown, { delay: number; settled: boolean }>();
    let latencyStarted: () => void = () => {};
    const inDelay = new Promise<void>((resolve) => (latencyStarted = resolve));
    const realSet = globalThis.setTimeout;
    const realClear = globalThis.clearTimeout;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, delay?: number, ...args: unknown[]) => {
      const entry = { delay: delay ?? 0, settled: false };
      const set = realSet as unknown as (cb: () => void, ms?: number, ...rest: unknown[]) => unknown;
      const handle = set(
        () => {
          entry.settled = true;
          fn();
        },
        delay,
        ...args,
      );
      timers.set(handle, entry);
      if (delay === 600_000) latencyStarted();
      return handle;
    }) as typeof setTimeout);
    vi.spyOn(globalThis, 'clearTimeout').mockImplementation(((handle: Parameters<typeof clearTimeout>[0]) => {
      const entry = timers.get(handle);
      if (entry) entry.settled = true;
      realClear(handle);
    }) as typeof clearTimeout);

    const emu = await startEmulator({ port: 0, latencyMs: 600_000 });
    const slow = raw(emu, 'GET', '/v1/reports/rpt_summary', { authorization: `Bearer ${emu.token}` });
    await waitForRequests(emu, 1);
    await inDelay; // the handler sits in its latency delay
    await emu.close();
    expect((await slow).error).toBe('ECONNRESET');
    const left = [...timers.values()].filter((t) => !t.settled && t.delay >= 600_000);
    expect(left).toEqual([]);
    expect(count('TCPServerWrap')).toBe(serversBefore);
    expect(count('TCPSocketWrap')).toBe(0);
  });
});
