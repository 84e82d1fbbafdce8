// The package's own promises, checked on the built work tree (issue #8): the
// version agrees everywhere, and the built code loads nothing that a user's
// install lacks. test/release/package.test.ts checks the installed package.
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { builtinModules } from 'node:module';
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

describe('the V8 code cache', () => {
  const key = `${process.platform}-${process.arch}-${process.version}`;
  const run = promisify(execFile);

  /** bin/ and the bundle in a temp dir, with the given cache files; returns what --help printed and whether V8 got a cache and rejected it. */
  async function withCaches(caches: Record<string, Buffer>) {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-cache-'));
    try {
      for (const path of ['bin', 'dist/cli.cjs', 'package.json'])
        cpSync(join(ROOT, path), join(dir, path), { recursive: true });
      for (const [name, data] of Object.entries(caches)) writeFileSync(join(dir, 'dist', name), data);
      const env = baseEnv();
      const [help, loaded] = await Promise.all([
        run(process.execPath, [join(dir, 'bin/cpk.js'), '--help'], { env }),
        run(
          process.execPath,
          [
            '-e',
            `const { script } = require(${JSON.stringify(join(dir, 'bin/load.cjs'))}).load(); console.log(String(script.cachedDataRejected))`,
          ],
          { env },
        ),
      ]);
      return { help, rejected: loaded.stdout.trim() };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('is named for the Node build that made it (npm run build; the suite may run on another Node)', () => {
    const caches = readdirSync(join(ROOT, 'dist')).filter((name) => name.endsWith('.cache'));
    expect(caches).toHaveLength(1);
    expect(caches[0]).toMatch(
      new RegExp(`^cli\\.cjs\\.${process.platform}-${process.arch}-v\\d+\\.\\d+\\.\\d+\\.cache$`),
    );
  });

  it('one V8 rejects (damaged) only costs speed: --help is the same', async () => {
    const [damaged, original] = await Promise.all([
      withCaches({ [`cli.cjs.${key}.cache`]: Buffer.alloc(4096, 7) }),
      run(process.execPath, [join(ROOT, 'bin/cpk.js'), '--help'], { env: baseEnv() }),
    ]);
    expect(damaged.rejected).toBe('true');
    expect(damaged.help).toEqual(original);
  });

  // V8 accepts a cache from another build of the same V8 version and then
  // crashes (Node 20.18.1 on 20.20.2's cache): another Node's is never read.
  it("another Node's cache, or one without the key, is never handed to V8", async () => {
    const other = await withCaches({
      'cli.cjs.cache': Buffer.alloc(4096, 7),
      [`cli.cjs.${process.platform}-${process.arch}-v0.0.1.cache`]: Buffer.alloc(4096, 7),
    });
    expect(other.rejected).toBe('undefined');
    expect(other.help.stdout).toMatch(/^Usage: cpk /);
  });
});
