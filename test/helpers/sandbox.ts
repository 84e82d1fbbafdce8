// A private HOME and config directory shared by several runs of the CLI (a
// user's machine between commands), with no token in the environment.
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, type CliOptions } from './cli.js';
import { runCpk } from './in-process.js';

export interface Sandbox {
  home: string;
  /** CPK_CONFIG_DIR (absent when the sandbox uses the platform default). */
  dir: string;
  file: string;
  env: Record<string, string | undefined>;
  /** The CLI: a child process, or main() in-process when the sandbox asked for it (`inProcess`). */
  cpk(args: string[], options?: CliOptions): ReturnType<typeof runCli>;
  /** Always the built CLI as a child process: the cases that need a real process. */
  spawned(args: string[], options?: CliOptions): ReturnType<typeof runCli>;
  config(): Record<string, unknown>;
  mode(path: string): number;
}

/** `cpk auth login --with-token` in this sandbox, the token typed on stdin. */
export function login(
  s: Sandbox,
  token: string,
  args: string[] = [],
  env: Record<string, string | undefined> = {},
): ReturnType<typeof runCli> {
  return s.cpk(['auth', 'login', '--with-token', ...args], { input: `${token}\n`, env });
}

export function sandbox(
  extra: Record<string, string | undefined> = {},
  options: { defaultLocation?: boolean; inProcess?: boolean } = {},
): Sandbox {
  const home = mkdtempSync(join(tmpdir(), 'cpk-auth-'));
  const dir = options.defaultLocation ? join(home, '.config', 'cpk') : join(home, 'cpk-config');
  const env: Record<string, string | undefined> = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    CPK_CONFIG_DIR: options.defaultLocation ? undefined : dir,
    // No session bus: the keychain does not answer, as on a server or in CI.
    DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(home, 'no-session-bus')}`,
    CPK_TOKEN: undefined,
    CPK_BASE_URL: undefined,
    CPK_PROFILE: undefined,
    ...extra,
  };
  const file = join(dir, 'config.json');
  return {
    home,
    dir,
    file,
    env,
    cpk: (args, opts = {}) => (options.inProcess ? runCpk : runCli)(args, { ...opts, env: { ...env, ...opts.env } }),
    spawned: (args, opts = {}) => runCli(args, { ...opts, env: { ...env, ...opts.env } }),
    config: () => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>,
    mode: (path) => statSync(path).mode & 0o777,
  };
}
