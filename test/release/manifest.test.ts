// The package's own promises, checked on the built work tree (issue #8): the
// version agrees everywhere, and the built code loads nothing that a user's
// install lacks. test/release/package.test.ts checks the installed package.
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import Module, { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';
import { baseEnv, runCli } from '../helpers/cli.js';

const ROOT = resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** Package specifiers the built files load: require, import, the bundle's import hook, createRequire(...)(...).resolve. */
export function loadedSpecifiers(code: string): Set<string> {
  const found = new Set<string>();
  const pattern =
    /(?:\brequire|__cpkImport|\bimport|\bload|\.resolve)\(\s*["']([@\w][\w@./:-]*)["']\s*\)|\bfrom\s*["']([@\w][\w@./:-]*)["']/g;
  for (const match of code.matchAll(pattern)) found.add((match[1] ?? match[2])!);
  return found;
}

function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

const isBuiltin = (specifier: string) =>
  specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!);

describe('the built package', () => {
  it.each(['dist/cli.cjs', 'dist/index.js'])('%s loads only Node built-ins and runtime dependencies', (file) => {
    const packages = [...loadedSpecifiers(readFileSync(join(ROOT, file), 'utf8'))]
      .filter((s) => !isBuiltin(s))
      .map(packageOf);
    // The scan itself works: both files load undici for the keep-alive pool.
    expect(packages).toContain('undici');
    const missing = [...new Set(packages)].filter((name) => !Object.hasOwn(pkg.dependencies, name));
    expect(missing, 'needed at run time but not in "dependencies"').toEqual([]);
  });

  it('the scan finds every form the build emits', () => {
    const sample = `require("a"); __cpkImport("@s/b"); import("c/d.js"); createRequire(u).resolve("e"); load("f"); import x from "g"; require("node:fs"); foo("h")`;
    expect([...loadedSpecifiers(sample)].sort()).toEqual(['@s/b', 'a', 'c/d.js', 'e', 'f', 'g', 'node:fs']);
  });

  it("package.json's version, the CHANGELOG's latest release and `cpk --version` agree", async () => {
    const changelog = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');
    const releases = [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+[^\]]*)\] - (\d{4}-\d{2}-\d{2})$/gm)].map(
      (m) => m[1]!,
    );
    expect(changelog).toMatch(/^## \[Unreleased\]$/m);
    expect(releases[0]).toBe(pkg.version);
    // Keep a Changelog: every release heading has its link reference.
    for (const release of releases)
      expect(changelog).toMatch(new RegExp(`^\\[${release.replace(/\./g, '\\.')}\\]: https://`, 'm'));
    // The shim answers `--version` alone from package.json; with another flag commander answers from the bundle.
    const [shim, bundle] = await Promise.all([runCli(['--version']), runCli(['--version', '--no-color'])]);
    expect(shim).toMatchObject({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    expect(bundle).toMatchObject({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });
});

describe('the compile cache (bin/load.cjs): made on this machine, never shipped, never trusted blindly', () => {
  const run = promisify(execFile);
  const nodeHasNative = typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

  /** bin/ and the bundle in a temp dir (the bundle edited by `edit`), run with a private cache dir. */
  function install(edit: (source: string) => string = (x) => x) {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-install-'));
    for (const path of ['bin', 'package.json']) cpSync(join(ROOT, path), join(dir, path), { recursive: true });
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist/cli.cjs'), edit(readFileSync(join(ROOT, 'dist/cli.cjs'), 'utf8')));
    return dir;
  }
  const help = (dir: string, env: Record<string, string>) =>
    run(process.execPath, [join(dir, 'bin/cpk.js'), '--help'], { env }).then((r) => r.stdout);
  /** What load() reports about the cache, in a child with this env. */
  const status = (dir: string, env: Record<string, string>) =>
    run(
      process.execPath,
      [
        '-e',
        `const l = require(${JSON.stringify(join(dir, 'bin/load.cjs'))}).load(); l.save().then(() => console.log(l.cache))`,
      ],
      { env },
    ).then((r) => r.stdout.trim());
  const cacheFiles = (cacheDir: string) => {
    try {
      return readdirSync(join(cacheDir, 'compile')).filter((n) => n.endsWith('.cache'));
    } catch {
      return [];
    }
  };

  it('ships none: the build makes no cache file and the package lists none', () => {
    expect(readdirSync(join(ROOT, 'dist')).filter((name) => name.endsWith('.cache'))).toEqual([]);
  });

  it('the first run writes a cache keyed by the bundle and this Node (Node 20; Node >= 22.1 has its own); the next uses it', async () => {
    const dir = install();
    const env = { ...baseEnv(), CPK_CACHE_DIR: mkdtempSync(join(tmpdir(), 'cpk-cc-')) };
    if (nodeHasNative) {
      expect(await status(dir, env)).toBe('native');
      expect(await status(dir, { ...env, CPK_NO_COMPILE_CACHE: '1' })).toBe('off');
      return;
    }
    expect(await status(dir, env)).toBe('miss');
    expect(cacheFiles(env.CPK_CACHE_DIR)).toHaveLength(1);
    expect(await status(dir, env)).toBe('hit');
    // CPK_NO_COMPILE_CACHE and NODE_DISABLE_COMPILE_CACHE turn it off.
    expect(await status(dir, { ...env, CPK_NO_COMPILE_CACHE: '1' })).toBe('off');
    expect(await status(dir, { ...env, NODE_DISABLE_COMPILE_CACHE: '1' })).toBe('off');
  });

  it('a corrupted cache, a cache of another bundle and an unwritable cache directory each leave cpk working', async () => {
    const original = await help(install(), { ...baseEnv(), CPK_NO_COMPILE_CACHE: '1' });
    expect(original).toMatch(/^Usage: cpk /);
    // Corrupted: every cache file overwritten with garbage after a first run.
    const dir = install();
    const env = { ...baseEnv(), CPK_CACHE_DIR: mkdtempSync(join(tmpdir(), 'cpk-cc-')) };
    expect(await help(dir, env)).toBe(original);
    for (const name of cacheFiles(env.CPK_CACHE_DIR)) {
      const path = join(env.CPK_CACHE_DIR, 'compile', name);
      const bytes = readFileSync(path);
      const header = bytes.indexOf(10) + 1;
      writeFileSync(path, Buffer.concat([bytes.subarray(0, header), Buffer.alloc(bytes.length - header, 7)]));
    }
    expect(await help(dir, env)).toBe(original);
    if (!nodeHasNative) expect(await status(dir, env)).toBe('hit'); // rewritten after the rejection
    // Another bundle of the same length (one letter changed): its own key, so it runs its own code.
    const edited = install((source) => source.replace('List, create, show', 'LIST, create, show'));
    const editedHelp = await help(edited, env);
    expect(editedHelp).toContain('LIST, create, show');
    expect(editedHelp.length).toBe(original.length);
    // A cache planted under another bundle's name is never handed to V8.
    if (!nodeHasNative) {
      const files = cacheFiles(env.CPK_CACHE_DIR);
      for (const a of files)
        for (const b of files)
          if (a !== b) cpSync(join(env.CPK_CACHE_DIR, 'compile', a), join(env.CPK_CACHE_DIR, 'compile', b));
      expect(await help(edited, env)).toBe(editedHelp);
      expect(await help(dir, env)).toBe(original);
    }
    // The same bundle file edited in place, same length, after its hash was
    // remembered: its stat signature changed, so it is hashed again.
    const inPlace = install();
    expect(await help(inPlace, env)).toBe(original);
    const bundle = join(inPlace, 'dist/cli.cjs');
    writeFileSync(bundle, readFileSync(bundle, 'utf8').replace('List, create, show', 'LIST, create, show'));
    expect(await help(inPlace, env)).toBe(editedHelp);
    // Unwritable: the cache directory is a file.
    const file = join(mkdtempSync(join(tmpdir(), 'cpk-cc-')), 'not-a-dir');
    writeFileSync(file, 'x');
    const blocked = { ...baseEnv(), CPK_CACHE_DIR: file };
    expect(await help(dir, blocked)).toBe(original);
    expect(readFileSync(file, 'utf8')).toBe('x');
  });
});
