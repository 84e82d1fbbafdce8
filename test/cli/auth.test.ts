// Sign-in and profiles, through the built CLI and the emulator. Each
// test has its own HOME and CPK_CONFIG_DIR; no session bus answers, so the
// token goes to the 0600 file for real (the keychain path is in
// test/unit/auth.test.ts, with a fake store). Blocks that assert exactly which
// requests reached the shared emulator run one test at a time; the others run
// their tests side by side.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { useEmulator } from '../helpers/emulator.js';
import { login, sandbox } from '../helpers/sandbox.js';
import { BIN } from '../helpers/cli.js';
import { startEmulator, type Emulator } from '../../src/emulator/server.js';

const f = useEmulator({}, { inProcess: true });
const PROBE = '/v1/monitors/cpk-auth-probe';

describe('auth login --with-token', () => {
  it('stores the token (in the 0600 file when no keychain answers), and later commands use it and its base URL', async () => {
    const s = sandbox({}, { inProcess: true });
    const sent = f.mark();
    const r = await login(s, f.emu.token, ['--base-url', f.emu.baseUrl]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`the token is stored in plain text in ${s.file} (mode 0600`);
    expect(r.stderr).toContain('warning: no system keychain is available (');
    // In plain words: a keychain daemon's own message (DBus autolaunch...) is for --debug only.
    expect(r.stderr).not.toMatch(/dbus|platform failure/i);
    expect(r.stderr).toContain(`Logged in: profile "default" at ${f.emu.baseUrl} (the current profile)`);
    expect(r.stderr).not.toContain(f.emu.token);
    // one harmless authenticated GET verified it
    const probe = sent();
    expect(probe.map((q) => `${q.method} ${q.path}`)).toEqual([`GET ${PROBE}`]);
    expect(probe[0]!.headers.authorization).toBe(`Bearer ${f.emu.token}`);
    expect(s.config()).toEqual({
      profiles: { default: { base_url: f.emu.baseUrl, token_storage: 'file', token: f.emu.token } },
      current_profile: 'default',
    });

    const later = f.mark();
    const created = await s.cpk(['monitors', 'create', '--name', 'from a profile', '-q']);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^mon_\w+\n$/);
    const reqs = later();
    expect(reqs.map((q) => `${q.method} ${q.path}`)).toEqual(['POST /v1/monitors']);
    expect(reqs[0]!.headers.authorization).toBe(`Bearer ${f.emu.token}`);
  });

  it('creates the directory 0700 and the file 0600, and --insecure-storage says where the token went', async () => {
    const s = sandbox({}, { inProcess: true });
    const r = await login(s, f.emu.token, ['--base-url', f.emu.baseUrl, '--insecure-storage', '--no-verify']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      `Token stored in ${s.file} (mode 0600, readable only by you), as --insecure-storage asks.`,
    );
    expect(r.stderr).not.toContain('keychain');
    expect(s.mode(s.dir)).toBe(0o700);
    expect(s.mode(s.file)).toBe(0o600);
    expect(readdirSync(s.dir)).toEqual(['config.json']);
  });

  it('defaults to $XDG_CONFIG_HOME/cpk/config.json (no -nodejs suffix) and tightens a wider directory there', async () => {
    const s = sandbox({}, { defaultLocation: true, inProcess: true });
    mkdirSync(s.dir, { recursive: true, mode: 0o755 });
    const r = await login(s, f.emu.token, ['--base-url', f.emu.baseUrl, '--no-verify']);
    expect(r.code).toBe(0);
    expect(existsSync(join(s.home, '.config', 'cpk', 'config.json'))).toBe(true);
    expect(existsSync(join(s.home, '.config', 'cpk-nodejs'))).toBe(false);
    expect(s.mode(s.file)).toBe(0o600);
    expect(s.mode(s.dir)).toBe(0o700);
    expect(r.stderr).toContain(`config directory ${s.dir} was open to others (mode 0755); cpk set it to 0700`);
  });

  it('repairs an existing config file that others can read, and says so', async () => {
    const s = sandbox({}, { inProcess: true });
    mkdirSync(s.dir, { recursive: true, mode: 0o700 });
    const text = JSON.stringify({
      profiles: { a: { base_url: f.emu.baseUrl, token_storage: 'file', token: f.emu.token } },
      current_profile: 'a',
    });
    writeFileSync(s.file, text, { mode: 0o644 });
    const r = await s.cpk(['profile', 'list']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`warning: config file ${s.file} was readable by others (mode 0644); cpk set it to 0600\n`);
    expect(s.mode(s.file)).toBe(0o600);
    expect(readFileSync(s.file, 'utf8')).toBe(text);
  });

  it('refuses a token without the cpk_ prefix: exit 4, nothing stored, nothing sent, the token not repeated', async () => {
    const s = sandbox({}, { inProcess: true });
    const sent = f.mark();
    const r = await login(s, 'ghp_notacpktoken1234', ['--base-url', f.emu.baseUrl]);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'cpk: the token from stdin does not start with "cpk_": cpk API tokens do; nothing was stored\n',
    );
    expect(existsSync(s.dir)).toBe(false);
    expect(sent()).toEqual([]);

    // and an existing config is left exactly as it was
    await login(s, f.emu.token, ['--base-url', f.emu.baseUrl, '--no-verify']);
    const before = readFileSync(s.file, 'utf8');
    const again = await login(s, 'not-a-token', ['--profile', 'other']);
    expect(again.code).toBe(4);
    expect(readFileSync(s.file, 'utf8')).toBe(before);
  });

  it('refuses a token the service refuses (401: exit 4; 403: exit 5) and stores nothing', async () => {
    const s = sandbox({}, { inProcess: true });
    const [expired, suspended] = await Promise.all([
      login(s, 'cpk_test_expired', ['--base-url', f.emu.baseUrl, '--profile', 'exp']),
      login(s, 'cpk_test_suspended', ['--base-url', f.emu.baseUrl, '--profile', 'sus']),
    ]);
    expect(expired.code).toBe(4);
    expect(expired.stderr).toMatch(
      /^cpk: the service refused the token \(401: token expired\); nothing was stored \(request id: req_\w+\)\n$/,
    );
    expect(suspended.code).toBe(5);
    expect(suspended.stderr).toMatch(
      /^cpk: the service refused the token \(403: account suspended\); nothing was stored; to store it without checking, add --no-verify/,
    );
    expect(existsSync(s.file)).toBe(false);
  });

  it('--no-verify stores without sending anything', async () => {
    const s = sandbox({}, { inProcess: true });
    const sent = f.mark();
    const r = await login(s, 'cpk_offline_setup_token', ['--base-url', 'https://api.example.com', '--no-verify']);
    expect(r.code).toBe(0);
    expect(sent()).toEqual([]);
    // Stored, not "logged in": nothing has checked it yet.
    expect(r.stderr).toContain(
      'Token stored, not checked (--no-verify): profile "default" at https://api.example.com/v1 (the current profile); `cpk auth status` checks it.',
    );
    expect(r.stderr).not.toContain('Logged in');
    expect((s.config().profiles as Record<string, { base_url: string }>).default!.base_url).toBe(
      'https://api.example.com/v1',
    );
  });

  it('with CPK_TOKEN set: stores the new token, warns that CPK_TOKEN still wins, never writes CPK_TOKEN to disk', async () => {
    const s = sandbox({}, { inProcess: true });
    const r = await login(s, 'cpk_test_other', ['--base-url', f.emu.baseUrl], { CPK_TOKEN: f.emu.token });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      'warning: CPK_TOKEN is set in this environment and still wins over the stored token; unset CPK_TOKEN to use profile "default"',
    );
    const text = readFileSync(s.file, 'utf8');
    expect(text).toContain('cpk_test_other');
    expect(text).not.toContain(f.emu.token);
  });

  it('off a terminal without --with-token: exit 2 naming --with-token; empty stdin: exit 2; nothing created', async () => {
    const s = sandbox({}, { inProcess: true });
    const [noFlag, empty] = await Promise.all([
      s.cpk(['auth', 'login', '--base-url', f.emu.baseUrl], { input: `${f.emu.token}\n` }),
      s.cpk(['auth', 'login', '--with-token', '--base-url', f.emu.baseUrl], { input: '\n' }),
    ]);
    expect(noFlag.code).toBe(2);
    expect(noFlag.stderr).toContain('--with-token');
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('no token on stdin');
    expect(existsSync(s.dir)).toBe(false);
  });

  it('the first profile logged in becomes current; later ones do not', async () => {
    const s = sandbox({}, { inProcess: true });
    await login(s, f.emu.token, ['--base-url', f.emu.baseUrl, '--no-verify', '--profile', 'first']);
    const second = await login(s, 'cpk_test_other', [
      '--base-url',
      f.emu.baseUrl,
      '--no-verify',
      '--profile',
      'second',
      '--json',
    ]);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual({
      profile: 'second',
      base_url: f.emu.baseUrl,
      current: false,
      verified: false,
      token_storage: 'file',
      keychain: null,
      config_file: s.file,
    });
    expect(s.config().current_profile).toBe('first');
  });

  it('without --profile does not re-point the current profile at another service', async () => {
    const s = sandbox({}, { inProcess: true });
    await login(s, f.emu.token, ['--base-url', f.emu.baseUrl, '--no-verify']);
    const before = readFileSync(s.file, 'utf8');
    const r = await login(s, 'cpk_test_other', ['--base-url', 'https://staging.example.com', '--no-verify']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('name the profile for https://staging.example.com/v1: cpk auth login --profile NAME');
    expect(readFileSync(s.file, 'utf8')).toBe(before);
  });
});

describe('which profile, base URL and token are used', () => {
  let emu2: Emulator;
  beforeAll(async () => {
    emu2 = await startEmulator({ port: 0, token: 'cpk_second_service_token' });
  });
  afterAll(async () => {
    await emu2?.close();
  });

  /** Two profiles on two services with two accounts: "a" (current) and "b". */
  async function twoProfiles() {
    const s = sandbox({}, { inProcess: true });
    const a = await login(s, f.emu.token, ['--base-url', f.emu.baseUrl, '--profile', 'a', '--no-verify']);
    const b = await login(s, emu2.token, ['--base-url', emu2.baseUrl, '--profile', 'b', '--no-verify']);
    expect([a.code, b.code]).toEqual([0, 0]);
    return s;
  }

  async function whereDoesItGo(
    s: ReturnType<typeof sandbox>,
    args: string[],
    env: Record<string, string | undefined> = {},
  ) {
    const [one, two] = [
      f.mark(),
      (() => {
        const start = emu2.requests.length;
        return () => emu2.requests.slice(start);
      })(),
    ];
    const r = await s.cpk(['monitors', 'create', '--name', 'where', '-q', ...args], { env });
    expect(r.code, r.stderr).toBe(0);
    const reqs = [
      ...one().map((q) => ({ to: 'emu1', auth: q.headers.authorization })),
      ...two().map((q) => ({ to: 'emu2', auth: q.headers.authorization })),
    ];
    return reqs;
  }

  it('the current profile when nothing names one; --profile and CPK_PROFILE pick another service and account; the flag beats the variable', async () => {
    const s = await twoProfiles();
    expect(await whereDoesItGo(s, [])).toEqual([{ to: 'emu1', auth: `Bearer ${f.emu.token}` }]);
    expect(await whereDoesItGo(s, ['--profile', 'b'])).toEqual([{ to: 'emu2', auth: `Bearer ${emu2.token}` }]);
    expect(await whereDoesItGo(s, [], { CPK_PROFILE: 'b' })).toEqual([{ to: 'emu2', auth: `Bearer ${emu2.token}` }]);
    expect(await whereDoesItGo(s, ['--profile', 'a'], { CPK_PROFILE: 'b' })).toEqual([
      { to: 'emu1', auth: `Bearer ${f.emu.token}` },
    ]);
    // profile use changes the current one
    expect((await s.cpk(['profile', 'use', 'b'])).code).toBe(0);
    expect(await whereDoesItGo(s, [])).toEqual([{ to: 'emu2', auth: `Bearer ${emu2.token}` }]);
  });

  it('CPK_TOKEN beats the stored token', async () => {
    const s = await twoProfiles();
    expect(await whereDoesItGo(s, [], { CPK_TOKEN: 'cpk_test_other' })).toEqual([
      { to: 'emu1', auth: 'Bearer cpk_test_other' },
    ]);
  });

  it('CPK_BASE_URL and --base-url beat the stored base URL, but a stored token is never sent to another origin', async () => {
    const s = await twoProfiles();
    // same origin: fine
    expect(await whereDoesItGo(s, ['--base-url', `${f.emu.baseUrl}/`])).toEqual([
      { to: 'emu1', auth: `Bearer ${f.emu.token}` },
    ]);
    // with CPK_TOKEN, CPK_BASE_URL sends anywhere
    expect(await whereDoesItGo(s, [], { CPK_BASE_URL: emu2.baseUrl, CPK_TOKEN: emu2.token })).toEqual([
      { to: 'emu2', auth: `Bearer ${emu2.token}` },
    ]);
    // profile a's token does not follow CPK_BASE_URL to the second service
    const sent = emu2.requests.length;
    const r = await s.cpk(['monitors', 'get', 'mon_x'], { env: { CPK_BASE_URL: emu2.baseUrl } });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(
      `the token of profile "a" is for ${new URL(f.emu.baseUrl).origin}; cpk does not send it to ${new URL(emu2.baseUrl).origin} (from CPK_BASE_URL)`,
    );
    expect(emu2.requests.length).toBe(sent);
  });

  it('an unknown profile named by --profile or CPK_PROFILE is a usage error, even with CPK_TOKEN set', async () => {
    const s = await twoProfiles();
    const sent = f.mark();
    const [flag, env] = await Promise.all([
      s.cpk(['monitors', 'get', 'mon_x', '--profile', 'nope']),
      s.cpk(['monitors', 'get', 'mon_x'], {
        env: { CPK_PROFILE: 'nope', CPK_TOKEN: f.emu.token, CPK_BASE_URL: f.emu.baseUrl },
      }),
    ]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('no profile "nope" (from --profile)');
    expect(flag.stderr).toContain('profiles: a, b');
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('no profile "nope" (from CPK_PROFILE)');
    expect(sent()).toEqual([]);
  });
});

describe('auth logout', () => {
  it('removes the token: the next command exits 4 and sends nothing', async () => {
    const s = sandbox({}, { inProcess: true });
    await login(s, f.emu.token, ['--base-url', f.emu.baseUrl, '--no-verify']);
    const out = await s.cpk(['auth', 'logout']);
    expect(out.code).toBe(0);
    expect(out.stderr).toBe(`Logged out: the token of profile "default" was removed from ${s.file}.\n`);
    expect(readFileSync(s.file, 'utf8')).not.toContain(f.emu.token);
    const sent = f.mark();
    const r = await s.cpk(['monitors', 'get', 'mon_x']);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'cpk: profile "default" has no token (logged out); run `cpk auth login --profile default`, or set CPK_TOKEN\n',
    );
    expect(sent()).toEqual([]);
    // the profile stays, logged out; logging out again is a no-op
    expect((await s.cpk(['profile', 'list'])).stdout).toBe(`* default  ${f.emu.baseUrl}  logged out\n`);
    expect((await s.cpk(['auth', 'logout'])).stderr).toBe('Profile "default" had no token; nothing to do.\n');
  });
});

describe.concurrent('auth status and auth token', () => {
  it('shows the profile and why, the base URL, the token masked and its source, and that the service accepts it', async () => {
    const s = sandbox({}, { inProcess: true });
    await login(s, f.emu.token, ['--base-url', f.emu.baseUrl, '--no-verify', '--profile', 'dev']);
    const [human, json, viaEnv] = await Promise.all([
      s.cpk(['auth', 'status']),
      s.cpk(['auth', 'status', '--json']),
      s.cpk(['auth', 'status', '--json'], { env: { CPK_TOKEN: 'cpk_test_other_from_env', CPK_PROFILE: 'dev' } }),
    ]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^profile\s+dev \(from current profile\)$/m);
    expect(human.stdout).toMatch(
      new RegExp(`^base_url\\s+${f.emu.baseUrl.replace(/[.]/g, '\\.')} \\(from profile "dev"\\)$`, 'm'),
    );
    expect(human.stdout).toMatch(/^token\s+cpk_…oken \(from profile "dev", config file\)$/m);
    expect(human.stdout).toMatch(/^service\s+accepted \(GET .*\/monitors\/cpk-auth-probe answered 404/m);
    expect(JSON.parse(json.stdout)).toEqual({
      profile: 'dev',
      profile_source: 'current profile',
      base_url: f.emu.baseUrl,
      base_url_source: 'profile "dev"',
      token: 'cpk_…oken',
      token_source: 'profile "dev", config file',
      config_file: s.file,
      accepted: true,
      check: expect.stringContaining('answered 404'),
    });
    // CPK_TOKEN is the source when set; the emulator refuses that one: exit 4, still reported
    expect(viaEnv.code).toBe(4);
    expect(JSON.parse(viaEnv.stdout)).toMatchObject({
      profile_source: 'CPK_PROFILE',
      token: 'cpk_…_env',
      token_source: 'CPK_TOKEN (over the token stored for profile "dev")',
      accepted: false,
    });
    for (const r of [human, json, viaEnv]) {
      expect(r.stdout + r.stderr).not.toContain(f.emu.token);
      expect(r.stdout + r.stderr).not.toContain('cpk_test_other_from_env');
    }
  });

  it('with no token: exit 4, and says how to log in', async () => {
    const s = sandbox({}, { inProcess: true });
    const r = await s.cpk(['auth', 'status', '--base-url', f.emu.baseUrl]);
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/^token\s+none$/m);
    expect(r.stderr).toBe('cpk: no token; set CPK_TOKEN, or run `cpk auth login`\n');
    expect(existsSync(s.dir)).toBe(false);
  });

  it('auth token prints the token alone, for piping', async () => {
    const s = sandbox({}, { inProcess: true });
    await login(s, f.emu.token, ['--base-url', f.emu.baseUrl, '--no-verify']);
    const r = await s.cpk(['auth', 'token']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${f.emu.token}\n`);
    expect(r.stderr).toBe('');
  });
});

describe.concurrent('the prompt on a real terminal', () => {
  // util-linux `script` runs cpk under a pseudo-terminal; we type into it.
  /** `keys`: what to type at the prompt; several strings, one at each time the prompt shows. */
  function underTerminal(s: ReturnType<typeof sandbox>, args: string[], keys: string | string[]) {
    const answers = ([] as string[]).concat(keys);
    const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;
    const command = [process.execPath, BIN, ...args].map(quote).join(' ');
    return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries({ PATH: process.env.PATH, LANG: 'C.UTF-8', TERM: 'dumb', ...s.env }))
        if (v !== undefined) env[k] = v;
      const child = spawn('script', ['-qec', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
      let output = '';
      let typed = 0;
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        // Type only once the prompt is up (the terminal is in raw mode by then).
        const shown = output.split('input hidden: ').length - 1;
        while (typed < shown && typed < answers.length) child.stdin.write(answers[typed++] as string);
      });
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        child.stdin.destroy();
        resolve({ code, output });
      });
    });
  }

  it('asks for the token without echoing it, then stores it', async () => {
    const s = sandbox({}, { inProcess: true });
    // cpk_test_other: a token the emulator accepts (another account)
    const r = await underTerminal(
      s,
      ['auth', 'login', '--base-url', f.emu.baseUrl, '--insecure-storage'],
      'cpk_test_other\r',
    );
    expect(r.output).toContain(`Token for profile "default" (${f.emu.baseUrl}), input hidden: `);
    expect(r.output).toContain(`The service at ${f.emu.baseUrl} accepted the token.`);
    expect(r.output).toContain('Logged in: profile "default"');
    expect(r.code).toBe(0);
    expect(r.output).not.toContain('cpk_test_other');
    expect(r.output).not.toContain('test_other');
    expect((s.config().profiles as Record<string, { token: string }>).default!.token).toBe('cpk_test_other');
  });

  it('an empty answer asks again (three times at most), then stores the token typed', async () => {
    const s = sandbox({}, { inProcess: true });
    const r = await underTerminal(
      s,
      ['auth', 'login', '--base-url', f.emu.baseUrl, '--insecure-storage'],
      ['\r', '\r', 'cpk_test_other\r'],
    );
    expect(r.output.split('input hidden: ')).toHaveLength(4);
    expect(r.output).toContain('No token entered; paste it and press Enter (Ctrl-C to stop).');
    expect(r.code).toBe(0);
    expect((s.config().profiles as Record<string, { token: string }>).default!.token).toBe('cpk_test_other');
    const gaveUp = await underTerminal(s, ['auth', 'login', '--base-url', f.emu.baseUrl], ['\r', '\r', '\r', 'x\r']);
    expect(gaveUp.output.split('input hidden: ')).toHaveLength(4);
    expect(gaveUp.code).toBe(2);
  });

  it('Ctrl-C at the prompt: exit 130, nothing stored', async () => {
    const s = sandbox({}, { inProcess: true });
    const r = await underTerminal(s, ['auth', 'login', '--base-url', f.emu.baseUrl], 'cpk_half\u0003');
    expect(r.code).toBe(130);
    expect(r.output).not.toContain('cpk_half');
    expect(existsSync(s.dir)).toBe(false);
  });
});
