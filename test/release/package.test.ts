// What `npm install -g cpk` gives a user. The files a fresh clone
// holds (tracked, plus new files not ignored) are copied to a temp dir and
// packed there with `npm pack`, which runs `prepack` (the build) as a publish
// would; the tarball is installed with `npm install -g --prefix` into another
// temp dir, and everything then runs from outside the work tree: cwd and HOME
// in the temp dir, PATH without the work tree's node_modules/.bin. The work
// tree lends only tools (node_modules for the build, tsc and @types/node for
// the type check) and npm's cache, never the package under test.
//
// Packing a copy, not the work tree: `prepack` rebuilds dist/, which the
// other test files are using at the same time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import semver from 'semver';
import { killAllTracked, track } from '../helpers/children.js';

const ROOT = resolve(import.meta.dirname, '../..');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  engines: { node: string };
};

/** docs/architecture.md, "Size budget": the gzipped tarball every CI job that installs cpk downloads. */
const TARBALL_BUDGET_BYTES = 430 * 1024;
/** What `files` ships, plus what npm always adds. */
const SHIPPED = /^(package\.json|README\.md|LICENSE|CHANGELOG\.md|(bin|dist|completions|man|schema)\/.+)$/;
const REQUIRED = [
  'package.json',
  'README.md',
  'LICENSE',
  'CHANGELOG.md',
  'bin/cpk.js',
  'bin/package.json',
  'dist/cli.cjs',
  'dist/mcp-sdk.cjs',
  'dist/paths.cjs',
  'dist/index.js',
  'dist/types/index.d.ts',
  'completions/cpk.bash',
  'schema/manifest.schema.json',
  'schema/plan.schema.json',
];

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function inside(parent: string, path: string): boolean {
  const rel = relative(parent, resolve(path));
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith('/'));
}

const work = mkdtempSync(join(tmpdir(), 'cpk-package-'));
const tree = join(work, 'clone');
const home = join(work, 'home');
const prefix = join(work, 'prefix');
const project = join(work, 'project');
const installed = join(prefix, 'lib', 'node_modules', PKG.name);

// This Node first (the suite may run on another one, scripts/test-node.mjs),
// then the system's PATH without anything inside the work tree.
const PATH = [
  dirname(process.execPath),
  ...(process.env.PATH ?? '').split(delimiter).filter((p) => p && !inside(ROOT, p)),
].join(delimiter);
const pick = (names: string[]) =>
  Object.fromEntries(names.flatMap((n) => (process.env[n] ? [[n, process.env[n]!]] : [])));
/** npm: the user's cache and npmrc (a warm cache keeps the install fast), registry and proxy settings; none of `npm run`'s npm_config_* that point into the work tree. */
const npmEnv: Record<string, string> = {
  PATH,
  HOME: home,
  LANG: 'C.UTF-8',
  npm_config_cache: process.env.npm_config_cache || join(homedir(), '.npm'),
  npm_config_userconfig: process.env.npm_config_userconfig || join(homedir(), '.npmrc'),
  npm_config_update_notifier: 'false',
  // npm's own temporary files in the run's directory (test/global-setup.ts), even those of a killed npm.
  TMPDIR: process.env.TMPDIR!,
  ...pick([
    'npm_config_registry',
    'HTTPS_PROXY',
    'https_proxy',
    'HTTP_PROXY',
    'http_proxy',
    'NO_PROXY',
    'no_proxy',
    'NODE_EXTRA_CA_CERTS',
  ]),
};
/** A user's shell after the install: the prefix's bin on PATH, nothing else of ours. */
const userEnv: Record<string, string> = {
  PATH: `${join(prefix, 'bin')}${delimiter}${PATH}`,
  HOME: home,
  XDG_CONFIG_HOME: join(home, '.config'),
  LANG: 'C.UTF-8',
  TMPDIR: process.env.TMPDIR!,
};

/**
 * Runs `command` to its end. No clock of its own: npm on a busy machine is slow,
 * not stuck, and a kill on a clock failed installs that were making progress.
 * A hang is caught by the test's (or hook's) timeout, after which afterAll kills
 * the command's whole process group (npm's own children with it).
 */
function run(command: string, args: string[], options: { env: Record<string, string>; cwd?: string }): Promise<Result> {
  return new Promise((done, fail) => {
    const child = track(
      spawn(command, args, {
        cwd: options.cwd ?? home,
        env: options.env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      }),
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

const cpk = (args: string[], env: Record<string, string> = {}) =>
  run(join(prefix, 'bin', 'cpk'), args, { env: { ...userEnv, ...env } });

function expectOk(r: Result, what: string): void {
  expect(r.code, `${what}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`).toBe(0);
}

/** Copies what a fresh clone would hold: tracked files and new files that are not ignored. */
async function copyClone(): Promise<void> {
  const r = await run('git', ['-C', ROOT, 'ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    env: { PATH },
  });
  expectOk(r, 'git ls-files (the packaging test packs what a clone of this repository holds)');
  for (const file of r.stdout.split('\0').filter(Boolean)) {
    const from = join(ROOT, file);
    if (!existsSync(from)) continue; // deleted in the work tree, not yet committed
    mkdirSync(dirname(join(tree, file)), { recursive: true });
    cpSync(from, join(tree, file));
  }
  // The build's tools (esbuild, tsc): what `npm ci` installs in a clone.
  symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'), 'dir');
}

/** A user's project with the installed package in its node_modules (as `npm link cpk` places it). */
function linkProject(): void {
  mkdirSync(join(project, 'node_modules'), { recursive: true });
  if (!existsSync(join(project, 'node_modules', PKG.name)))
    symlinkSync(installed, join(project, 'node_modules', PKG.name), 'dir');
  writeFileSync(join(project, 'package.json'), '{ "private": true, "type": "module" }\n');
}

/** docs/scripting.md's createClient example: the js block after its "tested: createClient" marker. */
function readmeExample(): string {
  const readme = readFileSync(join(ROOT, 'docs', 'scripting.md'), 'utf8');
  const match = /<!-- tested: createClient[^>]*-->\n```js\n([\s\S]*?)```/.exec(readme);
  if (!match) throw new Error('docs/scripting.md has no js block marked "tested: createClient"');
  return match[1]!;
}

let tarball: { filename: string; size: number; files: { path: string }[] };
let emulator: ChildProcess | undefined;

beforeAll(async () => {
  mkdirSync(home, { recursive: true });
  await copyClone();
  const packed = await run('npm', ['pack', '--json', '--pack-destination', work], {
    cwd: tree,
    env: npmEnv,
  });
  expectOk(packed, 'npm pack');
  tarball = (JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as (typeof tarball)[])[0]!;
  const install = await run(
    'npm',
    [
      'install',
      '--global',
      '--prefix',
      prefix,
      join(work, tarball.filename),
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
    ],
    { env: npmEnv },
  );
  expectOk(install, 'npm install -g --prefix TMP cpk-x.y.z.tgz');
}, 180_000);

afterAll(async () => {
  // The emulator, and npm if the install was cut short: gone before their files are.
  await killAllTracked();
  rmSync(work, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it(`holds only what runs, and stays within its size budget (${TARBALL_BUDGET_BYTES / 1024} KiB)`, () => {
    const paths = tarball.files.map((f) => f.path);
    expect(paths.filter((p) => !SHIPPED.test(p))).toEqual([]);
    expect(REQUIRED.filter((p) => !paths.includes(p))).toEqual([]);
    expect(tarball.filename).toBe(`${PKG.name}-${PKG.version}.tgz`);
    expect(
      tarball.size,
      `the tarball is ${tarball.size} bytes; the budget (docs/architecture.md, "Size budget") is ${TARBALL_BUDGET_BYTES}`,
    ).toBeLessThanOrEqual(TARBALL_BUDGET_BYTES);
  });

  it('installs only runtime dependencies, and each accepts every Node that engines.node admits', () => {
    expect(existsSync(join(installed, 'node_modules', 'vitest')), 'a dev dependency was installed').toBe(false);
    const tooNew: string[] = [];
    const walk = (dir: string) => {
      if (!existsSync(dir)) return;
      for (const name of readdirSync(dir)) {
        if (name.startsWith('.')) continue;
        if (name.startsWith('@')) {
          walk(join(dir, name));
          continue;
        }
        const manifest = join(dir, name, 'package.json');
        if (existsSync(manifest)) {
          const dep = JSON.parse(readFileSync(manifest, 'utf8')) as {
            name: string;
            version: string;
            engines?: { node?: string };
          };
          const wants = dep.engines?.node;
          if (wants && !semver.subset(PKG.engines.node, wants))
            tooNew.push(`${dep.name}@${dep.version} needs node ${wants}`);
        }
        walk(join(dir, name, 'node_modules'));
      }
    };
    walk(join(installed, 'node_modules'));
    expect(tooNew, `engines.node is "${PKG.engines.node}"`).toEqual([]);
  });
});

describe('the installed command, run from outside the work tree', () => {
  it('--version, --help and completion bash', async () => {
    const [version, help, completion] = await Promise.all([
      cpk(['--version']),
      cpk(['--help']),
      cpk(['completion', 'bash']),
    ]);
    expectOk(version, 'cpk --version');
    expect(version.stdout).toBe(`${PKG.version}\n`);
    expectOk(help, 'cpk --help');
    expect(help.stdout).toMatch(/^Usage: cpk /);
    expect(help.stdout).toContain('monitors');
    expect(help.stderr).toBe('');
    expectOk(completion, 'cpk completion bash');
    expect(completion.stdout).toBe(readFileSync(join(ROOT, 'completions', 'cpk.bash'), 'utf8'));
  });

  it('cpk emulator, a create, get and delete round trip, and createClient from a script', async () => {
    emulator = track(
      spawn(join(prefix, 'bin', 'cpk'), ['emulator', '--port', '0', '--json', '--quiet'], {
        cwd: home,
        env: userEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      }),
    );
    let emulatorErr = '';
    emulator.stderr!.setEncoding('utf8').on('data', (d: string) => (emulatorErr += d));
    const started = await new Promise<string>((done, fail) => {
      createInterface({ input: emulator!.stdout! }).once('line', done);
      emulator!.once('exit', (code) => fail(new Error(`cpk emulator exited ${code}: ${emulatorErr}`)));
    });
    const { base_url: baseUrl, token } = JSON.parse(started) as { base_url: string; token: string };
    const env = { CPK_BASE_URL: baseUrl, CPK_TOKEN: token };

    const created = await cpk(
      ['monitors', 'create', '--name', 'packaged', '--target', 'https://example.com/health', '-q'],
      env,
    );
    expectOk(created, 'monitors create');
    const id = created.stdout.trim();
    expect(id).toMatch(/^mon_/);

    const got = await cpk(['monitors', 'get', id, '--json'], env);
    expectOk(got, 'monitors get');
    expect(JSON.parse(got.stdout)).toMatchObject({ id, name: 'packaged', target: 'https://example.com/health' });

    // docs/scripting.md "From JavaScript", run as a user's script importing the installed package.
    linkProject();
    writeFileSync(join(project, 'uptime.mjs'), readmeExample());
    const script = await run(process.execPath, ['uptime.mjs'], { cwd: project, env: { ...userEnv, ...env } });
    expectOk(script, 'node uptime.mjs (the documented example)');
    expect(script.stdout).toMatch(/^mon_\w+: up\n$/);
    expect(script.stderr).toMatch(/^gone: monitor not found \(request id req_\w+\)\n$/);

    const deleted = await cpk(['monitors', 'delete', id, '--yes'], env);
    expectOk(deleted, 'monitors delete');
    const gone = await cpk(['monitors', 'get', id], env);
    expect(gone.code, gone.stderr).toBe(6);
  });

  it('ships declarations: a TypeScript user of createClient type-checks, and wrong calls do not', async () => {
    linkProject();
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules', '@types')],
        },
        files: ['check.ts'],
      }),
    );
    writeFileSync(
      join(project, 'check.ts'),
      `import { createClient, ApiError, ExitCode, type Client, type MonitorRef } from 'cpk';
const client: Client = createClient({ baseUrl: 'http://127.0.0.1:4010', token: 'cpk_x', retries: 1, timeoutSeconds: 5 });
const ref: MonitorRef = await client.createMonitor({ name: 'n', interval_seconds: 60 });
export const id: string = ref.id;
export const notFound: boolean = new ApiError('gone', { status: 404, method: 'GET', url: 'u' }).exitCode === ExitCode.NOT_FOUND;
// @ts-expect-error ids are strings
await client.getMonitor(42);
// @ts-expect-error no such option
createClient({ retry: 3 });
`,
    );
    const tsc = await run(
      process.execPath,
      [join(ROOT, 'node_modules', 'typescript-native', 'bin', 'tsc'), '-p', project],
      {
        cwd: project,
        env: userEnv,
      },
    );
    expectOk(tsc, 'tsc -p project');
  });
});
