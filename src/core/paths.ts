// Where the config file lives. conf is always given this directory (`cwd`),
// so the file cpk reads directly and the file conf writes are the same file.
//
// Default: the platform's config directory as conf would pick it (env-paths,
// the library conf uses), without conf's "-nodejs" suffix:
//   Linux   $XDG_CONFIG_HOME/cpk/config.json (~/.config/cpk/config.json)
//   macOS   ~/Library/Preferences/cpk/config.json
//   Windows %APPDATA%\cpk\Config\config.json
// CPK_CONFIG_DIR replaces the directory (tests and CI use it).
import { join, resolve } from 'node:path';
import envPaths from 'env-paths';

export const CONFIG_FILE_NAME = 'config.json';
export const PROJECT_NAME = 'cpk';

export interface ConfigLocation {
  dir: string;
  file: string;
  /** true when CPK_CONFIG_DIR named the directory (cpk then never changes the directory's mode). */
  custom: boolean;
}

export function configLocation(env: Readonly<Record<string, string | undefined>>): ConfigLocation {
  const custom = env.CPK_CONFIG_DIR?.trim();
  const dir = custom ? resolve(custom) : envPaths(PROJECT_NAME, { suffix: '' }).config;
  return { dir, file: join(dir, CONFIG_FILE_NAME), custom: Boolean(custom) };
}

/**
 * cpk's cache directory (the service's OpenAPI documents, src/core/api/spec.ts):
 * $XDG_CACHE_HOME/cpk on Linux (~/.cache/cpk), ~/Library/Caches/cpk on macOS,
 * %LOCALAPPDATA%\cpk\Cache on Windows. CPK_CACHE_DIR replaces it.
 */
export function cacheDir(env: Readonly<Record<string, string | undefined>>): string {
  const custom = env.CPK_CACHE_DIR?.trim();
  return custom ? resolve(custom) : envPaths(PROJECT_NAME, { suffix: '' }).cache;
}

/**
 * cpk's data directory (the local inventory of monitors, src/config/inventory.ts):
 * $XDG_DATA_HOME/cpk on Linux (~/.local/share/cpk), ~/Library/Application
 * Support/cpk on macOS, %LOCALAPPDATA%\cpk\Data on Windows. CPK_DATA_DIR replaces it.
 */
export function dataDir(env: Readonly<Record<string, string | undefined>>): string {
  const custom = env.CPK_DATA_DIR?.trim();
  return custom ? resolve(custom) : envPaths(PROJECT_NAME, { suffix: '' }).data;
}
