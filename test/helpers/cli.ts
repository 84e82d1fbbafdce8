// Runs the built CLI (bin/cpk.js) as a child process, the way users run it.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';
import { track } from './children.js';
import { killGroup } from './pid-files.js';

export const BIN = resolve(import.meta.dirname, '../../bin/cpk.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  /** A file descriptor the child gets as its stdin (a directory, a device), instead of a pipe; spawned runs only. */
  stdin?: number;
  /** SIGKILL after this long: only to catch a hang (60 s unless given). */
  timeoutMs?: number;
  /** Called with the child once it started (to send signals). */
  onSpawn?: (child: import('node:child_process').ChildProcess) => void;
}

/**
 * Node's compile cache (Node >= 22.1), shared by the CLI processes of this
 * test worker: written once instead of once per process.
 */
const SHARED_COMPILE_CACHE = mkdtempSync(join(tmpdir(), 'cpk-test-compile-'));

/**
 * A cache directory per test, whose compile cache is the worker's shared one.
 * The service documents cached there are keyed by base URL, and servers listen
 * on port 0: a worker runs many test files, so a later test's server can get a
 * port an earlier test's server had, and must not be answered from the
 * document that server served.
 */
const testCaches = new Map<string, string>();
function testCacheDir(): string {
  const { testPath, currentTestName } = expect.getState();
  const key = `${testPath ?? ''}\0${currentTestName ?? ''}`;
  let dir = testCaches.get(key);
  if (!dir) {
    dir = mkdtempSync(join(tmpdir(), 'cpk-test-cache-'));
    mkdirSync(join(dir, 'cpk'));
    symlinkSync(SHARED_COMPILE_CACHE, join(dir, 'cpk', 'compile'));
    testCaches.set(key, dir);
  }
  return dir;
}

/** A clean environment: no proxies, no CI/NO_COLOR leaking from the host, a private HOME. */
export function baseEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const home = mkdtempSync(join(tmpdir(), 'cpk-home-'));
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    CPK_CONFIG_DIR: join(home, 'cpk-config'),
    XDG_CACHE_HOME: testCacheDir(),
    LANG: 'C.UTF-8',
    // test/e2e's cases run twice: automatic transport choice, then
    // CPK_TRANSPORT=undici for every request (test/helpers/transports.ts sets it).
    CPK_TRANSPORT: process.env.CPK_TRANSPORT,
    // The run's own temporary directory (test/global-setup.ts), removed when it ends.
    TMPDIR: process.env.TMPDIR,
    ...extra,
  };
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = track(
      spawn(process.execPath, [BIN, ...args], {
        env: baseEnv(options.env),
        stdio: [options.stdin ?? 'pipe', 'pipe', 'pipe'],
        detached: true,
      }),
    );
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => killGroup(child.pid!), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
    if (child.stdin) {
      child.stdin.on('error', () => {});
      if (options.input !== undefined) child.stdin.end(options.input);
      else child.stdin.end();
    }
    options.onSpawn?.(child);
  });
}

/** Resolves with the child's complete stdout lines each time `count` of them have arrived (live views). */
export function stdoutLines(child: import('node:child_process').ChildProcess) {
  let buffer = '';
  const seen: string[] = [];
  const waiters: Array<{ count: number; resolve: (lines: string[]) => void }> = [];
  child.stdout!.on('data', (chunk: Buffer | string) => {
    buffer += chunk.toString();
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      seen.push(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
    }
    for (const w of waiters.filter((w) => seen.length >= w.count)) w.resolve(seen);
  });
  return (count: number) =>
    new Promise<string[]>((resolve) => (seen.length >= count ? resolve(seen) : waiters.push({ count, resolve })));
}
