// cpk's directories (docs/configuration.md and docs/monitors.md name them per
// platform): its CPK_*_DIR when set, else the platform's as env-paths names it,
// without conf's "-nodejs" suffix. conf is always given the config directory
// (`cwd`), so the file cpk reads directly and the file conf writes are the same.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import envPaths from 'env-paths';

export const CONFIG_FILE_NAME = 'config.json';
export const PROJECT_NAME = 'cpk';

/** The environment cpk reads: process.env, or what a test or a library caller gives. */
export type Env = Readonly<Record<string, string | undefined>>;

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

/** The cache directory (the service's OpenAPI documents, src/core/api/spec.ts). */
export const cacheDir = (env: Env): string => cpkDir(env, 'cache');

/** The data directory (the local inventory of monitors, src/config/inventory.ts). */
export const dataDir = (env: Env): string => cpkDir(env, 'data');

const XDG = {
  config: ['CPK_CONFIG_DIR', 'XDG_CONFIG_HOME', '.config'],
  cache: ['CPK_CACHE_DIR', 'XDG_CACHE_HOME', '.cache'],
  data: ['CPK_DATA_DIR', 'XDG_DATA_HOME', join('.local', 'share')],
} as const;

/**
 * On XDG platforms the directory is computed from `env`, not by env-paths, which
 * reads the process's own environment: a main() run with an environment of its
 * own (tests, each with a private HOME) never touches its owner's directories.
 */
function cpkDir(env: Env, kind: keyof typeof XDG): string {
  const [own, variable, underHome] = XDG[kind];
  const custom = env[own]?.trim();
  if (custom) return resolve(custom);
  if (process.platform === 'darwin' || process.platform === 'win32')
    return envPaths(PROJECT_NAME, { suffix: '' })[kind];
  return join(env[variable] || join(env.HOME || homedir(), underHome), PROJECT_NAME);
}
