// Help must arrive whole wherever stdout goes, and a closed or failed stdout
// is judged as for any other output.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, constants, existsSync, mkdtempSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, baseEnv, runCli } from '../helpers/cli.js';

/** Runs cpk with stdout the given descriptor (or a pipe closed before anything is read). */
function runWithStdout(args: string[], stdout: 'closed' | number, whileRunning?: () => void) {
  return new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: baseEnv(),
      stdio: ['ignore', stdout === 'closed' ? 'pipe' : stdout, 'pipe'],
    });
    if (stdout === 'closed') child.stdout!.destroy();
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const poll = whileRunning ? setInterval(whileRunning, 5) : undefined;
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      clearInterval(poll);
      resolve({ code, stderr });
    });
  });
}

describe('help output', () => {
  it('is the same through a pipe and into a file', async () => {
    const piped = await runCli(['monitors', '--help']);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toContain('Usage: cpk monitors');
    const file = join(mkdtempSync(join(tmpdir(), 'cpk-help-')), 'help.txt');
    const fd = openSync(file, 'w');
    const r = await runWithStdout(['monitors', '--help'], fd);
    closeSync(fd);
    expect(r).toEqual({ code: 0, stderr: '' });
    expect(readFileSync(file, 'utf8')).toBe(piped.stdout);
  });

  it('into a closed pipe exits 141 with nothing on stderr, as any read does', async () => {
    expect(await runWithStdout(['--help'], 'closed')).toEqual({ code: 141, stderr: '' });
  });

  it.runIf(existsSync('/dev/full'))('into a full disk is one line and exit 74', async () => {
    const fd = openSync('/dev/full', 'w');
    const r = await runWithStdout(['--help'], fd);
    closeSync(fd);
    expect(r.code).toBe(74);
    expect(r.stderr).toBe('cpk: cannot write the output: ENOSPC (no space left on the device)\n');
  });

  // `--version` alone is answered by the shim (bin/cpk.js) without loading the
  // CLI; a failed write is judged as any other output.
  it('--version: into a closed pipe exits 141 and into a full disk exits 74, one line, no stack', async () => {
    expect(await runWithStdout(['--version'], 'closed')).toEqual({ code: 141, stderr: '' });
    if (existsSync('/dev/full')) {
      const fd = openSync('/dev/full', 'w');
      const r = await runWithStdout(['--version'], fd);
      closeSync(fd);
      expect(r).toEqual({ code: 74, stderr: 'cpk: cannot write the output: ENOSPC (no space left on the device)\n' });
    }
  });

  // A pipe whose other end was made non-blocking (as a parent Node process
  // makes its own stdout) and that is full: the help waits for room.
  it.runIf(process.platform === 'linux' && spawnSync('mkfifo', ['--version']).status === 0)(
    'into a full non-blocking pipe arrives whole once the reader reads',
    async () => {
      const expected = (await runCli(['--help'])).stdout;
      const fifo = join(mkdtempSync(join(tmpdir(), 'cpk-fifo-')), 'out');
      expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
      const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
      const writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
      const filler = Buffer.alloc(4096, 'x');
      let filled = 0;
      try {
        for (;;) filled += writeSync(writer, filler);
      } catch (error) {
        expect((error as NodeJS.ErrnoException).code).toBe('EAGAIN');
      }
      const chunks: Buffer[] = [];
      // Read nothing for a while, so that cpk meets the full pipe.
      const readFrom = Date.now() + 500;
      const drain = () => {
        if (Date.now() < readFrom) return;
        const buffer = Buffer.alloc(65536);
        for (;;) {
          let n = 0;
          try {
            n = readSync(reader, buffer);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return;
            throw error;
          }
          if (n === 0) return;
          chunks.push(Buffer.from(buffer.subarray(0, n)));
        }
      };
      const r = await runWithStdout(['--help'], writer, drain);
      closeSync(writer);
      drain(); // what the last turns wrote
      closeSync(reader);
      expect(r).toEqual({ code: 0, stderr: '' });
      const text = Buffer.concat(chunks).toString('utf8');
      expect(text.length).toBe(filled + expected.length);
      expect(text.slice(filled)).toBe(expected);
    },
  );
});
