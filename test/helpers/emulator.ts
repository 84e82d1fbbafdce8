// Starts an in-process emulator on 127.0.0.1:0 for a test file, and gives the
// environment that points the CLI at it.
import { afterAll, beforeAll } from 'vitest';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/server.js';
import { runCli, type CliOptions } from './cli.js';
import { runCpk } from './in-process.js';
import { responseContract } from './contract.js';

export interface EmulatorFixture {
  emu: Emulator;
  env: Record<string, string>;
  /** The CLI: a child process, or main() in-process when the file asked for it (useEmulator's `inProcess`). */
  cpk(args: string[], options?: CliOptions): ReturnType<typeof runCli>;
  /** Always the built CLI as a child process: the cases that need a real process. */
  spawned(args: string[], options?: CliOptions): ReturnType<typeof runCli>;
  /** Requests that reached the server since the call of `mark()`. */
  mark(): () => Emulator['requests'];
  /**
   * Creates a monitor with this body straight through the API, as a test's
   * setup (a CLI process each would cost a tenth of a second of CPU); its id.
   */
  create(body: Record<string, unknown>): Promise<string>;
  /**
   * The next `times` reads of the service's document answer an older one:
   * the current document as `edit` changes it (what a cache may still hold).
   */
  serveOlderDocument(edit: (document: OpenApiDocument) => void, times?: number): Promise<void>;
  /**
   * Moves the emulator's clock `ms` ahead of the wall clock it otherwise follows: the checks due by then run
   * before the next report is made, so a test gives a monitor a history without waiting for it.
   */
  advance(ms: number): void;
  /** Stops the emulator's clock where it is (`advance` still moves it), so reports read alike; returns the undo. */
  freeze(): () => void;
  /** Starts an outage of every target containing `target` (POST /__emulator/outages), or ends them all (null). */
  outage(target: string | null): Promise<void>;
}

/** The parts of an OpenAPI document the tests change. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: Array<{ name?: string }> } | undefined>>;
}

export function useEmulator(options: EmulatorOptions = {}, runner: { inProcess?: boolean } = {}): EmulatorFixture {
  const fixture = {} as EmulatorFixture;
  // Every answer is checked against the emulator's own document: one that breaks it fails the file.
  const contract = responseContract();
  let offset = 0;
  let frozen: number | undefined;
  fixture.advance = (ms) => void (offset += ms);
  fixture.freeze = () => {
    frozen = Date.now();
    return () => {
      offset += (frozen as number) - Date.now();
      frozen = undefined;
    };
  };
  beforeAll(async () => {
    const clock = () => (frozen ?? Date.now()) + offset;
    const emu = await startEmulator({ port: 0, onResponse: contract.onResponse, clock, ...options });
    fixture.emu = emu;
    fixture.env = { CPK_BASE_URL: emu.baseUrl, CPK_TOKEN: emu.token };
    fixture.spawned = (args, opts = {}) => runCli(args, { ...opts, env: { ...fixture.env, ...opts.env } });
    fixture.cpk = runner.inProcess
      ? (args, opts = {}) => runCpk(args, { ...opts, env: { ...fixture.env, ...opts.env } })
      : fixture.spawned;
    fixture.mark = () => {
      const start = emu.requests.length;
      return () => emu.requests.slice(start);
    };
    fixture.create = async (body) => {
      const res = await fetch(`${emu.baseUrl}/monitors`, {
        method: 'POST',
        headers: { authorization: `Bearer ${emu.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`creating a monitor: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { id: string }).id;
    };
    fixture.outage = async (target) => {
      const res = await fetch(`${emu.url}/__emulator/outages`, {
        method: target === null ? 'DELETE' : 'POST',
        headers: { 'x-emulator-admin': emu.adminSecret, 'content-type': 'application/json' },
        body: target === null ? undefined : JSON.stringify({ target }),
      });
      if (!res.ok) throw new Error(`outage: ${res.status} ${await res.text()}`);
    };
    fixture.serveOlderDocument = async (edit, times = 1) => {
      const document = (await (await fetch(`${emu.baseUrl}/openapi.json`)).json()) as OpenApiDocument;
      edit(document);
      const headers = { 'content-type': 'application/json' };
      emu.injectFault({
        method: 'GET',
        path: '/v1/openapi.json',
        times,
        status: 200,
        body: JSON.stringify(document),
        headers,
      });
    };
  });
  afterAll(async () => {
    await fixture.emu?.close();
    contract.assertKept();
  });
  return fixture;
}
