// The shape of cpk's config file (one JSON object, written through conf):
//
//   {
//     "current_profile": "prod",
//     "profiles": {
//       "prod":    { "base_url": "https://api.example.com/v1", "token_storage": "keychain",
//                    "keychain": { "service": "cpk", "account": "prod@3f9a…" } },
//       "staging": { "base_url": "https://staging.example.com/v1", "token_storage": "file", "token": "cpk_…" }
//     }
//   }
//
// Unknown keys are kept as they are (a newer cpk may have written them). A
// file that is not JSON or not this shape is refused (configError): cpk reports it and
// never rewrites the file (a user's config is never cleared silently).
import { UsageError } from '../core/errors.js';
import { isPlainObject } from '../core/json.js';

export type TokenStorage = 'file' | 'keychain';

export interface KeychainRef {
  service: string;
  account: string;
}

export interface ProfileRecord {
  base_url?: string;
  token_storage?: TokenStorage;
  /** Only when token_storage is "file". */
  token?: string;
  /** Only when token_storage is "keychain": where the token is, never the token. */
  keychain?: KeychainRef;
  [key: string]: unknown;
}

export interface ConfigData {
  current_profile?: string;
  profiles?: Record<string, ProfileRecord>;
  [key: string]: unknown;
}

/** A problem of the config file: exit 2, a message that names the file, and the fix. */
export function configError(
  file: string,
  problem: string,
  hint = `fix it by hand, or move it away (e.g. mv "${file}" "${file}.bak") and run \`cpk auth login\` again; cpk has not changed it`,
): UsageError {
  return new UsageError(`config file ${file} ${problem}`, { hint });
}

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function checkProfileName(name: string, source: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(
      `invalid profile name "${name}" (from ${source}): use letters, digits, ".", "_" and "-", starting with a letter or digit (at most 64)`,
    );
  }
  return name;
}

/** The first problem of the parsed file, if any. */
export function findProblem(data: unknown): string | undefined {
  if (!isPlainObject(data))
    return `holds ${Array.isArray(data) ? 'an array' : typeof data === 'object' ? 'null' : `a ${typeof data}`}, not a JSON object`;
  if (data.current_profile !== undefined && typeof data.current_profile !== 'string')
    return 'has a "current_profile" that is not a string';
  if (data.profiles === undefined) return undefined;
  if (!isPlainObject(data.profiles)) return 'has a "profiles" that is not an object';
  for (const [name, record] of Object.entries(data.profiles)) {
    const where = `profile "${name.slice(0, 64)}"`;
    if (!PROFILE_NAME.test(name)) return `has a profile with an invalid name ("${name.slice(0, 64)}")`;
    if (!isPlainObject(record)) return `has a ${where} that is not an object`;
    if (record.base_url !== undefined && typeof record.base_url !== 'string')
      return `has a ${where} whose "base_url" is not a string`;
    if (record.token !== undefined && typeof record.token !== 'string')
      return `has a ${where} whose "token" is not a string`;
    if (record.token_storage !== undefined && record.token_storage !== 'file' && record.token_storage !== 'keychain')
      return `has a ${where} whose "token_storage" is not "file" or "keychain"`;
    const ref = record.keychain;
    if (
      record.token_storage === 'keychain' &&
      (!isPlainObject(ref) || typeof ref.service !== 'string' || typeof ref.account !== 'string')
    )
      return `has a ${where} stored in the keychain without a "keychain": {"service", "account"} entry`;
  }
  return undefined;
}

/** False once logged out. */
export function hasToken(record: ProfileRecord | undefined): boolean {
  if (!record) return false;
  if (record.token_storage === 'keychain') return record.keychain !== undefined;
  return typeof record.token === 'string' && record.token !== '';
}
