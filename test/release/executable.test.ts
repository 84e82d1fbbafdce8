// The standalone linux-x64 executable (`npm run dist`, docs/install.md) runs
// with a PATH that holds no `node`: it is the whole CLI, emulator included.
// It is built once, here, into a temp dir (a few seconds once the pinned
// Node binaries are in node_modules/.cache; the first run fetches them from
// the npm registry). Where the registry cannot be reached the build exits 3
// and these tests are skipped, saying so; any other build failure fails them.
// No Secret Service runs here: the keychain tests show the binding the
// executable carries is loaded and asked, and the fallback when it fails.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAction, runActionStep } from '../helpers/action-runner.js';
import { killAllTracked, track } from '../helpers/children.js';

const ROOT = resolve(import.meta.dirname, '../..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const OUT = mkdtempSync(join(tmpdir(), 'cpk-sea-'));
const EXE = join(OUT, 'cpk-linux-x64');

const built = spawnSync(process.execPath, [join(ROOT, 'scripts/dist.mjs'), '--out', OUT, 'linux-x64'], {
  cwd: ROOT,
  encoding: 'utf8',
  timeout: 5 * 60_000,
});
if (built.status !== 0 && built.status !== 3)
  throw new Error(`npm run dist failed (${built.status}):\n${built.stderr}`);
const unreachable =
  built.status === 3 ? `the npm registry's Node binaries could not be fetched: ${built.stderr.trim()}` : '';

/** An environment with a private HOME and a PATH of one empty directory: no `node` anywhere. */
function bareEnv(extra: Record<string, string> = {}): Record<string, string> {
  const home = mkdtempSync(join(tmpdir(), 'cpk-sea-home-'));
  return {
    PATH: mkdtempSync(join(tmpdir(), 'cpk-sea-path-')),
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    CPK_CONFIG_DIR: join(home, 'cpk-config'),
    LANG: 'C.UTF-8',
    ...extra,
  };
}

function run(args: string[], env: Record<string, string>, cwd = env.HOME) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done, fail) => {
    const child = track(spawn(EXE, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'], detached: true }));
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end();
  });
}

describe.skipIf(unreachable !== '')(`the linux-x64 executable, with no node on PATH ${unreachable}`, () => {
  const env = bareEnv();
  let emulator: ReturnType<typeof spawn> | undefined;
  let api: Record<string, string>;

  beforeAll(async () => {
    // The emulator started from the executable itself.
    emulator = track(
      spawn(EXE, ['emulator', '--port', '0', '--json', '-q'], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      }),
    );
    const first = await new Promise<string>((done, fail) => {
      let out = '';
      emulator!.stdout!.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        if (out.includes('\n')) done(out.split('\n')[0]!);
      });
      emulator!.on('close', (code) => fail(new Error(`the emulator exited (${code}) before it was ready`)));
    });
    const { base_url, token } = JSON.parse(first) as { base_url: string; token: string };
    expect(base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
    api = { CPK_BASE_URL: base_url, CPK_TOKEN: token };
  });
  afterAll(async () => {
    await killAllTracked();
  });

  it('is one file that runs without Node: --version and --help', async () => {
    expect(statSync(EXE).mode & 0o111).not.toBe(0);
    expect(spawnSync('node', ['--version'], { env }).error).toMatchObject({ code: 'ENOENT' });
    const version = await run(['--version'], env);
    expect(version).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    const help = await run(['--help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: cpk [options] [command]');
    expect(help.stdout).toContain('emulator');
    expect(help.stderr).toBe('');
  });

  it('holds no path of the machine that built it, so the same commit builds the same bytes', () => {
    const bytes = readFileSync(EXE);
    expect(bytes.includes(ROOT)).toBe(false);
    expect(bytes.includes('cpk-sea/build-')).toBe(false);
  });

  it('creates, gets and deletes a monitor on the emulator it started', async () => {
    const e = { ...env, ...api };
    const created = await run(
      ['monitors', 'create', '--name', 'from the executable', '--target', 'https://example.com', '-q'],
      e,
    );
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const id = created.stdout.trim();
    expect(id).not.toBe('');
    const got = await run(['monitors', 'get', id, '--json'], e);
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout)).toMatchObject({ id, name: 'from the executable', target: 'https://example.com' });
    expect((await run(['monitors', 'delete', id, '--yes'], e)).code).toBe(0);
    const gone = await run(['monitors', 'get', id], e);
    expect(gone.code).toBe(6); // not found
  });

  it('plans and applies a small manifest', async () => {
    const e = { ...env, ...api };
    const dir = mkdtempSync(join(tmpdir(), 'cpk-sea-manifest-'));
    writeFileSync(
      join(dir, 'cpk.yaml'),
      'monitors:\n  web:\n    name: sea web\n    type: http\n    target: https://web.example.com/health\n    interval: 1m\n',
    );
    const plan = await run(['plan'], e, dir);
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(10);
    expect(plan.stdout).toContain('+ web: create');
    const apply = await run(['apply', '--yes'], e, dir);
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain('Apply: 1 created, 0 updated, 0 deleted, 0 unchanged, 0 failed.');
    const after = await run(['plan'], e, dir);
    expect(after.code).toBe(0);
    const list = await run(['monitors', 'list', '--json'], e);
    expect((JSON.parse(list.stdout) as { name: string }[]).map((m) => m.name)).toContain('sea web');
  });

  describe("action.yml's install step, as the runner runs it", () => {
    let server: Server;
    let base: string;
    /** What the loopback release serves as SHA256SUMS. */
    let sums: string;
    /** The executable's SHA-256, read once: hashing its 150 MiB costs about half a second of CPU. */
    let sha256 = '';
    /** Served in place of the executable when set: a download that is not what SHA256SUMS names. */
    let tampered: string | undefined;

    beforeAll(async () => {
      sha256 = createHash('sha256').update(readFileSync(EXE)).digest('hex');
      sums = `${'0'.repeat(64)}  cpk-win-x64.exe\n${sha256}  cpk-linux-x64\n`;
      server = createServer((req, res) => {
        if (req.url === `/v${VERSION}/cpk-linux-x64`) {
          if (tampered === undefined) createReadStream(EXE).pipe(res);
          else res.end(tampered);
        } else if (req.url === `/v${VERSION}/SHA256SUMS`) res.end(sums);
        else res.writeHead(404).end('not found');
      });
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await new Promise((done) => server?.close(done));
    });

    it('installs the release it pins, masks the token, and exports CPK_BASE_URL and CPK_TOKEN', async () => {
      expect(readAction().inputs.version?.default).toBe(VERSION);
      const r = await runActionStep('install', {
        'base-url': api.CPK_BASE_URL!,
        token: api.CPK_TOKEN!,
        'download-base': base,
      });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      // The mask comes first: no line before it shows the token, and none after but the mask itself.
      const lines = r.stdout.split('\n');
      expect(lines[0]).toBe(`::add-mask::${api.CPK_TOKEN}`);
      expect(lines.slice(1).join('\n')).not.toContain(api.CPK_TOKEN);
      expect(r.stdout).toContain(`cpk ${VERSION} installed in `);
      expect(r.path).toHaveLength(1);
      expect(r.env).toBe(`CPK_BASE_URL=${api.CPK_BASE_URL}\nCPK_TOKEN=${api.CPK_TOKEN}\n`);
      expect(r.output).toBe(`path=${join(r.path[0]!, 'cpk')}\n`);

      // A later step: PATH with the runner's addition, the exported variables, and cpk by name.
      const later = spawnSync('cpk', ['monitors', 'list', '--json'], {
        env: {
          ...bareEnv(),
          PATH: r.path[0]!,
          ...Object.fromEntries(
            r.env
              .trim()
              .split('\n')
              .map((l) => l.split(/=(.*)/s, 2)),
          ),
        },
        encoding: 'utf8',
      });
      expect(later.stderr).toBe('');
      expect(later.status).toBe(0);
      expect(Array.isArray(JSON.parse(later.stdout))).toBe(true);
    });

    it('refuses an executable that does not match SHA256SUMS, and installs nothing', async () => {
      tampered = '#!/bin/sh\necho not cpk\n';
      try {
        const r = await runActionStep('install', { token: 'cpk_secret_x', 'download-base': base });
        expect(r.code).toBe(1);
        const got = createHash('sha256').update(tampered).digest('hex');
        expect(r.stdout).toContain(
          `::error title=cpk install::cpk-linux-x64 does not match its SHA-256 in SHA256SUMS (expected ${sha256}, got ${got}): not installed`,
        );
        expect(r.path).toEqual([]);
        expect(r.env).toBe('');
      } finally {
        tampered = undefined;
      }
    });

    it('a runner with no executable, or a release that is not there: one error line, nothing installed', async () => {
      const arm = await runActionStep('install', { 'download-base': base }, { RUNNER_OS: 'Linux', RUNNER_ARCH: 'ARM' });
      expect(arm.code).toBe(1);
      expect(arm.stdout).toBe(
        '::error title=cpk install::no cpk executable for Linux on ARM: install the npm package instead (npm install -g cpk)\n',
      );
      const missing = await runActionStep('install', { version: '0.0.1', 'download-base': base });
      expect(missing.code).toBe(1);
      expect(missing.stdout).toBe(`::error title=cpk install::could not download ${base}/v0.0.1/SHA256SUMS\n`);
      expect(missing.path).toEqual([]);
    });
  });

  /** `cpk auth login` from the executable, with a private TMPDIR: its stderr, the config file, and what TMPDIR holds after. */
  async function login(extra: Record<string, string>, flags: string[] = []) {
    const e = bareEnv({ TMPDIR: mkdtempSync(join(tmpdir(), 'cpk-sea-tmp-')), ...extra });
    const child = spawn(
      EXE,
      ['auth', 'login', '--with-token', '--no-verify', '--base-url', api.CPK_BASE_URL!, ...flags],
      {
        env: e,
        cwd: e.HOME,
      },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdin.end(`${api.CPK_TOKEN}\n`);
    const code = await new Promise((done) => child.on('close', done));
    const file = join(e.CPK_CONFIG_DIR!, 'config.json');
    expect(code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect((await run(['monitors', 'list', '--json'], e)).code).toBe(0);
    return { stderr, file, left: readdirSync(e.TMPDIR!) };
  }

  it("reaches the keychain through the binding it carries: with no session bus, the binding's own error, and the 0600 file with the usual warning", async () => {
    const r = await login({}, ['--debug']);
    // The message comes from the native binding (libdbus inside it): it was loaded and asked. It is
    // shown under --debug; the warning says it in plain words.
    expect(r.stderr).toMatch(/keychain: Secret Service keyring: Platform failure: DBus error/);
    expect(r.stderr).toContain(
      'warning: no system keychain is available (the Secret Service keyring could not be reached)',
    );
    expect(r.stderr).toContain(`); the token is stored in plain text in ${r.file}`);
    // The binding's private copy is gone.
    expect(r.left).toEqual([]);
  });

  it('a keychain that does not answer within 3 s: the helper is killed, the token goes to the 0600 file with the warning', async () => {
    const socket = join(mkdtempSync(join(tmpdir(), 'cpk-sea-bus-')), 'hung-bus.sock');
    // A session bus that accepts connections and never answers.
    const bus = createNetServer((s) => s.on('data', () => {}));
    await new Promise<void>((done) => bus.listen(socket, done));
    try {
      const r = await login({ DBUS_SESSION_BUS_ADDRESS: `unix:path=${socket}` });
      expect(r.stderr).toContain(
        `warning: no system keychain is available (the Secret Service keyring did not answer within 3 s); the token is stored in plain text in ${r.file}`,
      );
      expect(r.left).toEqual([]);
    } finally {
      await new Promise((done) => bus.close(done));
    }
  });
});

describe('npm run dist, used wrongly', () => {
  it('names the mistake in one line, exits 2 and builds nothing', () => {
    const out = mkdtempSync(join(tmpdir(), 'cpk-sea-usage-'));
    for (const [args, message] of [
      // Without --out, as typed: the default release/ is then left as it was.
      [['linux-x86'], 'dist: unknown target "linux-x86" (known: linux-x64, linux-arm64, win-x64, or --host)\n'],
      [
        ['--out', out, 'linux-x86'],
        'dist: unknown target "linux-x86" (known: linux-x64, linux-arm64, win-x64, or --host)\n',
      ],
      [['--host', 'linux-x64', '--out', out], 'dist: --host builds for this machine only: name no targets with it\n'],
      [['linux-x64', '--out'], 'dist: --out needs a directory\n'],
    ] as const) {
      const r = spawnSync(process.execPath, [join(ROOT, 'scripts/dist.mjs'), ...args], { encoding: 'utf8' });
      expect(r.stderr).toBe(message);
      expect(r.status).toBe(2);
    }
    expect(readdirSync(out)).toEqual([]);
  });
});
