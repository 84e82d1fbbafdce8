// Monitors that live: `cpk emulator` checks every monitor on its interval
// (faster with --time-scale), with outcomes --seed makes reproducible.
import { afterEach, describe, expect, it } from 'vitest';
import { killAllTracked } from '../helpers/children.js';
import { runCli } from '../helpers/cli.js';
import { adminCall, apiCall, startEmulatorProcess, type EmulatorProcess } from '../helpers/emulator-process.js';

const SECRET = 'live-secret';
const start = (args: string[]) => startEmulatorProcess(['--admin-secret', SECRET, ...args]);
const stop = (emu: EmulatorProcess) => emu.stop();
const api = apiCall;
const admin = (emu: EmulatorProcess, method: string, path: string, body?: unknown) =>
  adminCall(emu, SECRET, method, path, body);

type Check = { n: number; status: string; latency_ms: number | null };

/** Ids of three monitors created in order, and the first `count` outcomes of the flaky one's checks. */
async function story(seed: string, count: number): Promise<{ ids: string[]; outcomes: Check[] }> {
  const emu = await start(['--seed', seed, '--time-scale', '600']);
  try {
    const ids: string[] = [];
    for (const target of ['https://flaky.example.com', 'https://slow.example.com', 'https://down.example.com'])
      ids.push((await api(emu, 'POST', '/monitors', { name: target, target, interval_seconds: 30 })).id as string);
    let checks: Check[] = [];
    // 30 s a check at 600x: one each 50 ms; bounded only to catch a hang.
    for (let i = 0; i < 400 && checks.length < count; i++) {
      await new Promise((r) => setTimeout(r, 50));
      checks = (await admin(emu, 'GET', `/checks?monitor=${ids[0]}`)).body.checks as Check[];
    }
    return { ids, outcomes: checks.slice(0, count).map(({ n, status, latency_ms }) => ({ n, status, latency_ms })) };
  } finally {
    await stop(emu);
  }
}

describe('cpk emulator: monitors that live', () => {
  // An emulator a failed or timed-out test did not stop is not left running.
  afterEach(killAllTracked);

  it('--seed gives the same ids and the same check outcomes twice', async () => {
    // Three emulators side by side: a seed's outcomes do not depend on what else runs.
    const [first, second, other] = await Promise.all([story('42', 40), story('42', 40), story('43', 1)]);
    expect(first.outcomes).toHaveLength(40);
    expect(second).toEqual(first);
    // The flaky target fails some of its checks and passes others.
    const statuses = new Set(first.outcomes.map((c) => c.status));
    expect(statuses).toEqual(new Set(['up', 'down']));
    expect(other.ids).not.toEqual(first.ids);
  }, 120_000);

  it('with --time-scale, monitors wait --for status=down ends on its own when the target goes down', async () => {
    const emu = await start(['--time-scale', '60']);
    try {
      const created = await api(emu, 'POST', '/monitors', {
        name: 'shop',
        target: 'https://shop.example.com/health',
        interval_seconds: 30,
      });
      const id = created.id as string;
      expect((await api(emu, 'GET', `/monitors/${id}`)).status).toBe('up');
      const env = { CPK_BASE_URL: emu.baseUrl, CPK_TOKEN: emu.token };
      const waiting = runCli(['monitors', 'wait', id, '--for', 'status=down', '--every', '1s', '--timeout', '60s'], {
        env,
      });
      // The target fails (nothing about the monitor is edited): the next scheduled check sees it.
      await new Promise((r) => setTimeout(r, 500));
      expect((await admin(emu, 'POST', '/outages', { target: 'shop.example.com', outcome: 'down' })).status).toBe(201);
      const result = await waiting;
      expect(result.code, result.stderr).toBe(0);
      const got = await api(emu, 'GET', `/monitors/${id}`);
      expect(got).toMatchObject({
        status: 'down',
        target: 'https://shop.example.com/health',
        updated_at: created.updated_at,
      });
      const methods = ((await admin(emu, 'GET', '/requests')).body.requests as Array<{ method: string }>).map(
        (r) => r.method,
      );
      expect(methods).not.toContain('PATCH');
    } finally {
      await stop(emu);
    }
  }, 120_000);
});
