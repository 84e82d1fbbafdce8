// A closed stdout (`cpk ... | head`) and a failed one (`> /dev/full`): the
// exit code is the command's own result, never 0 for a failure; a read cut
// short exits 141 (as SIGPIPE would); a write always finishes.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, baseEnv } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';

const f = useEmulator();

/**
 * Runs cpk with stdout a pipe closed before anything is read (or a file
 * descriptor); `fileSizeLimit` runs it under `ulimit -f 0` (a write to a file
 * then fails with EFBIG). Killed after `timeoutMs`, only to catch a hang.
 */
function runWithStdout(
  args: string[],
  stdout: 'closed' | number,
  timeoutMs = 60_000,
  options: { fileSizeLimit?: boolean } = {},
) {
  return new Promise<{ code: number | NodeJS.Signals | null; stderr: string; ms: number }>((resolve) => {
    const started = Date.now();
    const [command, argv] = options.fileSizeLimit
      ? ['sh', ['-c', 'ulimit -f 0 && exec "$@"', 'sh', process.execPath, BIN, ...args]]
      : [process.execPath, [BIN, ...args]];
    const child = spawn(command, argv, {
      env: baseEnv(f.env),
      stdio: ['ignore', stdout === 'closed' ? 'pipe' : stdout, 'pipe'],
    });
    if (stdout === 'closed') child.stdout!.destroy();
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal, stderr, ms: Date.now() - started });
    });
  });
}

describe('closed stdout (EPIPE)', () => {
  it('a read exits 141 with nothing on stderr; a failed read keeps its own code', async () => {
    const id = await f.create({ name: 'pipe' });
    const read = await runWithStdout(['monitors', 'get', id, '--json'], 'closed');
    expect(read).toMatchObject({ code: 141, stderr: '' });
    const missing = await runWithStdout(['monitors', 'get', 'mon_doesnotexist1'], 'closed');
    expect(missing.code).toBe(6);
  });

  it('a write finishes and exits with its own result: the monitor exists', async () => {
    const before = f.emu.monitors().length;
    const r = await runWithStdout(['monitors', 'create', '--name', 'written-anyway', '--json'], 'closed');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(f.emu.monitors().filter((m) => m.name === 'written-anyway')).toHaveLength(1);
    expect(f.emu.monitors().length).toBe(before + 1);
  });

  it('a watch whose reader went away stops instead of polling forever', async () => {
    const id = await f.create({ name: 'watched' });
    const report = id.replace('mon_', 'rpt_');
    const r = await runWithStdout(['reports', 'get', report, '--watch', '--every', '1s'], 'closed');
    expect(r.code).toBe(141);
    const board = await runWithStdout(['monitors', 'watch', id, '--every', '1s'], 'closed');
    expect([board.code, board.stderr]).toEqual([141, '']);
  });
});

describe.runIf(existsSync('/dev/full'))('failed stdout (/dev/full)', () => {
  it('is one clear line and exit 74, for a read and for a write (which still happens)', async () => {
    const id = await f.create({ name: 'full' });
    const read = await runWithStdout(['monitors', 'get', id], openSync('/dev/full', 'w'));
    expect(read).toMatchObject({
      code: 74,
      stderr: 'cpk: cannot write the output: ENOSPC (no space left on the device)\n',
    });
    const write = await runWithStdout(['monitors', 'create', '--name', 'full-write', '-q'], openSync('/dev/full', 'w'));
    expect(write.code).toBe(74);
    expect(f.emu.monitors().filter((m) => m.name === 'full-write')).toHaveLength(1);
  });

  it('ends a watch by itself at the first failed write, with exit 74 and one line', async () => {
    const id = await f.create({ name: 'full-watch' });
    const line = 'cpk: cannot write the output: ENOSPC (no space left on the device)\n';
    const board = await runWithStdout(['monitors', 'watch', id, '--every', '1s'], openSync('/dev/full', 'w'));
    expect([board.code, board.stderr]).toEqual([74, line]);
    const report = id.replace('mon_', 'rpt_');
    const watch = await runWithStdout(
      ['reports', 'get', report, '--watch', '--every', '1s'],
      openSync('/dev/full', 'w'),
    );
    expect([watch.code, watch.stderr]).toEqual([74, line]);
  });
});

describe.runIf(process.platform !== 'win32')('failed stdout (a file-size limit)', () => {
  it('ends a watch by itself at the first failed write, with exit 74 and one line', async () => {
    const id = await f.create({ name: 'limited-watch' });
    const dir = mkdtempSync(join(tmpdir(), 'cpk-efbig-'));
    const file = openSync(join(dir, 'changes.ndjson'), 'w');
    const r = await runWithStdout(['monitors', 'watch', id, '--every', '1s'], file, 60_000, { fileSizeLimit: true });
    closeSync(file);
    rmSync(dir, { recursive: true, force: true });
    expect([r.code, r.stderr]).toEqual([74, 'cpk: cannot write the output: EFBIG (file too large for its limit)\n']);
  });
});

describe('bounded stdin', () => {
  it('a token on stdin over 64 KiB and a --from - over 32 MiB are usage errors, not gigabytes of memory', async () => {
    const token = await f.cpk(['auth', 'login', '--with-token', '--no-verify'], { input: 'cpk_' + 'a'.repeat(70_000) });
    expect(token.code).toBe(2);
    expect(token.stderr).toBe('cpk: the token on stdin holds more than 64 KiB: too large to read\n');
    const big = await f.cpk(['monitors', 'create', '--from', '-'], { input: '{"name":"x"}\n'.repeat(2_700_000) });
    expect(big.code).toBe(2);
    expect(big.stderr).toBe('cpk: stdin holds more than 32 MiB: too large to read\n');
  });
});
