// `cpk help`, grouped help, did-you-mean, and errors that tell a lost user what to do.
import { describe, expect, it } from 'vitest';
import { runCpk } from '../helpers/in-process.js';
import { useEmulator } from '../helpers/emulator.js';
import { Context } from '../../src/cli/context.js';
import { parseGlobals } from '../../src/cli/globals.js';
import { ApiError, NetworkError } from '../../src/core/errors.js';
import { editDistance, closest } from '../../src/core/closest.js';

const f = useEmulator({}, { inProcess: true });

describe('cpk help', () => {
  it('prints what --help prints, for the program and for a subcommand', async () => {
    const [help, flag, sub, subFlag] = await Promise.all([
      runCpk(['help']),
      runCpk(['--help']),
      runCpk(['help', 'monitors', 'get']),
      runCpk(['monitors', 'get', '--help']),
    ]);
    expect(help).toEqual(flag);
    expect(sub.code).toBe(0);
    expect(sub.stdout).toBe(subFlag.stdout);
    expect(sub.stdout).toMatch(/^Usage: cpk monitors get\|view /);
    // The command's own options come before the global ones.
    expect(sub.stdout.indexOf('--concurrency')).toBeLessThan(sub.stdout.indexOf('Global Options:'));
  });

  it('groups the top-level commands: everyday, monitors as code, setup', async () => {
    const { stdout } = await runCpk(['--help']);
    const at = (s: string) => stdout.indexOf(s);
    expect(at('Everyday:')).toBeGreaterThan(0);
    expect(at('Everyday:')).toBeLessThan(at('  monitors '));
    expect(at('  monitors ')).toBeLessThan(at('Monitors as code:'));
    expect(at('Monitors as code:')).toBeLessThan(at('  plan '));
    expect(at('  apply ')).toBeLessThan(at('Setup:'));
    expect(at('Setup:')).toBeLessThan(at('  auth '));
  });

  it('an unknown command is one line, exit 2, with the nearest real one', async () => {
    expect(await runCpk(['help', 'monitors', 'gte'])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `cpk: unknown command 'monitors gte'; did you mean "cpk monitors get"?\n`,
    });
    expect((await runCpk(['help', 'zzz'])).stderr).toBe("cpk: unknown command 'zzz'\n");
    const typo = await runCpk(['monitors', 'lsit']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe(`cpk: unknown command 'lsit'; did you mean "cpk monitors list"?\n`);
    // Suggestions come from the commands help lists: a group's help command, never a hidden one.
    expect((await runCpk(['monitors', 'hlp'])).stderr).toBe(
      `cpk: unknown command 'hlp'; did you mean "cpk monitors help"?\n`,
    );
    expect((await runCpk(['versio'])).stderr).toBe(`cpk: unknown command 'versio' (see --help)\n`);
    expect(editDistance('gte', 'get')).toBe(1);
    expect(closest('monitrs', ['monitors', 'channels'])).toBe('monitors');
    expect(closest('xyz', ['monitors'])).toBeUndefined();
  });
});

describe('errors that say what to do next', () => {
  it('a 401 names where the token came from', async () => {
    const r = await f.cpk(['monitors', 'get', 'mon_x'], { env: { CPK_TOKEN: 'cpk_wrong_token_000' } });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(
      /^cpk: .*; the token came from CPK_TOKEN: set a valid one, or unset it to use a profile \(request id: req_\w+\)\n$/,
    );
  });

  it('a refused connection to the default address suggests cpk emulator; another address does not', async () => {
    const io = (env: Record<string, string>) => ({
      stdout: { write: () => true },
      stderr: { write: () => true },
      stdin: process.stdin,
      stdinIsTTY: false,
      stdoutIsTTY: false,
      stderrIsTTY: false,
      env: { CPK_CONFIG_DIR: '/nonexistent/cpk', CPK_DATA_DIR: '/nonexistent/cpk', ...env },
    });
    const refused = new NetworkError('cannot connect to http://127.0.0.1:4010 (ECONNREFUSED); check --base-url');
    const local = new Context(io({ CPK_TOKEN: 'cpk_abcdefgh1' }), parseGlobals({}));
    await local.api();
    expect(local.guidance(refused)).toContain('start it with `cpk emulator`');
    const remote = new Context(
      io({ CPK_TOKEN: 'cpk_abcdefgh1', CPK_BASE_URL: 'https://api.example.com' }),
      parseGlobals({}),
    );
    await remote.api();
    expect(remote.guidance(refused)).toBeUndefined();
    const unauthorized = new ApiError('unauthorized', { status: 401, method: 'GET', url: 'u' });
    expect(remote.guidance(unauthorized)).toBe(
      'the token came from CPK_TOKEN: set a valid one, or unset it to use a profile',
    );
    await Promise.all([local.close(), remote.close()]);
  });
});
