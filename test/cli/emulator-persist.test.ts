// `cpk emulator --persist FILE`: the state survives a restart of the emulator.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killAllTracked } from '../helpers/children.js';
import { runCli } from '../helpers/cli.js';
import { startEmulatorProcess } from '../helpers/emulator-process.js';
import { runCpk } from '../helpers/in-process.js';

describe('cpk emulator --persist', () => {
  // An emulator a failed or timed-out test did not stop is not left running.
  afterEach(killAllTracked);

  it('keeps monitors, channel changes and issued ids across a restart', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cpk-persist-')), 'state.json');
    const first = await startEmulatorProcess(['--persist', file]);
    const env = { CPK_BASE_URL: first.baseUrl, CPK_TOKEN: first.token };
    const id = (
      await runCpk(['monitors', 'create', '--name', 'kept', '--set', 'team=web', '-q'], { env })
    ).stdout.trim();
    // Written on change, not only on exit (a crash keeps what was answered before it).
    for (let i = 0; i < 200 && !(existsSync(file) && readFileSync(file, 'utf8').includes(id)); i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(readFileSync(file, 'utf8')).toContain(id);
    const gone = (await runCpk(['monitors', 'create', '--name', 'gone', '-q'], { env })).stdout.trim();
    expect((await runCpk(['monitors', 'delete', gone, '--yes'], { env })).code).toBe(0);
    expect((await runCpk(['channels', 'update', 'ch_ops', '--set', 'enabled=false'], { env })).code).toBe(0);
    expect(await first.stop('SIGINT')).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).version).toBe(1);

    const second = await startEmulatorProcess(['--persist', file]);
    const env2 = { CPK_BASE_URL: second.baseUrl, CPK_TOKEN: second.token };
    const got = await runCpk(['monitors', 'get', id, '--json'], { env: env2 });
    expect(got.code, got.stderr).toBe(0);
    expect(JSON.parse(got.stdout)).toMatchObject({ id, name: 'kept', team: 'web' });
    expect((await runCpk(['monitors', 'get', gone], { env: env2 })).code).toBe(6);
    const channels = await runCpk(['channels', 'list', '--query', "[?id=='ch_ops'].enabled | [0]"], { env: env2 });
    expect(channels.stdout.trim()).toBe('false');
    expect(await second.stop('SIGINT')).toBe(0);
  });

  it('refuses a file that is not an emulator state file, in one line, exit 2, leaving it as it was', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cpk-persist-')), 'state.json');
    writeFileSync(file, '{"hello": "world"}');
    const r = await runCli(['emulator', '--port', '0', '--persist', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`cpk: --persist: ${file}: not an emulator state file (version is not 1)\n`);
    expect(readFileSync(file, 'utf8')).toBe('{"hello": "world"}');
  });
});
