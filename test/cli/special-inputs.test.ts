// Inputs that are not regular files: a directory as stdin, a FIFO with no
// writer, an endless device. Each is a usage error (exit 2) that says why, at
// once; none reads as empty and none waits. The built CLI runs every case, as
// a FIFO read in-process would block the test worker itself; the time limit
// only catches a hang.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';

const f = useEmulator();
const HANG = { timeoutMs: 20_000 };
const hasMkfifo = process.platform === 'linux' && spawnSync('mkfifo', ['--version']).status === 0;

describe('stdin that is a directory', () => {
  let dirFd: number;
  beforeAll(() => {
    dirFd = openSync(mkdtempSync(join(tmpdir(), 'cpk-stdin-dir-')), 'r');
  });
  afterAll(() => closeSync(dirFd));

  it.each([
    ['monitors', 'get', '-'],
    ['monitors', 'delete', '-', '--yes'],
    ['monitors', 'create', '--from', '-'],
    ['monitors', 'create', '--data', '-'],
  ])('%s %s %s %s is a usage error naming it, nothing sent', async (...args) => {
    const sent = f.mark();
    const r = await f.spawned(args, { stdin: dirFd, ...HANG });
    expect(r.stderr).toBe('cpk: cannot read stdin: it is a directory (EISDIR)\n');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(sent()).toEqual([]);
  });
});

describe.runIf(hasMkfifo)('a FIFO where a file is named', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cpk-fifo-'));
  const fifo = (name: string) => {
    const path = join(dir, name);
    expect(spawnSync('mkfifo', [path]).status).toBe(0);
    return path;
  };

  it('a manifest (validate, plan) is refused at once', async () => {
    const manifest = fifo('cpk.yaml');
    for (const args of [
      ['validate', '-f', manifest],
      ['plan', '-f', manifest],
    ]) {
      const r = await f.spawned(args, HANG);
      expect(r.stderr).toBe(`cpk: cannot read the manifest ${manifest}: it is a FIFO, not a regular file\n`);
      expect(r.code).toBe(2);
    }
  });

  it('the state file is refused at once, nothing sent', async () => {
    const manifest = join(dir, 'state-test.yaml');
    writeFileSync(manifest, 'monitors:\n  web:\n    name: Web\n');
    const state = fifo('cpk.state.json');
    const sent = f.mark();
    const r = await f.spawned(['plan', '-f', manifest, '--state', state], HANG);
    expect(r.stderr).toBe(`cpk: cannot read the state file ${state}: it is a FIFO, not a regular file\n`);
    expect(r.code).toBe(2);
    expect(sent().filter((q) => q.path !== '/v1/openapi.json')).toEqual([]);
  });

  it('config.json is refused at once (auth status)', async () => {
    const configDir = join(dir, 'config');
    mkdirSync(configDir, { mode: 0o700 });
    const config = fifo('config/config.json');
    const r = await f.spawned(['auth', 'status'], {
      env: { CPK_CONFIG_DIR: configDir, CPK_TOKEN: undefined },
      ...HANG,
    });
    expect(r.stderr).toContain(`cpk: config file ${config} cannot be read: it is a FIFO, not a regular file;`);
    expect(r.code).toBe(2);
  });

  it.each(['--data', '--from'])(
    '%s names one: refused at once, with the way to stream it, nothing sent',
    async (flag) => {
      const path = fifo(`input${flag}`);
      const sent = f.mark();
      const r = await f.spawned(['monitors', 'create', flag, flag === '--data' ? `@${path}` : path], HANG);
      expect(r.stderr).toBe(
        `cpk: cannot read ${flag} file "${path}": it is a FIFO, not a regular file; to read a stream, give ${flag} - and send it on stdin\n`,
      );
      expect(r.code).toBe(2);
      expect(sent()).toEqual([]);
    },
  );

  it('the emulator does not start from one (--import, --persist)', async () => {
    const state = fifo('emulator-state.json');
    for (const [flag, told] of [
      ['--import', `--import: cannot read ${state}: it is a FIFO, not a regular file`],
      ['--persist', `--persist: cannot read ${state}: it is a FIFO, not a regular file`],
    ]) {
      const r = await f.spawned(['emulator', '--port', '0', flag as string, state], HANG);
      expect(r.stderr).toBe(`cpk: ${told}\n`);
      expect(r.code).toBe(2);
    }
  });
});

describe('devices and stdin by name', () => {
  it.runIf(process.platform !== 'win32')('--from /dev/urandom stops at the input cap and says so', async () => {
    const sent = f.mark();
    const r = await f.spawned(['monitors', 'create', '--from', '/dev/urandom'], HANG);
    expect(r.stderr).toBe(
      'cpk: cannot read --from file "/dev/urandom": it is a device and gave more than 32 MiB: too large to read\n',
    );
    expect(r.code).toBe(2);
    expect(sent()).toEqual([]);
  });

  it.runIf(process.platform !== 'win32')('--from /dev/stdin reads the pipe on stdin', async () => {
    const sent = f.mark();
    const r = await f.spawned(['monitors', 'create', '--from', '/dev/stdin', '--json'], {
      input: '{"name":"piped","url":"https://example.com"}\n',
      ...HANG,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // The service's document is read first, to check every line before anything is sent.
    const writes = sent().filter((q) => q.method !== 'GET');
    expect(writes.map((q) => [q.method, q.path, q.body])).toEqual([
      ['POST', '/v1/monitors', '{"name":"piped","url":"https://example.com"}'],
    ]);
  });
});
