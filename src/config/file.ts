// Reading the config file. Commands that only read (every API command, `auth
// status`, `auth token`, `profile list`) read the JSON directly: conf costs
// ~40 ms to import and creates its directory when constructed, and a read must
// create nothing. Writes go through conf (store.ts), to the same file.
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { describeJsonError, parseUserJson } from '../core/json.js';
import { configLocation, type ConfigLocation } from '../core/paths.js';
import { ConfigError, findProblem, type ConfigData } from './schema.js';

export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;

export interface LoadedConfig {
  location: ConfigLocation;
  exists: boolean;
  data: ConfigData;
}

export interface LoadOptions {
  /** Told when cpk repaired a file mode that let others read the token. */
  warn?: (text: string) => void;
}

/** Parses and checks the file's text; throws ConfigError naming the file. */
export function parseConfig(text: string, file: string): ConfigData {
  let data: unknown;
  try {
    data = parseUserJson(text);
  } catch (error) {
    throw new ConfigError(file, describeJsonError(text, error));
  }
  const problem = findProblem(data);
  if (problem) throw new ConfigError(file, problem);
  return data as ConfigData;
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'EACCES' || code === 'EPERM') throw new ConfigError(file, 'cannot be read (permission denied)');
    if (code === 'EISDIR') throw new ConfigError(file, 'is a directory, not a file');
    if (code === 'ENOTDIR')
      throw new ConfigError(
        file,
        'cannot be read: a part of its path is a file, not a directory (check CPK_CONFIG_DIR)',
      );
    throw new ConfigError(file, `cannot be read (${code ?? String(error)})`);
  }
}

/**
 * Tightens a config file that others can read to 0600: an existing
 * file whose mode is wider is repaired, not refused. Only called on a file
 * that parsed: a broken file is left exactly as it was.
 */
export function repairFileMode(file: string, warn?: (text: string) => void): void {
  if (process.platform === 'win32') return;
  let mode: number;
  try {
    mode = statSync(file).mode & 0o777;
  } catch {
    return;
  }
  if ((mode & 0o077) === 0) return;
  const octal = mode.toString(8).padStart(4, '0');
  try {
    chmodSync(file, FILE_MODE);
    warn?.(`config file ${file} was readable by others (mode ${octal}); cpk set it to 0600`);
  } catch {
    warn?.(
      `config file ${file} is readable by others (mode ${octal}) and cpk could not change it: run chmod 600 "${file}"`,
    );
  }
}

export interface TrustProblem {
  problem: string;
  fix: string;
}

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(4, '0');

/**
 * Why the config file cannot be trusted, if it cannot: as
 * ssh does with its keys, a file or directory owned by another user (not you,
 * not root), or that others can write (a directory without the sticky bit),
 * could have been planted by another local user with a base URL of theirs, to
 * receive your CPK_TOKEN. `owners` are the trusted owners (you and root).
 */
export function trustProblem(
  file: string,
  dir: string,
  owners: readonly number[] = typeof process.getuid === 'function' ? [process.getuid(), 0] : [],
): TrustProblem | undefined {
  if (process.platform === 'win32' || owners.length === 0) return undefined;
  const stat = (path: string) => {
    try {
      return statSync(path);
    } catch {
      return undefined;
    }
  };
  const fileStat = stat(file);
  if (!fileStat) return undefined;
  const why = 'another local user could have written a base URL of theirs into it, to receive your token';
  if (!owners.includes(fileStat.uid))
    return {
      problem: `is owned by another user (uid ${fileStat.uid}): ${why}; cpk has not used it`,
      fix: `check it, then make it yours: sudo chown "$(id -u)" "${file}"`,
    };
  if ((fileStat.mode & 0o022) !== 0)
    return {
      problem: `is writable by others (mode ${octal(fileStat.mode)}): ${why}; cpk has not used it`,
      fix: `check it, then run chmod 600 "${file}"`,
    };
  const dirStat = stat(dir);
  if (!dirStat) return undefined;
  if (!owners.includes(dirStat.uid))
    return {
      problem: `is in a directory owned by another user (${dir}, uid ${dirStat.uid}), who could replace it; cpk has not used it`,
      fix: `keep the config in a directory of your own (CPK_CONFIG_DIR)`,
    };
  if ((dirStat.mode & 0o022) !== 0 && (dirStat.mode & 0o1000) === 0)
    return {
      problem: `is in a directory others can write (${dir}, mode ${octal(dirStat.mode)}), so they could replace it; cpk has not used it`,
      fix: `check the file, then run chmod go-w "${dir}"`,
    };
  return undefined;
}

/** Throws ConfigError when the config file cannot be trusted (trustProblem). */
export function assertTrusted(location: ConfigLocation): void {
  const found = trustProblem(location.file, location.dir);
  if (found) throw new ConfigError(location.file, found.problem, found.fix);
}

/** Reads the config file if there is one. Never creates anything. */
export function loadConfig(env: Readonly<Record<string, string | undefined>>, options: LoadOptions = {}): LoadedConfig {
  const location = configLocation(env);
  assertTrusted(location);
  const text = readText(location.file);
  if (text === undefined) return { location, exists: false, data: {} };
  const data = parseConfig(text, location.file);
  repairFileMode(location.file, options.warn);
  return { location, exists: true, data };
}
