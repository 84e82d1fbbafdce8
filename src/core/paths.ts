// Where the config file lives. conf is always given this directory (`cwd`),
// so the file cpk reads directly and the file conf writes are the same file.
//
// Default: the platform's config directory as conf would pick it (env-paths,
// the library conf uses), without conf's "-nodejs" suffix:
//   Linux   $XDG_CONFIG_HOME/cpk/config.json (~/.config/cpk/config.json)
//   macOS   ~/Library/Preferences/cpk/config.json
//   Windows %APPDATA%\cpk\Config\config.json
// CPK_CONFIG_DIR replaces the directory (tests and CI use it).
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import envPaths from 'env-paths';

export const CONFIG_FILE_NAME = 'config.json';
export const PROJECT_NAME = 'cpk';

type Env = Readonly<Record<string, string | undefined>>;

export interface ConfigLocation {
  dir: string;
  file: string;
  /** true when CPK_CONFIG_DIR named the directory (cpk then never changes the directory's mode). */
  custom: boolean;
}

export function configLocation(env: Env): ConfigLocation {
  const dir = cpkDir(env, 'config');
  return { dir, file: join(dir, CONFIG_FILE_NAME), custom: Boolean(env.CPK_CONFIG_DIR?.trim()) };
}

/**
 * cpk's cache directory (the service's OpenAPI documents, src/core/api/spec.ts):
 * $XDG_CACHE_HOME/cpk on Linux (~/.cache/cpk), ~/Library/Caches/cpk on macOS,
 * %LOCALAPPDATA%\cpk\Cache on Windows. CPK_CACHE_DIR replaces it.
 */
export const cacheDir = (env: Env): string => cpkDir(env, 'cache');

/**
 * cpk's data directory (the local inventory of monitors, src/config/inventory.ts):
 * $XDG_DATA_HOME/cpk on Linux (~/.local/share/cpk), ~/Library/Application
 * Support/cpk on macOS, %LOCALAPPDATA%\cpk\Data on Windows. CPK_DATA_DIR replaces it.
 */
export const dataDir = (env: Env): string => cpkDir(env, 'data');

const XDG = {
  config: ['CPK_CONFIG_DIR', 'XDG_CONFIG_HOME', '.config'],
  cache: ['CPK_CACHE_DIR', 'XDG_CACHE_HOME', '.cache'],
  data: ['CPK_DATA_DIR', 'XDG_DATA_HOME', join('.local', 'share')],
} as const;

/**
 * cpk's directory of this kind: its CPK_*_DIR when set, else as env-paths
 * names it, from the environment cpk was given. env-paths reads the process's own environment (and its home
 * directory once, when loaded); on Linux and the other XDG platforms the
 * answer depends on that environment, so it is read here from `env` instead:
 * the same values in a real run, and a main() run with an environment of its
 * own (tests run commands in-process, each with a private HOME) never reads
 * or writes the directories of the process's owner.
 */
function cpkDir(env: Env, kind: keyof typeof XDG): string {
  const [own, variable, underHome] = XDG[kind];
  const custom = env[own]?.trim();
  if (custom) return resolve(custom);
  if (process.platform === 'darwin' || process.platform === 'win32')
    return envPaths(PROJECT_NAME, { suffix: '' })[kind];
  return join(env[variable] || join(env.HOME || homedir(), underHome), PROJECT_NAME);
}
