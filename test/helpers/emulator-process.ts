// `cpk emulator` as a process of its own (the built CLI), for what only a
// process shows: restarts, kills, --persist, its clock and its admin routes.
import { spawn, type ChildProcess } from 'node:child_process';
import { BIN, baseEnv } from './cli.js';
import { track } from './children.js';

export interface EmulatorProcess {
  child: ChildProcess;
  /** The API's base URL, `.../v1`. */
  baseUrl: string;
  /** The server's root, where the admin routes (`/__emulator`) are. */
  url: string;
  token: string;
  /** Resolves with the exit code when the process has closed. */
  exited: Promise<number | null>;
  /** Sends `signal` (SIGTERM unless given) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `cpk emulator --port 0 --json -q ...args`; resolves once it printed its first line. */
export async function startEmulatorProcess(args: string[]): Promise<EmulatorProcess> {
  // Killed when its test file ends if the test did not stop it (./children.ts).
  const child = track(
    spawn(process.execPath, [BIN, 'emulator', '--port', '0', '--json', '-q', ...args], {
      env: baseEnv(),
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    }),
  );
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('\n')) resolve(out.split('\n')[0] ?? '');
    });
    child.once('close', () => reject(new Error('emulator exited before it was ready')));
  });
  const info = JSON.parse(line) as { base_url: string; token: string };
  return {
    child,
    baseUrl: info.base_url,
    url: info.base_url.replace(/\/v1$/, ''),
    token: info.token,
    exited,
    stop: (signal = 'SIGTERM') => {
      child.kill(signal);
      return exited;
    },
  };
}

/** A call of the emulator's API with its token; the answer's JSON body. */
export async function apiCall(
  emu: EmulatorProcess,
  method: string,
  path: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${emu.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${emu.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown>;
}

/** A call of the emulator's admin routes with `secret`; the status and JSON body. */
export async function adminCall(emu: EmulatorProcess, secret: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${emu.url}/__emulator${path}`, {
    method,
    headers: { 'x-emulator-admin': secret, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
