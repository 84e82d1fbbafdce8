// Completion after the service's state was reset: an emulator restarted on the
// same address holds none of the monitors the inventory knew. Completion never
// asks the network, so the first whole list the service gives (read to its end,
// unfiltered) is what makes the inventory forget the ids it did not hold.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/server.js';
import { runCpk } from '../helpers/in-process.js';

let running: Emulator | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start(port = 0): Promise<Emulator> {
  running = await startEmulator({ port });
  return running;
}

describe('ids from before an emulator restart', () => {
  it('are no longer offered once the restarted service lists what it holds; a partial list keeps them', async () => {
    const first = await start();
    const env = {
      CPK_BASE_URL: first.baseUrl,
      CPK_TOKEN: first.token,
      CPK_DATA_DIR: mkdtempSync(join(tmpdir(), 'cpk-data-')),
      CPK_CACHE_DIR: mkdtempSync(join(tmpdir(), 'cpk-cache-')),
    };
    const cpk = async (args: string[]) => {
      const r = await runCpk(args, { env });
      expect(r.code, r.stderr).toBe(0);
      return r.stdout;
    };
    const old = (await cpk(['monitors', 'create', '--name', 'Before the restart', '-q'])).trim();
    expect(await cpk(['__complete', 'monitor-ids'])).toBe(`${old}\tBefore the restart\n`);

    // The same address, a fresh state.
    const port = Number(new URL(first.baseUrl).port);
    await first.close();
    const second = await start(port);
    expect(second.baseUrl).toBe(env.CPK_BASE_URL);
    const fresh = (await cpk(['monitors', 'create', '--name', 'After the restart', '-q'])).trim();

    // A list cut short says nothing of what is not in it.
    await cpk(['monitors', 'list', '--limit', '1']);
    expect((await cpk(['__complete', 'monitor-ids'])).split('\n')).toContain(`${old}\tBefore the restart`);

    await cpk(['monitors', 'list']);
    expect(await cpk(['__complete', 'monitor-ids'])).toBe(`${fresh}\tAfter the restart\n`);
    expect(await cpk(['__complete', 'report-ids'])).toBe(`${fresh.replace(/^mon_/, 'rpt_')}\tAfter the restart\n`);
  });
});
