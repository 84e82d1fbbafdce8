// Writing the config file, through conf. Every write is a read-modify-write
// under a lock file (proper-lockfile), so concurrent cpk processes never lose
// each other's profiles, and conf writes atomically (a temp file, fsync, then
// rename: a writer killed midway leaves the old file or the new one, never a
// mix). The directory is created 0700 and the file written 0600.
import { chmodSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { CpkError, ExitCode } from '../core/errors.js';
import { assertTrusted, DIR_MODE, FILE_MODE, parseConfig } from './file.js';
import { CONFIG_FILE_NAME, configLocation, PROJECT_NAME, type ConfigLocation } from '../core/paths.js';
import { ConfigError, type ConfigData } from './schema.js';

export interface UpdateOptions {
  warn?: (text: string) => void;
}

/** How long a lock left by a killed cpk counts as held (proper-lockfile refreshes a live one). */
const LOCK_STALE_MS = 3_000;

/** Creates the directory 0700; tightens cpk's own default directory when it is wider. */
export function ensureDirectory(location: ConfigLocation, warn?: (text: string) => void): void {
  try {
    mkdirSync(location.dir, { recursive: true, mode: DIR_MODE });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(
      location.file,
      `cannot be written: its directory cannot be created (${code ?? String(error)})`,
    );
  }
  // A directory named by CPK_CONFIG_DIR may be shared with other things (a CI
  // workspace): cpk leaves its mode alone; the file itself is always 0600.
  if (location.custom || process.platform === 'win32') return;
  try {
    const mode = statSync(location.dir).mode & 0o777;
    if ((mode & 0o077) !== 0) {
      chmodSync(location.dir, DIR_MODE);
      warn?.(
        `config directory ${location.dir} was open to others (mode ${mode.toString(8).padStart(4, '0')}); cpk set it to 0700`,
      );
    }
  } catch {
    // not ours to change: the file's own 0600 still protects the token
  }
}

function readCurrent(file: string): ConfigData {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return {};
    throw new ConfigError(file, `cannot be read (${code ?? String(error)})`);
  }
  return parseConfig(text, file);
}

async function acquireLock(file: string): Promise<() => Promise<void>> {
  const { takeLock, LockHeldError } = await import('../core/lock.js');
  try {
    // Up to 10 s: long enough for 20 writers in a row, or for a lock left by a killed cpk on another host to go stale.
    return await takeLock(file, `${file}.lock`, { staleMs: LOCK_STALE_MS, timeoutMs: 10_000, command: 'cpk config' });
  } catch (error) {
    if (error instanceof LockHeldError) {
      throw new CpkError(`config file ${file} is locked by another cpk (${file}.lock)`, ExitCode.FAILURE, {
        hint: `try again; if no cpk is running, remove ${file}.lock`,
      });
    }
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(file, `cannot be written (lock: ${code ?? String(error)})`);
  }
}

/**
 * Reads the config, lets `mutate` change it, and writes it back through conf.
 * A broken file is reported (ConfigError) and left exactly as it was.
 */
export async function updateConfig<T>(
  env: Readonly<Record<string, string | undefined>>,
  mutate: (data: ConfigData) => T,
  options: UpdateOptions = {},
): Promise<{ result: T; location: ConfigLocation }> {
  const location = configLocation(env);
  ensureDirectory(location, options.warn);
  const release = await acquireLock(location.file);
  try {
    assertTrusted(location);
    const data = structuredClone(readCurrent(location.file));
    const result = mutate(data);
    const { default: Conf } = await import('conf');
    const conf = new Conf<ConfigData>({
      cwd: location.dir,
      configName: CONFIG_FILE_NAME.replace(/\.json$/, ''),
      projectName: PROJECT_NAME,
      projectSuffix: '',
      configFileMode: FILE_MODE,
      accessPropertiesByDotNotation: false,
      clearInvalidConfig: false,
    });
    try {
      conf.store = data;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new ConfigError(
        location.file,
        `cannot be written (${code ?? (error instanceof Error ? error.message : String(error))})`,
      );
    }
    return { result, location };
  } finally {
    await release().catch(() => {});
  }
}
