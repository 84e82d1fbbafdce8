// The config file. Commands that only read (every API command, `auth status`,
// `auth token`, `profile list`) read the JSON directly: conf costs ~40 ms to
// import and creates its directory when constructed, and a read must create
// nothing. Writes go through conf, to the same file (updateConfig).
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { CpkError, ExitCode } from '../core/errors.js';
import { readFileText, UnreadableFileError } from '../core/io.js';
import { describeJsonError, parseUserJson } from '../core/json.js';
import { CONFIG_FILE_NAME, configLocation, type ConfigLocation, type Env } from '../core/paths.js';
import { configError, findProblem, type ConfigData } from './schema.js';

type Warn = ((text: string) => void) | undefined;

const reason = (error: unknown) =>
  (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));

export interface LoadedConfig {
  location: ConfigLocation;
  exists: boolean;
  data: ConfigData;
}

export function parseConfig(text: string, file: string): ConfigData {
  let data: unknown;
  try {
    data = parseUserJson(text);
  } catch (error) {
    throw configError(file, describeJsonError(text, error));
  }
  const problem = findProblem(data);
  if (problem) throw configError(file, problem);
  return data as ConfigData;
}

function readConfig(file: string): ConfigData | undefined {
  let text: string;
  try {
    text = readFileText(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'EACCES' || code === 'EPERM') throw configError(file, 'cannot be read (permission denied)');
    if (code === 'EISDIR') throw configError(file, 'is a directory, not a file');
    if (error instanceof UnreadableFileError) throw configError(file, `cannot be read: ${error.message}`);
    if (code === 'ENOTDIR')
      throw configError(file, 'cannot be read: a part of its path is a file, not a directory (check CPK_CONFIG_DIR)');
    throw configError(file, `cannot be read (${reason(error)})`);
  }
  return parseConfig(text, file);
}

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(4, '0');

/** Repaired, not refused, with a warning; `cannot` warns if chmod fails (none: the file's 0600 protects the token). */
function tighten(path: string, mode: number, was: string, warn: Warn, cannot?: (octal: string) => string): void {
  if (process.platform === 'win32') return;
  let current: number;
  try {
    current = statSync(path).mode;
  } catch {
    return;
  }
  if ((current & 0o077) === 0) return;
  try {
    chmodSync(path, mode);
    warn?.(`${was} (mode ${octal(current)}); cpk set it to ${octal(mode)}`);
  } catch {
    if (cannot) warn?.(cannot(octal(current)));
  }
}

/**
 * As ssh does with its keys: a file or directory owned by another user (not you, not root), or that
 * others can write (a directory without the sticky bit), could carry another user's base URL to receive your token.
 */
export function trustProblem(
  file: string,
  dir: string,
  owners: readonly number[] = typeof process.getuid === 'function' ? [process.getuid(), 0] : [],
): { problem: string; fix: string } | undefined {
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

export function assertTrusted(location: ConfigLocation): void {
  const found = trustProblem(location.file, location.dir);
  if (found) throw configError(location.file, found.problem, found.fix);
}

/** Reads the config file if there is one. Never creates anything. */
export function loadConfig(env: Env, warn?: Warn): LoadedConfig {
  const location = configLocation(env);
  assertTrusted(location);
  const data = readConfig(location.file);
  if (data === undefined) return { location, exists: false, data: {} };
  // Only a file that parsed: a broken file is left exactly as it was.
  tighten(
    location.file,
    0o600,
    `config file ${location.file} was readable by others`,
    warn,
    (mode) =>
      `config file ${location.file} is readable by others (mode ${mode}) and cpk could not change it: run chmod 600 "${location.file}"`,
  );
  return { location, exists: true, data };
}

/** How long a lock left by a killed cpk counts as held (proper-lockfile refreshes a live one). */
const LOCK_STALE_MS = 3_000;

async function acquireLock(file: string): Promise<() => Promise<void>> {
  const { takeLock, LockHeldError } = await import('../core/lock.js');
  try {
    // A write holds the lock for milliseconds: however many writers are queued
    // ahead, the wait goes on while the lock keeps changing hands, and ends
    // only when one holder keeps it 10 s (long enough for a lock left by a
    // killed cpk on another host to go stale).
    return await takeLock(file, `${file}.lock`, {
      staleMs: LOCK_STALE_MS,
      timeoutMs: 10_000,
      perHolder: true,
      command: 'cpk config',
    });
  } catch (error) {
    if (error instanceof LockHeldError) {
      throw new CpkError(`config file ${file} is locked by another cpk (${file}.lock)`, ExitCode.FAILURE, {
        hint: `try again; if no cpk is running, remove ${file}.lock`,
      });
    }
    throw configError(file, `cannot be written (lock: ${reason(error)})`);
  }
}

/**
 * A read-modify-write under a lock file, so concurrent cpk processes never lose each other's profiles; conf
 * writes atomically (temp file, fsync, rename: a killed writer leaves the old file or the new one). A broken
 * file is reported (configError) and left exactly as it was.
 */
export async function updateConfig<T>(
  env: Env,
  mutate: (data: ConfigData) => T,
  warn?: Warn,
): Promise<{ result: T; location: ConfigLocation }> {
  const location = configLocation(env);
  try {
    mkdirSync(location.dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw configError(location.file, `cannot be written: its directory cannot be created (${reason(error)})`);
  }
  // A directory named by CPK_CONFIG_DIR may be shared with other things (a CI
  // workspace): cpk leaves its mode alone; the file itself is always 0600.
  if (!location.custom) tighten(location.dir, 0o700, `config directory ${location.dir} was open to others`, warn);
  // Loaded before the lock is taken: loading conf costs far more than the
  // write itself, and every writer queued behind this one would wait for it.
  const { default: Conf } = await import('conf');
  const release = await acquireLock(location.file);
  try {
    assertTrusted(location);
    const data = readConfig(location.file) ?? {};
    const result = mutate(data);
    // Only `store` is used: with `cwd` given, conf needs no project name.
    const conf = new Conf<ConfigData>({
      cwd: location.dir,
      configName: CONFIG_FILE_NAME.replace(/\.json$/, ''),
      configFileMode: 0o600,
      clearInvalidConfig: false,
    });
    try {
      conf.store = data;
    } catch (error) {
      throw configError(location.file, `cannot be written (${reason(error)})`);
    }
    return { result, location };
  } finally {
    await release().catch(() => {});
  }
}
