// The package's own promises, checked on the built work tree: the version
// agrees everywhere, the built code loads exactly the declared dependencies,
// and the compile cache lives where cpk keeps its caches.
// test/release/package.test.ts checks the installed package.
import { describe, expect, it } from 'vitest';
import { build, type BuildOptions } from 'esbuild';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import Module, { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runCli } from '../helpers/cli.js';

const ROOT = resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** Package specifiers a built file loads at run time: require, import, createRequire(...)(...) and its .resolve. */
export function loadedSpecifiers(code: string): Set<string> {
  const found = new Set<string>();
  const pattern =
    /(?:\brequire|\bimport|\bload|\.resolve)\(\s*["']([@\w][\w@./:-]*)["']\s*\)|\bfrom\s*["']([@\w][\w@./:-]*)["']/g;
  for (const match of code.matchAll(pattern)) found.add((match[1] ?? match[2])!);
  return found;
}

function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

const isBuiltin = (specifier: string) =>
  specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!);

/**
 * What the built code uses, each bundle built again in memory with scripts/build.mjs's own options: the
 * packages it loads at run time from node_modules, and those cpk's own sources import that the build copied
 * into it (read from esbuild's metafile).
 */
async function packagesUsed(): Promise<{ loaded: Set<string>; bundled: Set<string> }> {
  const options = (await import(pathToFileURL(join(ROOT, 'scripts/build.mjs')).href)) as Record<string, BuildOptions>;
  const loaded = new Set<string>();
  const bundled = new Set<string>();
  for (const name of ['cliOptions', 'mcpSdkOptions', 'libraryOptions']) {
    const { metafile, outputFiles } = await build({ ...options[name], write: false, metafile: true });
    for (const [input, { imports }] of Object.entries(metafile.inputs)) {
      if (!input.startsWith('src/')) continue;
      for (const { path } of imports) {
        const from = /^node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
        if (from) bundled.add(from[1]!);
      }
    }
    // The SDK's file is others' code, whose strings read as loads (ajv-formats writes `require("ajv-formats/...")`
    // into the code of standalone validators): what it loads is what esbuild left outside it.
    const specifiers =
      name === 'mcpSdkOptions'
        ? Object.values(metafile.outputs).flatMap((out) => out.imports.filter((i) => i.external).map((i) => i.path))
        : outputFiles.flatMap((file) => [...loadedSpecifiers(file.text)]);
    for (const specifier of specifiers) if (!isBuiltin(specifier)) loaded.add(packageOf(specifier));
  }
  return { loaded, bundled };
}

describe('the built package', () => {
  it('installing it runs no script of its own: a lifecycle script there would need scripts/, which it does not ship', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    // What npm runs on `npm install` of the package (prepare: of a checkout or a git dependency too).
    const onInstall = ['preinstall', 'install', 'postinstall', 'prepare'].filter((name) => name in scripts);
    expect(onInstall).toEqual([]);
    // The build still comes before every pack and publish.
    expect(scripts.prepack).toBe('node scripts/build.mjs');
  });

  it('declares exactly the packages its built code loads as "dependencies", and what it bundles as devDependencies', async () => {
    const { loaded, bundled } = await packagesUsed();
    // The scan itself works: a bundled package and a loaded one.
    expect(bundled).toContain('commander');
    expect(loaded).toContain('conf');
    const declared = Object.keys(pkg.dependencies);
    expect(
      [...loaded].filter((name) => !declared.includes(name)),
      'loaded at run time but not in "dependencies"',
    ).toEqual([]);
    expect(
      declared.filter((name) => !loaded.has(name)),
      'in "dependencies" but never loaded at run time',
    ).toEqual([]);
    // A package only bundled would be installed with cpk and never loaded; the build needs it, so it is a
    // devDependency (the MCP SDK alone would bring some 90 packages, express among them, to every install).
    expect(
      [...bundled].filter((name) => !loaded.has(name) && !(name in pkg.devDependencies)),
      'bundled but not in "devDependencies"',
    ).toEqual([]);
  });

  it('the scan finds every form the build emits', () => {
    const sample = `require("a"); import("c/d.js"); createRequire(u).resolve("e"); load("f"); import x from "g"; require("node:fs"); foo("h")`;
    expect([...loadedSpecifiers(sample)].sort()).toEqual(['a', 'c/d.js', 'e', 'f', 'g', 'node:fs']);
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

describe('the compile cache', () => {
  const nodeHasCache = typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function';
  const filesIn = (dir: string) => (existsSync(dir) ? readdirSync(dir, { recursive: true }) : []);

  it("is Node's own (Node >= 22.1, none before), in cpk's cache directory; CPK_NO_COMPILE_CACHE and NODE_DISABLE_COMPILE_CACHE turn it off", async () => {
    const cache = mkdtempSync(join(tmpdir(), 'cpk-cc-'));
    const help = await runCli(['--help'], { env: { CPK_CACHE_DIR: cache } });
    expect(help).toMatchObject({ code: 0, stderr: '' });
    if (!nodeHasCache) {
      expect(filesIn(cache)).toEqual([]);
      return;
    }
    expect(filesIn(join(cache, 'compile')).length).toBeGreaterThan(0);
    for (const off of ['CPK_NO_COMPILE_CACHE', 'NODE_DISABLE_COMPILE_CACHE']) {
      const none = mkdtempSync(join(tmpdir(), 'cpk-cc-'));
      const r = await runCli(['--help'], { env: { CPK_CACHE_DIR: none, [off]: '1' } });
      expect(r).toMatchObject({ code: 0, stdout: help.stdout, stderr: '' });
      expect(filesIn(none), off).toEqual([]);
    }
    // Without CPK_CACHE_DIR: the platform's cache directory (XDG_CACHE_HOME on Linux).
    if (process.platform === 'linux') {
      const xdg = mkdtempSync(join(tmpdir(), 'cpk-xdg-'));
      expect((await runCli(['--help'], { env: { XDG_CACHE_HOME: xdg } })).code).toBe(0);
      expect(filesIn(join(xdg, 'cpk', 'compile')).length).toBeGreaterThan(0);
    }
  });

  it('an unusable cache directory leaves cpk working', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cpk-cc-')), 'not-a-dir');
    writeFileSync(file, 'x');
    const r = await runCli(['--help'], { env: { CPK_CACHE_DIR: file } });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/^Usage: cpk /);
    expect(readFileSync(file, 'utf8')).toBe('x');
  });
});
