// The OS keychain, behind a small interface so tests can inject a fake.
// The real one is @napi-rs/keyring: macOS Keychain, Windows Credential
// Manager, and on Linux the Secret Service only. The binding would fall back to
// the kernel keyring on Linux, which forgets at logout: a token that vanishes
// with the session is not stored, so the entry is pinned to the Secret Service.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { KeychainUnavailable } from './deadline.js';

// Kept in ./deadline.js so that resolving a session does not load node:crypto.
export { KEYCHAIN_TIMEOUT_MS, KeychainUnavailable, withDeadline } from './deadline.js';

export interface SecretStore {
  /** For messages: "macOS Keychain", "Secret Service", ... */
  readonly name: string;
  get(service: string, account: string, signal?: AbortSignal): Promise<string | null>;
  set(service: string, account: string, secret: string, signal?: AbortSignal): Promise<void>;
  delete(service: string, account: string, signal?: AbortSignal): Promise<boolean>;
}

export const KEYCHAIN_SERVICE = 'cpk';

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

// The keychain calls run in a child process. A keychain that hangs (a session
// bus that accepts the connection and never answers, a locked keyring waiting
// on a prompt) blocks the calling thread inside the native binding, even in
// its constructor: no timer on that thread could fire, and a worker thread
// stuck that way keeps the process from ever exiting. A child process can be
// killed. The secret travels on the child's stdin, never in its arguments.
const CHILD_SOURCE = `
let input = '';
process.stdin.setEncoding('utf8').on('data', (d) => (input += d)).on('end', async () => {
  const { moduleUrl, op, service, account, secret } = JSON.parse(input);
  let reply;
  try {
    const { Entry } = await import(moduleUrl);
    const entry = new Entry(service, account, { linux: { store: 'secret-service' } });
    let value = null;
    if (op === 'get') value = entry.getPassword();
    else if (op === 'set') entry.setPassword(secret);
    else value = entry.deletePassword();
    reply = { ok: true, value };
  } catch (error) {
    reply = { ok: false, message: String((error && error.message) || error) };
  }
  process.stdout.write(JSON.stringify(reply));
});
`;

/** Set in the environment of a standalone executable started as the keychain helper. */
export const SEA_KEYCHAIN_HELPER = 'CPK_SEA_KEYCHAIN_HELPER';

/** The asset name of the keychain binding inside a standalone executable (scripts/dist.mjs). */
export const SEA_KEYCHAIN_ASSET = 'keyring.node';

interface KeyringEntry {
  getPassword(): string | null;
  setPassword(secret: string): void;
  deletePassword(): boolean;
}

/**
 * The helper's side inside a standalone executable: the request from stdin
 * as CHILD_SOURCE reads it, the binding copied from the executable's asset
 * into a private temporary directory (0700, removed after) and loaded from
 * there, since a native addon loads only from a file.
 */
export async function runSeaKeychainHelper(): Promise<void> {
  const [{ getRawAsset }, { mkdtempSync, rmSync, writeFileSync }, { tmpdir }, { join }] = await Promise.all([
    import('node:sea'),
    import('node:fs'),
    import('node:os'),
    import('node:path'),
  ]);
  const removeDir = (dir: string) => {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // A library Windows still holds: left to the system's temporary-file cleaning (it holds no secret).
    }
  };
  let input = '';
  for await (const chunk of process.stdin) input += String(chunk);
  let reply: { ok: boolean; value?: unknown; message?: string };
  let dir: string | undefined;
  try {
    const { op, service, account, secret } = JSON.parse(input) as ChildRequest;
    dir = mkdtempSync(join(tmpdir(), 'cpk-keyring-'));
    const file = join(dir, SEA_KEYCHAIN_ASSET);
    writeFileSync(file, new Uint8Array(getRawAsset(SEA_KEYCHAIN_ASSET) as ArrayBuffer), { mode: 0o600 });
    const binding = {
      exports: {} as { Entry: new (service: string, account: string, options: object) => KeyringEntry },
    };
    process.dlopen(binding, file);
    // Loaded: the file can go now on Linux and macOS, before the keychain call
    // that may hang and be killed; Windows keeps it until the process ends.
    removeDir(dir);
    const entry = new binding.exports.Entry(service, account, { linux: { store: 'secret-service' } });
    let value: unknown = null;
    if (op === 'get') value = entry.getPassword();
    else if (op === 'set') entry.setPassword(secret ?? '');
    else value = entry.deletePassword();
    reply = { ok: true, value };
  } catch (error) {
    reply = { ok: false, message: String((error as Error)?.message ?? error) };
  } finally {
    if (dir) removeDir(dir);
  }
  process.stdout.write(JSON.stringify(reply));
}

interface ChildRequest {
  op: 'get' | 'set' | 'delete';
  service: string;
  account: string;
  secret?: string;
}

async function callInChild(request: ChildRequest, signal?: AbortSignal): Promise<unknown> {
  if (signal?.aborted) throw new KeychainUnavailable('no answer in time');
  const { spawn } = await import('node:child_process');
  // A standalone executable (docs/install.md) runs only cpk, not `-e`: its
  // helper is the executable again, told so by SEA_KEYCHAIN_HELPER, with the
  // binding it carries as an asset (runSeaKeychainHelper).
  const child = (await import('node:sea')).isSea()
    ? spawn(process.execPath, [], {
        stdio: ['pipe', 'pipe', 'ignore'],
        env: { ...process.env, [SEA_KEYCHAIN_HELPER]: '1' },
      })
    : spawn(process.execPath, ['-e', CHILD_SOURCE], { stdio: ['pipe', 'pipe', 'ignore'] });
  const moduleUrl = child.spawnargs.includes('-e')
    ? pathToFileURL(createRequire(import.meta.url).resolve('@napi-rs/keyring')).href
    : undefined;
  return new Promise((resolve, reject) => {
    let out = '';
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const onAbort = () =>
      settle(() => {
        child.kill('SIGKILL');
        reject(new KeychainUnavailable('no answer in time'));
      });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.on('error', (error) => settle(() => reject(new KeychainUnavailable(error.message))));
    child.on('close', (code, sig) =>
      settle(() => {
        let reply: { ok?: boolean; value?: unknown; message?: string } | undefined;
        try {
          reply = JSON.parse(out) as typeof reply;
        } catch {
          reply = undefined;
        }
        if (reply?.ok) resolve(reply.value);
        else reject(new KeychainUnavailable(reply?.message ?? `the keychain helper stopped (${sig ?? code})`));
      }),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdin.on('error', () => {});
    child.stdin.end(JSON.stringify({ moduleUrl, ...request }));
  });
}

/** The system keychain, loaded only when a command needs it. */
export function systemKeychain(platform: NodeJS.Platform = process.platform): SecretStore {
  return {
    name: keychainName(platform),
    async get(service, account, signal) {
      const value = await callInChild({ op: 'get', service, account }, signal);
      return typeof value === 'string' ? value : null;
    },
    async set(service, account, secret, signal) {
      await callInChild({ op: 'set', service, account, secret }, signal);
    },
    async delete(service, account, signal) {
      return (await callInChild({ op: 'delete', service, account }, signal)) === true;
    },
  };
}
