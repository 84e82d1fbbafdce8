// `cpk emulator --persist FILE`: the state survives a restart of the emulator.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, baseEnv, runCli } from '../helpers/cli.js';
import { runCpk } from '../helpers/in-process.js';

/** Starts `cpk emulator --port 0 --json --persist FILE`; resolves with its base URL and a stop function. */
function startEmulatorProcess(file: string) {
  const child = spawn(process.execPath, [BIN, 'emulator', '--port', '0', '--json', '-q', '--persist', file], {
    env: baseEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const ready = new Promise<{ base_url: string; token: string }>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0] ?? '') as { base_url: string; token: string });
    });
    child.on('close', () => reject(new Error('emulator exited before it was ready')));
  });
  return {
    ready,
    stop: async () => {
      child.kill('SIGINT');
      return exited;
    },
  };
}

describe('cpk emulator --persist', () => {
  it('keeps monitors, channel changes and issued ids across a restart', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cpk-persist-')), 'state.json');
    const first = startEmulatorProcess(file);
    const a = await first.ready;
    const env = { CPK_BASE_URL: a.base_url, CPK_TOKEN: a.token };
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
    expect(await first.stop()).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).version).toBe(1);

    const second = startEmulatorProcess(file);
    const b = await second.ready;
    const env2 = { CPK_BASE_URL: b.base_url, CPK_TOKEN: b.token };
    const got = await runCpk(['monitors', 'get', id, '--json'], { env: env2 });
    expect(got.code, got.stderr).toBe(0);
    expect(JSON.parse(got.stdout)).toMatchObject({ id, name: 'kept', team: 'web' });
    expect((await runCpk(['monitors', 'get', gone], { env: env2 })).code).toBe(6);
    const channels = await runCpk(['channels', 'list', '--query', "[?id=='ch_ops'].enabled | [0]"], { env: env2 });
    expect(channels.stdout.trim()).toBe('false');
    expect(await second.stop()).toBe(0);
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
