// Hints that show: the emulator hint on a refused default address (once), and
// `cpk doctor` saying each thing once, showing what it could not check, and
// fitting the terminal.
import { describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { runCpk } from '../helpers/in-process.js';
import { fakeContext, fakeIO } from '../helpers/fake-io.js';
import { emulatorHint } from '../../src/cli/guidance.js';
import { DEFAULT_BASE_URL } from '../../src/core/base-url.js';
import { writeError } from '../../src/output/errors.js';
import { checkLines } from '../../src/commands/doctor/doctor.js';

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The error the HTTP client really gives for a refused connection. */
async function refusedError(): Promise<unknown> {
  const port = await closedPort();
  const ctx = fakeContext(
    fakeIO({
      env: {
        CPK_TOKEN: 'cpk_abcdefgh1',
        CPK_BASE_URL: `http://127.0.0.1:${port}/v1`,
        CPK_CONFIG_DIR: '/nonexistent/cpk',
      },
    }),
    { retries: '0' },
  );
  try {
    const api = await ctx.api();
    await api.getMonitor('mon_1');
  } catch (error) {
    return error;
  } finally {
    await ctx.close();
  }
  throw new Error('the request did not fail');
}

describe('the emulator hint', () => {
  it('replaces the network hint on a refused default address, and appears once', async () => {
    const error = await refusedError();
    const io = fakeIO();
    const code = writeError(io, error, { json: false, debug: false, hint: emulatorHint(error, DEFAULT_BASE_URL) });
    expect(code).toBe(3);
    expect(io.err.match(/cpk emulator/g)).toHaveLength(1);
    expect(io.err).not.toContain('check --base-url / CPK_BASE_URL and your network');
    expect(io.err.split('\n')).toHaveLength(2);
  });

  it("is what main writes: the context's guidance gives it for the client's real error, which has its own hint", async () => {
    const error = await refusedError();
    const ctx = fakeContext(fakeIO({ env: { CPK_TOKEN: 'cpk_abcdefgh1', CPK_CONFIG_DIR: '/nonexistent/cpk' } }));
    await ctx.api(); // the default address, as nothing else is configured
    expect(ctx.guidance(error)).toBe(emulatorHint(error, DEFAULT_BASE_URL));
    expect(ctx.guidance(error)).toContain('`cpk emulator`');
    await ctx.close();
  });

  it('is not given for another address', async () => {
    const error = await refusedError();
    expect(emulatorHint(error, 'https://api.example.com/v1')).toBeUndefined();
  });
});

describe('cpk doctor says each thing once', () => {
  it('a refused address: the fix does not repeat the detail; clock and token show as not checked', async () => {
    const port = await closedPort();
    const r = await runCpk(['doctor', '--retries', '0', '--base-url', `http://127.0.0.1:${port}/v1`], {
      env: { CPK_TOKEN: 'cpk_abcdefgh1' },
    });
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    const service = lines.findIndex((l) => l.startsWith('✗ Service:'));
    expect(lines[service]).toBe(`✗ Service: cannot connect to http://127.0.0.1:${port} (ECONNREFUSED)`);
    expect(lines[service + 1]).toBe('    fix: check --base-url / CPK_BASE_URL and your network');
    expect(lines).toContain('- Clock: not checked: the service did not answer');
    expect(lines).toContain('- Token: not checked: the service did not answer');
    for (const line of lines.filter((l) => l.includes('fix:'))) {
      const fix = line.replace(/^\s*fix: /, '');
      expect(r.stdout.split(fix)).toHaveLength(2);
    }
    const json = await runCpk(['doctor', '--json', '--retries', '0', '--base-url', `http://127.0.0.1:${port}/v1`], {
      env: { CPK_TOKEN: 'cpk_abcdefgh1' },
    });
    const report = JSON.parse(json.stdout) as { checks: Array<{ name: string; skipped: boolean }> };
    expect(report.checks.filter((c) => c.skipped).map((c) => c.name)).toEqual(['Clock', 'Token']);
  });

  it('names the default base URL without nested brackets', async () => {
    const r = await runCpk(['doctor', '--retries', '0', '--timeout', '1'], { env: { CPK_TOKEN: undefined } });
    expect(r.stdout).toContain(`${DEFAULT_BASE_URL} (from default, the local emulator)`);
    expect(r.stdout).not.toMatch(/\([^()]*\(/);
  });

  it('wraps long lines at spaces to the terminal, continued under their text', () => {
    const detail = 'cannot connect to http://127.0.0.1:4010 (ECONNREFUSED) because nothing listens there at all';
    const lines = checkLines(
      [
        {
          name: 'Service',
          ok: false,
          detail,
          fix: 'start it with `cpk emulator` in another terminal, or point cpk elsewhere',
        },
      ],
      40,
    );
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(40);
    expect(lines[0]).toMatch(/^✗ Service: /);
    expect(lines.slice(1).every((l) => l.startsWith('  '))).toBe(true);
    expect(lines.join(' ').replace(/\s+/g, ' ')).toBe(
      `✗ Service: ${detail} fix: start it with \`cpk emulator\` in another terminal, or point cpk elsewhere`,
    );
    // Off a terminal: one line each, whole.
    expect(checkLines([{ name: 'Service', ok: false, detail, fix: 'x' }], undefined)).toEqual([
      `✗ Service: ${detail}`,
      '    fix: x',
    ]);
  });
});
