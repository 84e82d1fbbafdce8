// The OS keychain, behind a small interface so tests can inject a fake.
// The real one is @napi-rs/keyring: macOS Keychain, Windows Credential
// Manager, and on Linux the Secret Service only. The binding would fall back to
// the kernel keyring on Linux, which forgets at logout: issue 3 says that does
// not count, so the entry is pinned to the Secret Service.
import { createHash } from 'node:crypto';

export interface SecretStore {
  /** For messages: "macOS Keychain", "Secret Service", ... */
  readonly name: string;
  get(service: string, account: string, signal?: AbortSignal): Promise<string | null>;
  set(service: string, account: string, secret: string, signal?: AbortSignal): Promise<void>;
  delete(service: string, account: string, signal?: AbortSignal): Promise<boolean>;
}

/** How long cpk waits for a keychain to answer before using the file (issue 3). */
export const KEYCHAIN_TIMEOUT_MS = 3_000;
export const KEYCHAIN_SERVICE = 'cpk';

export class KeychainUnavailable extends Error {}

export function keychainName(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return 'macOS Keychain';
  if (platform === 'win32') return 'Windows Credential Manager';
  return 'Secret Service keyring';
}

/**
 * The keychain account of a profile: its name and a digest of the config
 * file's path, so two config directories (CPK_CONFIG_DIR) never share an entry.
 */
export function keychainAccount(profile: string, configFile: string): string {
  return `${profile}@${createHash('sha256').update(configFile).digest('hex').slice(0, 12)}`;
}

/** Runs a keychain call with a deadline; a slow or failing keychain becomes KeychainUnavailable. */
export async function withDeadline<T>(work: (signal: AbortSignal) => Promise<T>, ms: number): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new KeychainUnavailable(`no answer within ${ms / 1000} s`));
    }, ms);
    timer.unref();
  });
  try {
    return await Promise.race([
      (async () => work(controller.signal))().catch((error: unknown) => {
        throw error instanceof KeychainUnavailable ? error : new KeychainUnavailable(describe(error));
      }),
      deadline,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // The binding's messages can run over several lines; the first says it.
  return message.split('\n')[0]!.replace(/\s+/g, ' ').trim().slice(0, 200) || 'unknown error';
}

/** The system keychain, loaded only when a command needs it. */
export function systemKeychain(platform: NodeJS.Platform = process.platform): SecretStore {
  const entry = async (service: string, account: string) => {
    const { AsyncEntry } = await import('@napi-rs/keyring');
    return new AsyncEntry(service, account, { linux: { store: 'secret-service' } });
  };
  return {
    name: keychainName(platform),
    async get(service, account, signal) {
      return (await entry(service, account)).getPassword(signal);
    },
    async set(service, account, secret, signal) {
      await (await entry(service, account)).setPassword(secret, signal);
    },
    async delete(service, account, signal) {
      return (await entry(service, account)).deletePassword(signal);
    },
  };
}
