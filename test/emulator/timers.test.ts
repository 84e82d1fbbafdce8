// Own file on purpose: no fetch (undici keeps timers of its own) runs in this
// worker, so the count of active timers only moves because of the emulator.
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/server.js';
import { raw, waitForRequests } from './helpers.js';

describe('close()', () => {
  it('leaves no timers or sockets behind after close()', async () => {
    const count = (kind: string) => process.getActiveResourcesInfo().filter((r) => r === kind).length;
    const timersBefore = count('Timeout');
    const serversBefore = count('TCPServerWrap');
    const emu = await startEmulator({ port: 0, latencyMs: 600_000 });
    const timersListening = count('Timeout');
    const slow = raw(emu, 'GET', '/v1/reports/rpt_summary', { authorization: `Bearer ${emu.token}` });
    await waitForRequests(emu, 1);
    // Wait (without timers of our own) until the handler sits in its latency delay.
    while (count('Timeout') <= timersListening) await new Promise((r) => setImmediate(r));
    await emu.close();
    expect((await slow).error).toBe('ECONNRESET');
    // At most as many as before: the worker's own timers (vitest's) may have
    // ended meanwhile on a loaded machine, but none of the emulator's remain.
    expect(count('Timeout')).toBeLessThanOrEqual(timersBefore);
    expect(count('TCPServerWrap')).toBe(serversBefore);
    expect(count('TCPSocketWrap')).toBe(0);
  });
});
