// Resolves where to send requests and with which token.
// Precedence: flag > environment > stored profile > built-in default.
import { DEFAULT_BASE_URL, normalizeBaseUrl } from '../core/base-url.js';
import { checkProfileName, type ConfigData, type ProfileRecord } from './schema.js';
import type { Env } from '../core/paths.js';

export interface Resolved<T> {
  value: T;
  source: string;
}

export interface ProfileChoice {
  name: string;
  source: '--profile' | 'CPK_PROFILE' | 'current profile';
  record: ProfileRecord | undefined;
}

/** A profile's record: own properties only (a profile named "constructor" is just a name). */
export function profileRecord(data: ConfigData, name: string): ProfileRecord | undefined {
  return data.profiles && Object.hasOwn(data.profiles, name) ? data.profiles[name] : undefined;
}

/** The profile in use: --profile > CPK_PROFILE > the stored current profile > none. */
export function selectProfile(flag: string | undefined, env: Env, data: ConfigData): ProfileChoice | undefined {
  const given = flag ?? env.CPK_PROFILE?.trim();
  if (flag !== undefined || given) {
    const source = flag !== undefined ? '--profile' : 'CPK_PROFILE';
    const name = checkProfileName(given!, source);
    return { name, source, record: profileRecord(data, name) };
  }
  const current = data.current_profile;
  // A current profile that no longer exists (hand-edited) counts as none.
  if (current && profileRecord(data, current))
    return { name: current, source: 'current profile', record: profileRecord(data, current) };
  return undefined;
}

/** The profile's base URL as stored (normalized), or the default. */
export function profileBaseUrl(choice: { name: string; record: ProfileRecord | undefined }): string {
  const stored = choice.record?.base_url;
  return stored ? normalizeBaseUrl(stored, `profile "${choice.name}"`) : DEFAULT_BASE_URL;
}

export function resolveBaseUrl(
  flag: string | undefined,
  env: Env,
  profile?: { name: string; record: ProfileRecord | undefined },
): Resolved<string> {
  if (flag !== undefined) return { value: normalizeBaseUrl(flag, '--base-url'), source: '--base-url' };
  const fromEnv = env.CPK_BASE_URL;
  if (fromEnv) return { value: normalizeBaseUrl(fromEnv, 'CPK_BASE_URL'), source: 'CPK_BASE_URL' };
  if (profile?.record?.base_url) return { value: profileBaseUrl(profile), source: `profile "${profile.name}"` };
  return { value: DEFAULT_BASE_URL, source: 'default, the local emulator' };
}
