// What the auth and profile commands do to the stored profiles: where a token goes, and the config file
// and the keychain kept in step.
import { UsageError } from '../core/errors.js';
import { loadConfig, updateConfig } from './file.js';
import { withDeadline } from './deadline.js';
import { KEYCHAIN_SERVICE, keychainAccount, type SecretStore } from './keychain.js';
import { configLocation, type ConfigLocation, type Env } from '../core/paths.js';
import { profileRecord } from './resolve.js';
import { hasToken, type ConfigData, type KeychainRef, type ProfileRecord, type TokenStorage } from './schema.js';

export interface KeychainAccess {
  secrets: () => Promise<SecretStore>;
  /** Default 3 s; tests shorten it. */
  keychainTimeoutMs?: number;
  warn?: (text: string) => void;
}

export interface SaveTokenInput extends KeychainAccess {
  env: Env;
  profile: string;
  baseUrl: string;
  token: string;
  /** --insecure-storage: the config file even when a keychain answers. */
  insecureStorage: boolean;
}

function withoutToken(record: ProfileRecord | undefined): ProfileRecord {
  const rest: ProfileRecord = { ...record };
  delete rest.token;
  delete rest.keychain;
  delete rest.token_storage;
  return rest;
}

function hasCurrent(data: ConfigData): boolean {
  return data.current_profile !== undefined && profileRecord(data, data.current_profile) !== undefined;
}

/** A keychain that does not answer is reported, not fatal (the config no longer points at it). */
async function forget(ref: KeychainRef, access: KeychainAccess): Promise<void> {
  let name = 'keychain';
  try {
    const store = await access.secrets();
    name = store.name;
    await withDeadline((signal) => store.delete(ref.service, ref.account, signal), access.keychainTimeoutMs);
  } catch (error) {
    access.warn?.(
      `could not remove the token from the ${name} (${(error as Error).message}): delete the entry service "${ref.service}", account "${ref.account}" with your keychain tool`,
    );
  }
}

/** The token in the keychain when one answers in time, else in the 0600 config file. */
export async function saveToken(input: SaveTokenInput) {
  const location = configLocation(input.env);
  let storage: TokenStorage = 'file';
  let ref: KeychainRef | undefined;
  let keychainName: string | undefined;
  // Why the keychain was not used: the system's own words (for --debug), and plain words for everyone.
  let fallbackReason: string | undefined;
  let fallbackWords: string | undefined;
  if (!input.insecureStorage) {
    const candidate = { service: KEYCHAIN_SERVICE, account: keychainAccount(input.profile, location.file) };
    try {
      const store = await input.secrets();
      keychainName = store.name;
      await withDeadline(
        (signal) => store.set(candidate.service, candidate.account, input.token, signal),
        input.keychainTimeoutMs,
      );
      storage = 'keychain';
      ref = candidate;
    } catch (error) {
      fallbackReason = `${keychainName ?? 'keychain'}: ${(error as Error).message}`;
      // A keychain's own failure is often a daemon's message (DBus autolaunch and the like): said plainly here.
      const late = /^no answer within (.+)$/.exec((error as Error).message)?.[1];
      fallbackWords = !keychainName
        ? 'none was found'
        : late
          ? `the ${keychainName} did not answer within ${late}`
          : `the ${keychainName} could not be reached`;
      keychainName = undefined;
    }
  }
  let previous: ProfileRecord | undefined;
  // Whether the profile is the current one after login (the first profile logged in becomes current).
  const { result: current } = await updateConfig(
    input.env,
    (data) => {
      previous = profileRecord(data, input.profile);
      const record: ProfileRecord = { ...withoutToken(previous), base_url: input.baseUrl, token_storage: storage };
      if (storage === 'keychain') record.keychain = ref;
      else record.token = input.token;
      const hadCurrent = hasCurrent(data);
      data.profiles ??= {};
      data.profiles[input.profile] = record;
      if (!hadCurrent) data.current_profile = input.profile;
      return data.current_profile === input.profile;
    },
    input.warn,
  );
  // The token now lives elsewhere: do not leave the old copy in the keychain.
  const old = previous?.token_storage === 'keychain' ? previous.keychain : undefined;
  if (old && (old.service !== ref?.service || old.account !== ref.account)) await forget(old, input);
  return { location, storage, keychainName, fallbackReason, fallbackWords, current };
}

/** Read without writing anything. */
export function existingProfile(
  env: Env,
  name: string,
  warn?: (text: string) => void,
): { record: ProfileRecord; location: ConfigLocation } {
  const loaded = loadConfig(env, warn);
  const record = profileRecord(loaded.data, name);
  if (!record) {
    const names = Object.keys(loaded.data.profiles ?? {});
    throw new UsageError(
      `no profile "${name}"${loaded.exists ? ` in ${loaded.location.file}` : ' (no config file yet)'}`,
      {
        hint: names.length ? `profiles: ${names.join(', ')}` : 'log in with `cpk auth login --profile NAME`',
      },
    );
  }
  return { record, location: loaded.location };
}

export interface RemovalResult {
  location: ConfigLocation;
  /** Where the token was, or undefined when the profile had none. */
  removed: TokenStorage | undefined;
  /** Whether the removed profile was the current one (which is then unset). */
  wasCurrent: boolean;
}

/** `auth logout`: drops the profile's token, keeps the profile (its base URL) for the next login. */
export async function logout(env: Env, name: string, access: KeychainAccess): Promise<RemovalResult> {
  const { location, record } = existingProfile(env, name, access.warn);
  if (!hasToken(record)) return { location, removed: undefined, wasCurrent: false };
  return remove(env, name, access, false);
}

/** `profile remove`: the profile and its token; the current profile is unset when it was this one. */
export async function removeProfile(env: Env, name: string, access: KeychainAccess): Promise<RemovalResult> {
  existingProfile(env, name, access.warn);
  return remove(env, name, access, true);
}

async function remove(env: Env, name: string, access: KeychainAccess, whole: boolean): Promise<RemovalResult> {
  let previous: ProfileRecord | undefined;
  const { result: wasCurrent, location } = await updateConfig(
    env,
    (data) => {
      previous = profileRecord(data, name);
      if (previous && data.profiles && whole) delete data.profiles[name];
      else if (previous && data.profiles) data.profiles[name] = withoutToken(previous);
      if (!whole || data.current_profile !== name) return false;
      delete data.current_profile;
      return true;
    },
    access.warn,
  );
  if (!previous || !hasToken(previous)) return { location, removed: undefined, wasCurrent };
  if (previous.token_storage !== 'keychain' || !previous.keychain) return { location, removed: 'file', wasCurrent };
  await forget(previous.keychain, access);
  return { location, removed: 'keychain', wasCurrent };
}

export async function useProfile(env: Env, name: string, warn?: (text: string) => void): Promise<ConfigLocation> {
  existingProfile(env, name, warn);
  const { location } = await updateConfig(
    env,
    (data) => {
      if (!profileRecord(data, name)) throw new UsageError(`no profile "${name}" (it was just removed)`);
      data.current_profile = name;
    },
    warn,
  );
  return location;
}

/** `profile list`: read only. */
export function listProfiles(env: Env, warn?: (text: string) => void) {
  const loaded = loadConfig(env, warn);
  const current = hasCurrent(loaded.data) ? loaded.data.current_profile : undefined;
  const profiles = Object.entries(loaded.data.profiles ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, record]) => ({
      name,
      current: name === current,
      base_url: record.base_url ?? null,
      token_storage: hasToken(record) ? (record.token_storage ?? 'file') : null,
    }));
  return { location: loaded.location, profiles };
}
