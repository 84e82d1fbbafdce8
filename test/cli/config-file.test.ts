// The config file's own guarantees (issue 3): profiles listed, used and
// removed; a broken file refused untouched; atomic writes under SIGKILL; a stale
// lock, 20 concurrent writers and a hung keychain all end. None of this depends
// on the transport, so it runs once (test/cli/), not on both transports as test/e2e/ does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { useEmulator } from '../helpers/emulator.js';
import { login, sandbox } from '../helpers/sandbox.js';
import { startEmulator, type Emulator } from '../../src/emulator/server.js';

const f = useEmulator({}, { inProcess: true });

describe.concurrent('profile list, use, remove', () => {
  it('lists profiles with the current one marked; remove of the current one leaves none current', async () => {
    const s = sandbox({}, { inProcess: true });
    await login(s, f.emu.token, ['--base-url', f.emu.baseUrl, '--no-verify', '--profile', 'prod']);
    await login(s, 'cpk_test_other', [
      '--base-url',
      'https://staging.example.com',
      '--no-verify',
      '--profile',
      'staging',
    ]);
    const list = await s.spawned(['profile', 'list']);
    expect(list.stdout).toBe(
      `* prod     ${f.emu.baseUrl}  token in config file\n  staging  https://staging.example.com/v1  token in config file\n`,
    );
    expect((await s.cpk(['profile', 'use', 'staging'])).code).toBe(0);
    expect(JSON.parse((await s.cpk(['profile', 'list', '--json'])).stdout)).toEqual([
      { name: 'prod', current: false, base_url: f.emu.baseUrl, token_storage: 'file' },
      { name: 'staging', current: true, base_url: 'https://staging.example.com/v1', token_storage: 'file' },
    ]);
    const removed = await s.cpk(['profile', 'remove', 'staging']);
    expect(removed.code).toBe(0);
    expect(removed.stderr).toContain('There is no current profile now');
    expect(readFileSync(s.file, 'utf8')).not.toContain('cpk_test_other');
    expect(s.config().current_profile).toBeUndefined();
    expect((await s.cpk(['profile', 'list'])).stdout).toBe(`  prod  ${f.emu.baseUrl}  token in config file\n`);
  });

  it('use and remove of an unknown profile: exit 2, nothing created', async () => {
    const s = sandbox({}, { inProcess: true });
    const [use, remove, bad] = await Promise.all([
      s.cpk(['profile', 'use', 'ghost']),
      s.cpk(['profile', 'remove', 'ghost']),
      s.cpk(['profile', 'use', '../x']),
    ]);
    expect(use.code).toBe(2);
    expect(use.stderr).toContain('no profile "ghost"');
    expect(remove.code).toBe(2);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('invalid profile name "../x"');
    expect(existsSync(s.dir)).toBe(false);
  });
});

describe.concurrent('a corrupted or hand-broken config file', () => {
  // Its own emulator: the shared one hears from the tests running alongside.
  let quiet: Emulator;
  beforeAll(async () => {
    quiet = await startEmulator({ port: 0 });
  });
  afterAll(async () => {
    await quiet?.close();
  });
  const SECRET = 'cpk_secret_inside_the_broken_file';
  const broken: Record<string, string> = {
    'not JSON': `{"profiles": {"a": {"token": "${SECRET}"}},,}`,
    truncated: `{"profiles": {"a": {"token": "${SECRET}"`,
    empty: '',
    'an array': `["${SECRET}"]`,
    'a profile that is a string': `{"profiles": {"a": "${SECRET}"}}`,
    'a bad token_storage': `{"profiles": {"a": {"token_storage": "paper", "token": "${SECRET}"}}}`,
  };
  const commands = [
    ['monitors', 'get', 'mon_1'],
    ['auth', 'status'],
    ['auth', 'token'],
    ['auth', 'login', '--with-token', '--no-verify'],
    ['auth', 'logout', '--profile', 'a'],
    ['profile', 'list'],
    ['profile', 'use', 'a'],
    ['profile', 'remove', 'a'],
  ];

  // Every command on one broken file; a reader and a writer on each other kind.
  const cases = Object.entries(broken).map(
    ([kind, text], i) => [kind, text, i === 0 ? commands : [commands[0]!, commands[3]!]] as const,
  );
  it.each(cases)(
    '%s: exits 2 with one line naming the file and the fix; the file is untouched',
    async (_kind, text, commands) => {
      const s = sandbox({}, { inProcess: true });
      mkdirSync(s.dir, { recursive: true, mode: 0o700 });
      writeFileSync(s.file, text, { mode: 0o644 });
      const before = statSync(s.file);
      const results = await Promise.all(
        commands.map((args) => s.cpk(args, { input: `${quiet.token}\n`, env: { CPK_BASE_URL: quiet.baseUrl } })),
      );
      results.forEach((r, i) => {
        const what = commands[i]!.join(' ');
        expect(r.code, what).toBe(2);
        expect(r.stdout, what).toBe('');
        expect(r.stderr, what).toMatch(
          new RegExp(
            `^cpk: config file ${s.file.replace(/[.]/g, '\\.')} .+; fix it by hand, or move it away .+ cpk has not changed it\\n$`,
          ),
        );
        expect(r.stderr, what).not.toContain(SECRET);
      });
      expect(readFileSync(s.file, 'utf8')).toBe(text);
      const after = statSync(s.file);
      expect(after.mtimeMs).toBe(before.mtimeMs);
      expect(after.mode & 0o777).toBe(0o644);
      expect(readdirSync(s.dir)).toEqual(['config.json']);
      expect(quiet.requests).toEqual([]);
    },
  );

  it('says where a JSON syntax error is, by line and column', async () => {
    const s = sandbox({}, { inProcess: true });
    mkdirSync(s.dir, { recursive: true });
    writeFileSync(s.file, '{\n  "profiles": {\n    "a": {,\n  }\n}\n');
    const r = await s.cpk(['profile', 'list']);
    expect(r.stderr).toContain(`cpk: config file ${s.file} is not valid JSON (line 3, column 11);`);
  });
});

describe.concurrent('a config file another user could have written', () => {
  // Its own emulator: it must hear nothing at all.
  let quiet: Emulator;
  beforeAll(async () => {
    quiet = await startEmulator({ port: 0 });
  });
  afterAll(async () => {
    await quiet?.close();
  });

  it.each([
    ['the file is writable by others', 0o666, 0o700, /is writable by others \(mode 0666\)/, 'chmod 600'],
    ['the directory is writable by others', 0o600, 0o777, /is in a directory others can write/, 'chmod go-w'],
  ])(
    '%s: every command refuses it (exit 2, one line and the fix), sends nothing and changes nothing',
    async (_what, fileMode, dirMode, problem, fix) => {
      const s = sandbox({}, { inProcess: true });
      mkdirSync(s.dir, { recursive: true });
      // A planted profile: the attacker's base URL, waiting for the victim's CPK_TOKEN.
      const text = JSON.stringify({ current_profile: 'a', profiles: { a: { base_url: quiet.baseUrl } } });
      writeFileSync(s.file, text);
      chmodSync(s.file, fileMode);
      chmodSync(s.dir, dirMode);
      const results = await Promise.all(
        [
          ['monitors', 'get', 'mon_1'],
          ['auth', 'status'],
          ['auth', 'login', '--with-token', '--no-verify'],
          ['profile', 'list'],
        ].map((args) => s.cpk(args, { input: `${quiet.token}\n`, env: { CPK_TOKEN: 'cpk_the_victims_token' } })),
      );
      for (const r of results) {
        expect(r.code).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr).toMatch(problem);
        expect(r.stderr).toContain(fix);
        expect(r.stderr.trim().split('\n')).toHaveLength(1);
        expect(r.stderr).not.toContain('victims');
      }
      expect(quiet.requests).toEqual([]);
      expect(readFileSync(s.file, 'utf8')).toBe(text);
      expect(statSync(s.file).mode & 0o777).toBe(fileMode);
    },
  );
});

describe.concurrent('commands that need no token', () => {
  it('--help, --version, openapi and emulator work with no config and create none', async () => {
    const s = sandbox();
    const [help, version, authHelp, openapi] = await Promise.all([
      s.cpk(['--help']),
      s.cpk(['--version']),
      s.cpk(['auth', 'login', '--help']),
      s.cpk(['openapi'], { env: { CPK_BASE_URL: f.emu.baseUrl } }),
    ]);
    expect([help.code, version.code, authHelp.code, openapi.code]).toEqual([0, 0, 0, 0]);
    expect(help.stdout).toContain('--profile <name>');
    expect(authHelp.stdout).toContain('--with-token');
    expect(JSON.parse(openapi.stdout).openapi).toMatch(/^3\./);
    const emulator = await s.cpk(['emulator', '--port', '0', '--json'], {
      onSpawn: (child) => child.stdout?.once('data', () => child.kill('SIGINT')),
    });
    expect(emulator.stdout).toContain('base_url');
    expect(readdirSync(s.home)).toEqual([]);
  });
});

describe.concurrent('atomic writes', () => {
  // A hook (test/fixtures/kill-during-write.mjs) SIGKILLs cpk at a chosen point of the config write.
  const HOOK = join(import.meta.dirname, '../fixtures/kill-during-write.mjs');
  it.each([
    ['mid-write', 'old'],
    ['before-rename', 'old'],
    ['after-rename', 'new'],
  ])('a writer killed %s leaves the %s file, whole', async (at, expected) => {
    const s = sandbox({}, { inProcess: true });
    await login(s, f.emu.token, ['--base-url', f.emu.baseUrl, '--no-verify', '--profile', 'old']);
    const old = readFileSync(s.file, 'utf8');
    const killed = await login(
      { ...s, cpk: s.spawned },
      'cpk_the_new_token',
      ['--base-url', f.emu.baseUrl, '--no-verify', '--profile', 'new'],
      {
        NODE_OPTIONS: `--import ${HOOK}`,
        CPK_TEST_KILL_AT: at,
      },
    );
    expect(killed.signal).toBe('SIGKILL');
    const now = readFileSync(s.file, 'utf8');
    if (expected === 'old') {
      expect(now).toBe(old);
    } else {
      expect(Object.keys(JSON.parse(now).profiles)).toEqual(['old', 'new']);
    }
    expect(s.mode(s.file)).toBe(0o600);
  });
});

// The slow paths (a stale lock, 20 writers in turn, a hung keychain) run side by side.
describe.concurrent('waits that must end', () => {
  const HOOK = join(import.meta.dirname, '../fixtures/kill-during-write.mjs');
  it('a lock left by a killed writer does not lock the config forever', async () => {
    const s = sandbox({}, { inProcess: true });
    await login(s, f.emu.token, ['--base-url', f.emu.baseUrl, '--no-verify', '--profile', 'old']);
    const killed = await login({ ...s, cpk: s.spawned }, 'cpk_the_new_token', ['--profile', 'new', '--no-verify'], {
      NODE_OPTIONS: `--import ${HOOK}`,
      CPK_TEST_KILL_AT: 'before-rename',
    });
    expect(killed.signal).toBe('SIGKILL');
    expect(existsSync(`${s.file}.lock`)).toBe(true);
    const next = await login(s, 'cpk_the_next_token', ['--profile', 'next', '--no-verify']);
    expect(next.code).toBe(0);
    expect(Object.keys(s.config().profiles as object)).toEqual(['old', 'next']);
  });

  let bus: Server;
  let busPath: string;
  beforeAll(async () => {
    // A session bus that accepts connections and never answers: the keychain hangs.
    busPath = join(sandbox().home, 'hung-bus.sock');
    bus = createServer((socket) => socket.on('data', () => {}));
    await new Promise<void>((resolve) => bus.listen(busPath, resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => bus?.close(resolve));
  });

  it('20 concurrent writers leave valid JSON holding all 20 profiles, and no temp or lock file', async () => {
    const s = sandbox();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        login(s, `cpk_writer_${i}_token`, ['--base-url', f.emu.baseUrl, '--no-verify', '--profile', `w${i}`]),
      ),
    );
    expect(
      results.map((r) => r.code),
      results.map((r) => r.stderr).join(''),
    ).toEqual(Array(20).fill(0));
    const profiles = s.config().profiles as Record<string, { token: string }>;
    expect(Object.keys(profiles).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `w${i}`).sort());
    for (let i = 0; i < 20; i++) expect(profiles[`w${i}`]!.token).toBe(`cpk_writer_${i}_token`);
    expect(readdirSync(s.dir)).toEqual(['config.json']);
  });

  it('a keychain that does not answer within 3 s: the token goes to the 0600 file and cpk says so, and exits', async () => {
    const s = sandbox({ DBUS_SESSION_BUS_ADDRESS: `unix:path=${busPath}` });
    const r = await login(s, f.emu.token, ['--base-url', f.emu.baseUrl, '--no-verify']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      `warning: no system keychain is available (the Secret Service keyring did not answer within 3 s); the token is stored in plain text in ${s.file}`,
    );
    expect(s.mode(s.file)).toBe(0o600);
    expect((s.config().profiles as Record<string, { token: string }>).default!.token).toBe(f.emu.token);
  });
});
