// main() run in-process (test/helpers/in-process.ts) reads only the IO it was
// given, as a CLI process reads its own: the directories under the HOME of its
// environment, the keychain reached through that environment's session bus,
// and the process's signal handlers left alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useEmulator } from '../helpers/emulator.js';
import { runCpk } from '../helpers/in-process.js';

const f = useEmulator({}, { inProcess: true });

describe('cpk run in-process', () => {
  it('keeps its config, cache and data under the HOME of its environment, not the process owner’s', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cpk-home-'));
    // No CPK_CONFIG_DIR and no XDG directories: only HOME says where they are.
    const env = { HOME: home, CPK_CONFIG_DIR: undefined, XDG_CONFIG_HOME: undefined, XDG_CACHE_HOME: undefined };
    const login = await runCpk(['auth', 'login', '--with-token', '--no-verify', '--insecure-storage'], {
      input: `${f.emu.token}\n`,
      env: { ...env, CPK_BASE_URL: f.emu.baseUrl, CPK_TOKEN: undefined },
    });
    expect(login.code, login.stderr).toBe(0);
    await f.create({ name: 'in-process home' });
    const list = await runCpk(['monitors', 'list', '--json'], { env });
    expect(list.code, list.stderr).toBe(0);
    expect(readdirSync(join(home, '.config', 'cpk'))).toEqual(['config.json']);
    expect(existsSync(join(home, '.cache', 'cpk'))).toBe(true);
    expect(existsSync(join(home, '.local', 'share', 'cpk'))).toBe(true);
  });

  it('leaves the process its signal handlers', async () => {
    const signals = ['SIGINT', 'SIGTERM', 'SIGXFSZ'] as const;
    const before = signals.map((s) => process.listenerCount(s));
    expect((await runCpk(['--help'])).code).toBe(0);
    expect(signals.map((s) => process.listenerCount(s))).toEqual(before);
  });
});

describe('the keychain of an in-process run', () => {
  let bus: Server;
  let busPath: string;
  beforeAll(async () => {
    // A session bus that accepts connections and never answers: the keychain hangs.
    busPath = join(mkdtempSync(join(tmpdir(), 'cpk-bus-')), 'hung-bus.sock');
    bus = createServer((socket) => socket.on('data', () => {}));
    await new Promise<void>((resolve) => bus.listen(busPath, resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => bus?.close(resolve));
  });

  it("is reached through its environment's session bus", async () => {
    const r = await runCpk(['auth', 'login', '--with-token', '--no-verify'], {
      input: `${f.emu.token}\n`,
      env: { DBUS_SESSION_BUS_ADDRESS: `unix:path=${busPath}`, CPK_BASE_URL: f.emu.baseUrl, CPK_TOKEN: undefined },
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('(the Secret Service keyring did not answer within 3 s)');
  });
});
