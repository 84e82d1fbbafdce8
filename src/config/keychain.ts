// The OS keychain, behind a small interface so tests can inject a fake.
// The real one is @napi-rs/keyring: macOS Keychain, Windows Credential
// Manager, and on Linux the Secret Service only. The binding would fall back to
// the kernel keyring on Linux, which forgets at logout: a token that vanishes
// with the session is not stored, so the entry is pinned to the Secret Service.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serve, type EntryClass } from './keychain-child.cjs';
import type { Env } from '../core/paths.js';

export interface SecretStore {
  /** For messages: "macOS Keychain", "Secret Service", ... */
  readonly name: string;
  get(service: string, account: string, signal?: AbortSignal): Promise<string | null>;
  set(service: string, account: string, secret: string, signal?: AbortSignal): Promise<void>;
  delete(service: string, account: string, signal?: AbortSignal): Promise<boolean>;
}

export const KEYCHAIN_SERVICE = 'cpk';

/** With a digest of the config file's path: two config directories (CPK_CONFIG_DIR) never share an entry. */
export function keychainAccount(profile: string, configFile: string): string {
  return `${profile}@${createHash('sha256').update(configFile).digest('hex').slice(0, 12)}`;
}

// The keychain calls run in a child process (keychain-child.cjs). A hanging keychain (a session bus that
// never answers, a locked keyring waiting on a prompt) blocks the calling thread inside the native binding,
// even in its constructor: no timer could fire, and a stuck worker thread keeps the process from exiting; a
// child can be killed. The secret travels on its stdin, never in its arguments. The child loads the binding
// only (loading all of cpk again would add ~40 ms to every command that reads a keychain token).
const CHILD_FILE = fileURLToPath(new URL('./keychain-child.cjs', import.meta.url));

interface ChildRequest {
  op: 'get' | 'set' | 'delete';
  service: string;
  account: string;
  secret?: string;
}

/**
 * A standalone executable's binding: its asset (scripts/dist.mjs), copied to a private directory (0700),
 * since a native addon loads only from a file.
 */
async function seaBinding(): Promise<EntryClass> {
  const { getRawAsset } = await import('node:sea');
  const dir = mkdtempSync(join(tmpdir(), 'cpk-keyring-'));
  try {
    const file = join(dir, 'keyring.node');
    writeFileSync(file, new Uint8Array(getRawAsset('keyring.node') as ArrayBuffer), { mode: 0o600 });
    const binding = { exports: {} as { Entry: EntryClass } };
    process.dlopen(binding, file);
    return binding.exports.Entry;
  } finally {
    // Loaded: the file can go now, before a call that may hang and be killed; Windows keeps
    // it until the process ends, and its temporary-file cleaning removes it (it holds no secret).
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // as above
    }
  }
}

/** The child's work in a standalone executable, which cannot run a file (CPK_KEYCHAIN_HELPER=1, src/cli/main.ts). */
export async function runKeychainHelper(): Promise<void> {
  await serve(seaBinding);
}

async function callInChild(request: ChildRequest, env: Env, signal?: AbortSignal): Promise<unknown> {
  const sea = (await import('node:sea')).isSea();
  const child = spawn(process.execPath, sea ? [] : [CHILD_FILE], {
    stdio: ['pipe', 'pipe', 'ignore'],
    env: sea ? { ...env, CPK_KEYCHAIN_HELPER: '1' } : env,
    signal,
    killSignal: 'SIGKILL',
  });
  const moduleUrl = sea ? undefined : pathToFileURL(createRequire(import.meta.url).resolve('@napi-rs/keyring')).href;
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stdin.on('error', () => {});
  child.stdin.end(JSON.stringify({ moduleUrl, ...request }));
  // A spawn failure or the deadline's abort rejects here; withDeadline words it.
  const [code] = await once(child, 'close');
  let reply: { ok?: boolean; value?: unknown; message?: string } | undefined;
  try {
    reply = JSON.parse(out) as typeof reply;
  } catch {
    reply = undefined;
  }
  if (reply?.ok) return reply.value;
  throw new Error(reply?.message ?? `the keychain helper stopped (${String(code)})`);
}

/** Its helper runs with the command's environment (the session bus cpk was given), not the process's. */
export function systemKeychain(env: Env): SecretStore {
  const names: Partial<Record<NodeJS.Platform, string>> = {
    darwin: 'macOS Keychain',
    win32: 'Windows Credential Manager',
  };
  return {
    name: names[process.platform] ?? 'Secret Service keyring',
    async get(service, account, signal) {
      const value = await callInChild({ op: 'get', service, account }, env, signal);
      return typeof value === 'string' ? value : null;
    },
    async set(service, account, secret, signal) {
      await callInChild({ op: 'set', service, account, secret }, env, signal);
    },
    async delete(service, account, signal) {
      return (await callInChild({ op: 'delete', service, account }, env, signal)) === true;
    },
  };
}
