// The package's own promises, checked on the built work tree (issue #8): the
// version agrees everywhere, and the built code loads nothing that a user's
// install lacks. test/release/package.test.ts checks the installed package.
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  const pattern = /(?:\brequire|__cpkImport|\bimport|\bload|\.resolve)\(\s*["']([@\w][\w@./:-]*)["']\s*\)|\bfrom\s*["']([@\w][\w@./:-]*)["']/g;
  for (const match of code.matchAll(pattern)) found.add((match[1] ?? match[2])!);
  return found;
}

function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

const isBuiltin = (specifier: string) => specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!);

describe('the built package', () => {
  it.each(['dist/cli.cjs', 'dist/index.js'])('%s loads only Node built-ins and runtime dependencies', (file) => {
    const packages = [...loadedSpecifiers(readFileSync(join(ROOT, file), 'utf8'))].filter((s) => !isBuiltin(s)).map(packageOf);
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
    const releases = [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+[^\]]*)\] - (\d{4}-\d{2}-\d{2})$/gm)].map((m) => m[1]!);
    expect(changelog).toMatch(/^## \[Unreleased\]$/m);
    expect(releases[0]).toBe(pkg.version);
    // Keep a Changelog: every release heading has its link reference.
    for (const release of releases) expect(changelog).toMatch(new RegExp(`^\\[${release.replace(/\./g, '\\.')}\\]: https://`, 'm'));
    // The shim answers `--version` alone from package.json; with another flag commander answers from the bundle.
    const [shim, bundle] = await Promise.all([runCli(['--version']), runCli(['--version', '--no-color'])]);
    expect(shim).toMatchObject({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    expect(bundle).toMatchObject({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });
});

describe('the V8 code cache', () => {
  // The published cache is made by the publisher's Node; on any other Node V8
  // rejects it (the Node 24 run of the suite meets this everywhere). Here a
  // damaged cache stands in for it.
  it('one V8 rejects only costs speed: --help is the same, and the bundle loaded without it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-cache-'));
    try {
      for (const path of ['bin', 'dist/cli.cjs', 'package.json']) cpSync(join(ROOT, path), join(dir, path), { recursive: true });
      writeFileSync(join(dir, 'dist/cli.cjs.cache'), Buffer.alloc(4096, 7));
      const run = promisify(execFile);
      const env = baseEnv();
      const [copy, original, loaded] = await Promise.all([
        run(process.execPath, [join(dir, 'bin/cpk.js'), '--help'], { env }),
        run(process.execPath, [join(ROOT, 'bin/cpk.js'), '--help'], { env }),
        run(process.execPath, ['-e', `const { script } = require(${JSON.stringify(join(dir, 'bin/load.cjs'))}).load(); console.log(script.cachedDataRejected)`], { env }),
      ]);
      expect(copy).toEqual(original);
      expect(loaded.stdout).toBe('true\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
