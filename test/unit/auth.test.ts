// Sign-in pieces that need no server: the keychain path through an injected
// fake store, the config file's checks, and precedence.
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Context } from '../../src/cli/context.js';
import { parseGlobals } from '../../src/cli/globals.js';
import type { IO } from '../../src/core/io.js';
import { AuthError, ExitCode, UsageError } from '../../src/core/errors.js';
import { run as login } from '../../src/commands/auth/login.js';
import { run as logout } from '../../src/commands/auth/logout.js';
import { run as token } from '../../src/commands/auth/token.js';
import { run as removeProfile } from '../../src/commands/profile/remove.js';
import { keychainAccount, type SecretStore } from '../../src/config/keychain.js';
import { withDeadline } from '../../src/config/deadline.js';
import { saveToken } from '../../src/config/profiles.js';
import { parseConfig } from '../../src/config/file.js';
import { describeJsonError } from '../../src/core/json.js';
import { checkProfileName, findProblem } from '../../src/config/schema.js';
import { resolveBaseUrl, selectProfile } from '../../src/config/resolve.js';
import { resolveSession } from '../../src/config/session.js';
import { checkTokenInput } from '../../src/config/token-input.js';

class FakeKeychain implements SecretStore {
  readonly name = 'Fake Keychain';
  readonly entries = new Map<string, string>();
  failGet = false;
  failDelete = false;
  async get(service: string, account: string) {
    if (this.failGet) throw new Error('the keyring is locked');
    return this.entries.get(`${service}/${account}`) ?? null;
  }
  async set(service: string, account: string, secret: string) {
    this.entries.set(`${service}/${account}`, secret);
  }
  async delete(service: string, account: string) {
    if (this.failDelete) throw new Error('the keyring is locked');
    return this.entries.delete(`${service}/${account}`);
  }
}

const never = () => new Promise<never>(() => {});
const hangingKeychain: SecretStore = { name: 'Hung Keychain', get: never, set: never, delete: never };

function configDir(): string {
  return join(mkdtempSync(join(tmpdir(), 'cpk-unit-')), 'config');
}

function context(
  env: Record<string, string | undefined>,
  options: { stdin?: string; globals?: Record<string, unknown>; keychain?: SecretStore } = {},
) {
  const out: string[] = [];
  const err: string[] = [];
  const io: IO = {
    stdout: { write: (chunk: string) => out.push(chunk) },
    stderr: { write: (chunk: string) => err.push(chunk) },
    stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]),
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    env,
  };
  const ctx = new Context(io, parseGlobals(options.globals ?? {}));
  ctx.secretStore = options.keychain;
  return { ctx, stdout: () => out.join(''), stderr: () => err.join('') };
}

const TOKEN = 'cpk_kept_in_the_keychain_1234';
const NO_CHECK = { withToken: true, verify: false, insecureStorage: false };

describe('the keychain path (fake store)', () => {
  it('login puts the token in the keychain and only where it is in the file; commands read it back; logout deletes it', async () => {
    const dir = configDir();
    const env = { CPK_CONFIG_DIR: dir };
    const keychain = new FakeKeychain();
    const file = join(dir, 'config.json');

    const a = context(env, { stdin: `${TOKEN}\n`, globals: { baseUrl: 'https://api.example.com' }, keychain });
    await login(NO_CHECK, a.ctx);
    expect(a.stderr()).toContain('Token stored in the Fake Keychain.');
    expect(a.stderr()).not.toContain(TOKEN);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(TOKEN);
    const account = keychainAccount('default', file);
    expect(JSON.parse(text)).toEqual({
      profiles: {
        default: {
          base_url: 'https://api.example.com/v1',
          token_storage: 'keychain',
          keychain: { service: 'cpk', account },
        },
      },
      current_profile: 'default',
    });
    expect([...keychain.entries]).toEqual([[`cpk/${account}`, TOKEN]]);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const b = context(env, { keychain });
    const session = await b.ctx.session();
    expect(session.token).toEqual({ value: TOKEN, source: 'profile "default"', origin: 'keychain' });
    expect(session.baseUrl).toEqual({ value: 'https://api.example.com/v1', source: 'profile "default"' });

    const c = context(env, { keychain });
    await token(c.ctx);
    expect(c.stdout()).toBe(`${TOKEN}\n`);

    const d = context(env, { keychain });
    await logout(d.ctx);
    expect(d.stderr()).toBe('Logged out: the token of profile "default" was removed from the system keychain.\n');
    expect(keychain.entries.size).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default).toEqual({ base_url: 'https://api.example.com/v1' });
  });

  it('a new login to the file removes the old keychain copy', async () => {
    const env = { CPK_CONFIG_DIR: configDir() };
    const keychain = new FakeKeychain();
    await login(NO_CHECK, context(env, { stdin: TOKEN, keychain }).ctx);
    expect(keychain.entries.size).toBe(1);
    await login(
      { ...NO_CHECK, insecureStorage: true },
      context(env, { stdin: 'cpk_now_in_the_file_5678', keychain }).ctx,
    );
    expect(keychain.entries.size).toBe(0);
    expect(JSON.parse(readFileSync(join(env.CPK_CONFIG_DIR, 'config.json'), 'utf8')).profiles.default).toEqual({
      base_url: 'http://127.0.0.1:4010/v1',
      token_storage: 'file',
      token: 'cpk_now_in_the_file_5678',
    });
  });

  it('a keychain that does not answer in time: the token goes to the file, and login says why', async () => {
    const env = { CPK_CONFIG_DIR: configDir() };
    const saved = await saveToken({
      env,
      profile: 'p',
      baseUrl: 'https://api.example.com/v1',
      token: TOKEN,
      insecureStorage: false,
      secrets: async () => hangingKeychain,
      keychainTimeoutMs: 20,
    });
    expect(saved.storage).toBe('file');
    expect(saved.fallbackReason).toBe('Hung Keychain: no answer within 0.02 s');
    expect(JSON.parse(readFileSync(saved.location.file, 'utf8')).profiles.p.token).toBe(TOKEN);
  });

  it('a keychain that fails or lost the entry: exit 4 naming the keychain, and the next step', async () => {
    const env = { CPK_CONFIG_DIR: configDir() };
    const keychain = new FakeKeychain();
    await login(NO_CHECK, context(env, { stdin: TOKEN, keychain }).ctx);

    keychain.failGet = true;
    const locked = await context(env, { keychain }).ctx.session();
    expect(locked.token).toBeUndefined();
    expect(locked.tokenProblem).toBeInstanceOf(AuthError);
    expect(locked.tokenProblem!.exitCode).toBe(ExitCode.AUTH);
    expect(locked.tokenProblem!.message).toBe(
      'cannot read the token of profile "default" from the Fake Keychain (the keyring is locked)',
    );

    keychain.failGet = false;
    keychain.entries.clear();
    const lost = await context(env, { keychain }).ctx.session();
    expect(lost.tokenProblem!.message).toMatch(
      /^the token of profile "default" is missing from the Fake Keychain \(service "cpk", account "default@[0-9a-f]{12}"\)$/,
    );
    await expect(context(env, { keychain }).ctx.api()).rejects.toThrow(AuthError);
  });

  it('profile remove deletes the keychain entry; a keychain that refuses is reported by name', async () => {
    const env = { CPK_CONFIG_DIR: configDir() };
    const keychain = new FakeKeychain();
    await login(NO_CHECK, context(env, { stdin: TOKEN, keychain, globals: { profile: 'a' } }).ctx);
    await login(NO_CHECK, context(env, { stdin: TOKEN, keychain, globals: { profile: 'b' } }).ctx);
    expect(keychain.entries.size).toBe(2);
    await removeProfile({ name: 'a' }, context(env, { keychain }).ctx);
    expect([...keychain.entries.keys()]).toEqual([
      `cpk/${keychainAccount('b', join(env.CPK_CONFIG_DIR, 'config.json'))}`,
    ]);

    keychain.failDelete = true;
    const r = context(env, { keychain });
    await removeProfile({ name: 'b' }, r.ctx);
    expect(r.stderr()).toMatch(
      /warning: could not remove the token from the Fake Keychain \(the keyring is locked\): delete the entry service "cpk", account "b@[0-9a-f]{12}" with your keychain tool/,
    );
    expect(JSON.parse(readFileSync(join(env.CPK_CONFIG_DIR, 'config.json'), 'utf8')).profiles).toEqual({});
  });

  it('withDeadline turns a slow or failing call into one short line and aborts it', async () => {
    let aborted = false;
    await expect(
      withDeadline((signal) => {
        signal.addEventListener('abort', () => (aborted = true));
        return never();
      }, 10),
    ).rejects.toThrow(/^no answer within 0\.01 s$/);
    expect(aborted).toBe(true);
    await expect(withDeadline(async () => Promise.reject(new Error('first line\nsecond line')), 1000)).rejects.toThrow(
      /^first line$/,
    );
    await expect(withDeadline(async () => 'ok', 1000)).resolves.toBe('ok');
  });
});

describe('the config file', () => {
  it.each([
    [[], 'holds an array, not a JSON object'],
    [null, 'holds null, not a JSON object'],
    ['x', 'holds a string, not a JSON object'],
    [{ current_profile: 3 }, 'has a "current_profile" that is not a string'],
    [{ profiles: [] }, 'has a "profiles" that is not an object'],
    [{ profiles: { 'a b': {} } }, 'has a profile with an invalid name ("a b")'],
    [{ profiles: { a: 1 } }, 'has a profile "a" that is not an object'],
    [{ profiles: { a: { base_url: 1 } } }, 'has a profile "a" whose "base_url" is not a string'],
    [{ profiles: { a: { token: false } } }, 'has a profile "a" whose "token" is not a string'],
    [
      { profiles: { a: { token_storage: 'paper' } } },
      'has a profile "a" whose "token_storage" is not "file" or "keychain"',
    ],
    [
      { profiles: { a: { token_storage: 'keychain' } } },
      'has a profile "a" stored in the keychain without a "keychain": {"service", "account"} entry',
    ],
  ])('refuses %j: %s', (data, problem) => {
    expect(findProblem(data)).toBe(problem);
  });

  it.each([
    {},
    { profiles: {} },
    { profiles: { a: {} } },
    { future_key: [1], profiles: { a: { base_url: 'https://x', extra: true } } },
  ])('accepts %j', (data) => {
    expect(findProblem(data)).toBeUndefined();
  });

  it('describes a syntax error by line and column, never quoting the file', () => {
    const text = '{\n  "profiles": {"a": {"token": "cpk_secret_value"} x\n}';
    let error: unknown;
    try {
      JSON.parse(text);
    } catch (e) {
      error = e;
    }
    expect(describeJsonError(text, error)).toBe('is not valid JSON (line 2, column 51)');
    expect(describeJsonError('   ', error)).toBe('is empty, not a JSON object');
    expect(() => parseConfig('{"token": "cpk_secret_value"', '/x/config.json')).toThrow(
      /^config file \/x\/config\.json is not valid JSON \(line 1, column 29\)$/,
    );
    try {
      parseConfig('{"token": "cpk_secret_value" oops}', '/x/config.json');
    } catch (e) {
      expect(e).toBeInstanceOf(UsageError);
      expect((e as UsageError).exitCode).toBe(ExitCode.USAGE);
      expect((e as UsageError).message).not.toContain('cpk_secret_value');
      expect((e as UsageError).message).toBe('config file /x/config.json is not valid JSON (line 1, column 30)');
    }
  });

  it('CI (CPK_TOKEN and CPK_BASE_URL) never reads the config file, so even a broken one does not matter', async () => {
    const dir = configDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), '{broken');
    const base = { CPK_CONFIG_DIR: dir, CPK_TOKEN: 'cpk_from_ci', CPK_BASE_URL: 'https://api.example.com' };
    const session = await resolveSession({ flags: {}, env: base, secrets: async () => hangingKeychain });
    expect(session.token?.value).toBe('cpk_from_ci');
    // but naming a profile reads it, and reports it
    await expect(
      resolveSession({ flags: { profile: 'x' }, env: base, secrets: async () => hangingKeychain }),
    ).rejects.toMatchObject({
      exitCode: ExitCode.USAGE,
      message: `config file ${join(dir, 'config.json')} is not valid JSON (line 1, column 2)`,
    });
  });
});

describe('precedence and names', () => {
  const data = {
    current_profile: 'cur',
    profiles: { cur: { base_url: 'https://cur.example.com' }, env: {}, flag: {} },
  };

  it('profile: --profile > CPK_PROFILE > current > none', () => {
    expect(selectProfile('flag', { CPK_PROFILE: 'env' }, data)).toMatchObject({ name: 'flag', source: '--profile' });
    expect(selectProfile(undefined, { CPK_PROFILE: 'env' }, data)).toMatchObject({
      name: 'env',
      source: 'CPK_PROFILE',
    });
    expect(selectProfile(undefined, {}, data)).toMatchObject({ name: 'cur', source: 'current profile' });
    expect(selectProfile(undefined, {}, { current_profile: 'gone', profiles: {} })).toBeUndefined();
    expect(selectProfile(undefined, {}, {})).toBeUndefined();
  });

  it('a profile name that is an Object.prototype key is just a name', () => {
    expect(selectProfile('constructor', {}, data)).toEqual({
      name: 'constructor',
      source: '--profile',
      record: undefined,
    });
    expect(selectProfile(undefined, { CPK_PROFILE: 'toString' }, data)!.record).toBeUndefined();
  });

  it('base URL: --base-url > CPK_BASE_URL > profile > default', () => {
    const profile = { name: 'cur', record: { base_url: 'https://cur.example.com' } };
    expect(
      resolveBaseUrl('https://flag.example.com', { CPK_BASE_URL: 'https://env.example.com' }, profile).source,
    ).toBe('--base-url');
    expect(resolveBaseUrl(undefined, { CPK_BASE_URL: 'https://env.example.com' }, profile).source).toBe('CPK_BASE_URL');
    expect(resolveBaseUrl(undefined, {}, profile)).toEqual({
      value: 'https://cur.example.com/v1',
      source: 'profile "cur"',
    });
    expect(resolveBaseUrl(undefined, {}, { name: 'x', record: {} }).source).toBe('default, the local emulator');
  });

  it.each(['', '__proto__', '../x', 'a b', '-a', 'x'.repeat(65), 'a/b'])('refuses the profile name %j', (name) => {
    expect(() => checkProfileName(name, '--profile')).toThrow(UsageError);
  });

  it.each(['default', 'prod', 'acme-prod.eu_1', 'A1'])('accepts the profile name %j', (name) => {
    expect(checkProfileName(name, '--profile')).toBe(name);
  });

  it.each([
    ['cpk_abc\n', 'cpk_abc'],
    ['  cpk_abc  ', 'cpk_abc'],
  ])('takes the token %j as %j', (raw, want) => {
    expect(checkTokenInput(raw, 'stdin')).toBe(want);
  });

  it.each([
    ['', UsageError],
    ['\n', UsageError],
    ['ghp_abc', AuthError],
    ['CPK_abc', AuthError],
    ['cpk_a b', AuthError],
    ['cpk_a\ncpk_b', AuthError],
    ['cpk_', AuthError],
  ])('refuses the token input %j', (raw, kind) => {
    expect(() => checkTokenInput(raw, 'stdin')).toThrow(kind);
    try {
      checkTokenInput(raw, 'stdin');
    } catch (e) {
      if (raw.trim()) expect((e as Error).message).not.toContain(raw.trim());
    }
  });
});
