// Test helpers for the emulator: a fetch wrapper that returns status, headers
// and parsed body, and a raw node:http client for paths fetch would normalise
// and for faults that break the connection.
import { request } from 'node:http';
import { afterAll, beforeAll } from 'vitest';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/server.js';
import { responseContract } from '../helpers/contract.js';

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  // Tests index freely into JSON bodies.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export interface CallOptions {
  /** Token to send; null sends no Authorization header. Default: the emulator's dev token. */
  token?: string | null;
  /** Sent as JSON unless it is a string (then sent verbatim). */
  body?: unknown;
  headers?: Record<string, string>;
}

export async function call(emu: Emulator, method: string, path: string, opts: CallOptions = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = {};
  const token = opts.token === undefined ? emu.token : opts.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  Object.assign(headers, opts.headers);
  const url = path.startsWith('/') ? emu.url + path : `${emu.baseUrl}/${path}`;
  const res = await fetch(url, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

export interface RawResult {
  status?: number;
  headers?: Record<string, string | string[] | undefined>;
  body: string;
  /** Error code when the connection failed (ECONNRESET, or 'aborted' mid-body). */
  error?: string;
}

/** One request on a fresh connection (no keep-alive, no retries), path sent exactly as given. */
export function raw(
  emu: Emulator,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawResult> {
  const { hostname, port } = new URL(emu.url);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const req = request({ host: hostname, port, method, path, headers, agent: false }, (res) => {
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', (err: NodeJS.ErrnoException) => finish(res.statusCode, res.headers, err.code ?? err.message));
      res.on('aborted', () => finish(res.statusCode, res.headers, 'aborted'));
    });
    const finish = (status: number | undefined, hdrs: RawResult['headers'], error: string) =>
      resolve({ status, headers: hdrs, body: Buffer.concat(chunks).toString('utf8'), error });
    req.on('error', (err: NodeJS.ErrnoException) => finish(undefined, undefined, err.code ?? err.message));
    req.end(body);
  });
}

/** Starts one emulator for the enclosing describe block (port 0) and closes it after. */
export function useEmulator(opts: EmulatorOptions = {}): () => Emulator {
  let emu: Emulator | undefined;
  // Every answer is checked against the emulator's own document: one that breaks it fails the file.
  const contract = responseContract();
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, onResponse: contract.onResponse, ...opts });
  });
  afterAll(async () => {
    await emu?.close();
    contract.assertKept();
  });
  return () => {
    if (!emu) throw new Error('emulator not started');
    return emu;
  };
}

export async function createMonitor(
  emu: Emulator,
  body: Record<string, unknown>,
  token?: string,
): Promise<Record<string, unknown> & { id: string; report_id: string }> {
  const res = await call(emu, 'POST', 'monitors', { body, token });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.json;
}

/** Resolves once the emulator has recorded `count` requests (no fixed sleeps). */
export async function waitForRequests(emu: Emulator, count: number): Promise<void> {
  while (emu.requests.length < count) await new Promise((r) => setTimeout(r, 5));
}
