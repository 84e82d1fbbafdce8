// What a command talks to and with which token: flag > environment variable > stored profile
// (docs/configuration.md, "Sign-in and profiles").
import { AuthError, type CpkError, UsageError } from '../core/errors.js';
import { loadConfig } from './file.js';
import { withDeadline } from './deadline.js';
import type { SecretStore } from './keychain.js';
import { configLocation, type ConfigLocation, type Env } from '../core/paths.js';
import { profileBaseUrl, resolveBaseUrl, selectProfile, type ProfileChoice, type Resolved } from './resolve.js';
import { checkTokenPrefix } from '../core/token.js';
import { hasToken, type TokenStorage } from './schema.js';

export type TokenOrigin = 'env' | TokenStorage;

export interface Session {
  location: ConfigLocation;
  profile: ProfileChoice | undefined;
  baseUrl: Resolved<string>;
  token: (Resolved<string> & { origin: TokenOrigin }) | undefined;
  /** Why there is no token, when there is none (thrown by commands that need one). */
  tokenProblem: CpkError | undefined;
}

export interface SessionInput {
  flags: { baseUrl?: string | undefined; profile?: string | undefined };
  env: Env;
  /** No token needed (the public OpenAPI document). */
  anonymous?: boolean;
  secrets: () => Promise<SecretStore>;
  warn?: (text: string) => void;
}

export async function resolveSession(input: SessionInput): Promise<Session> {
  const { flags, env } = input;
  const envToken = env.CPK_TOKEN?.trim();
  const baseUrlGiven = flags.baseUrl !== undefined || Boolean(env.CPK_BASE_URL);
  // CI with CPK_TOKEN and CPK_BASE_URL never touches the config file.
  const needConfig =
    flags.profile !== undefined || Boolean(env.CPK_PROFILE?.trim()) || !baseUrlGiven || (!input.anonymous && !envToken);
  const loaded = needConfig ? loadConfig(env, input.warn) : { location: configLocation(env), exists: false, data: {} };
  const profile = selectProfile(flags.profile, env, loaded.data);
  if (profile && !profile.record && profile.source !== 'current profile') {
    const names = Object.keys(loaded.data.profiles ?? {});
    throw new UsageError(`no profile "${profile.name}" (from ${profile.source}) in ${loaded.location.file}`, {
      hint: names.length
        ? `profiles: ${names.join(', ')}; or create it with \`cpk auth login --profile ${profile.name}\``
        : `create it with \`cpk auth login --profile ${profile.name}\``,
    });
  }
  const baseUrl = resolveBaseUrl(flags.baseUrl, env, profile);
  const session: Session = { location: loaded.location, profile, baseUrl, token: undefined, tokenProblem: undefined };
  if (input.anonymous) return session;
  try {
    session.token = await resolveToken(input, profile, baseUrl);
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
    session.tokenProblem = error;
  }
  return session;
}

async function resolveToken(
  input: SessionInput,
  profile: ProfileChoice | undefined,
  baseUrl: Resolved<string>,
): Promise<Resolved<string> & { origin: TokenOrigin }> {
  const envToken = input.env.CPK_TOKEN?.trim();
  if (envToken) {
    checkTokenPrefix(envToken, 'CPK_TOKEN');
    return { value: envToken, source: 'CPK_TOKEN', origin: 'env' };
  }
  if (!profile) throw new AuthError('no token', { hint: 'set CPK_TOKEN, or run `cpk auth login`' });
  const { name, record } = profile;
  const label = `profile "${name}"`;
  if (!record || !hasToken(record)) {
    throw new AuthError(`${label} has no token (logged out)`, {
      hint: `run \`cpk auth login --profile ${name}\`, or set CPK_TOKEN`,
    });
  }
  // A stored token goes only to the origin it was logged in for: CPK_BASE_URL
  // or --base-url pointing elsewhere must not carry it to another service.
  const home = new URL(profileBaseUrl(profile)).origin;
  const target = new URL(baseUrl.value).origin;
  if (home !== target) {
    throw new AuthError(
      `the token of ${label} is for ${home}; cpk does not send it to ${target} (from ${baseUrl.source})`,
      {
        hint: `set CPK_TOKEN for that service, or log in a profile for it: \`cpk auth login --profile NAME --base-url ${target}\``,
      },
    );
  }
  if (record.token_storage === 'keychain' && record.keychain) {
    const { service, account } = record.keychain;
    const store = await input.secrets();
    let secret: string | null;
    try {
      secret = await withDeadline((signal) => store.get(service, account, signal));
    } catch (error) {
      throw new AuthError(`cannot read the token of ${label} from the ${store.name} (${(error as Error).message})`, {
        hint: `unlock the keychain and try again, run \`cpk auth login --profile ${name}\`, or set CPK_TOKEN`,
      });
    }
    if (!secret) {
      throw new AuthError(
        `the token of ${label} is missing from the ${store.name} (service "${service}", account "${account}")`,
        { hint: `run \`cpk auth login --profile ${name}\` again, or set CPK_TOKEN` },
      );
    }
    checkTokenPrefix(secret, label);
    return { value: secret, source: label, origin: 'keychain' };
  }
  const token = record.token!.trim();
  checkTokenPrefix(token, label);
  return { value: token, source: label, origin: 'file' };
}
