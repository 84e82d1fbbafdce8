// `cpk emulator`'s risky flags: an address beyond loopback is warned about on
// stderr (the published test tokens give full access there), and empty or
// unusable values are usage errors (exit 2), never "unexpected error" or a
// silent listen on every interface. No test sends anything beyond loopback:
// the one run bound to 0.0.0.0 only reads its start-up output and stops.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, baseEnv } from '../helpers/cli.js';
import { runCpk } from '../helpers/in-process.js';

const WARNING = (address: string) =>
  `warning: listening on ${address}, which other machines can reach: the emulator's test tokens are published (docs/emulator.md), so anyone who connects has full access; use --host 127.0.0.1 unless the network is yours alone\n`;

/** Starts the built emulator on `host`, waits for its first stdout line, stops it: its exit code and stderr. */
function startAndStop(host: string) {
  return new Promise<{ code: number | null; line: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'emulator', '--host', host, '--port', '0', '--json', '-q'], {
      env: baseEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('\n')) child.kill('SIGTERM');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, line: out.split('\n')[0] ?? '', stderr }));
  });
}

describe('cpk emulator --host', () => {
  it.each([
    ['0.0.0.0', WARNING('0.0.0.0')],
    ['127.0.0.1', ''],
  ])('--host %s starts, with the exposure warning only beyond loopback', async (host, warning) => {
    const r = await startAndStop(host);
    expect(r.stderr).toBe(warning);
    expect(JSON.parse(r.line)).toMatchObject({ base_url: expect.stringMatching(`^http://${host}:\\d+/v1$`) });
    expect(r.code).toBe(0);
  });
});

describe('cpk emulator: values that cannot work are usage errors', () => {
  it.each([
    [['--admin-secret', ''], 'invalid --admin-secret: expected 1 or more visible ASCII characters, no spaces'],
    [['--admin-secret', 'two words'], 'invalid --admin-secret: expected 1 or more visible ASCII characters, no spaces'],
    [
      ['--admin-secret', 'line\nbreak'],
      'invalid --admin-secret: expected 1 or more visible ASCII characters, no spaces',
    ],
    [['--host', ''], 'invalid --host "": expected an address to listen on (e.g. 127.0.0.1)'],
    [['--import', ''], 'invalid --import "": expected a file'],
    [['--persist', ''], 'invalid --persist "": expected a file'],
    [['--export-on-exit', ' '], 'invalid --export-on-exit " ": expected a file'],
  ])('%j', async (args, message) => {
    const r = await runCpk(['emulator', '--port', '0', ...args]);
    expect(r.stderr).toBe(`cpk: ${message}\n`);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });
});
