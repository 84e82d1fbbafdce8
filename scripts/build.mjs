// Builds dist/ from src/ (README, "Design" and "Performance"):
// - dist/cli.cjs: one CommonJS bundle of cpk and the two small modules every
//   command needs (commander, env-paths). Everything else stays an external
//   package, loaded with `await import()` where it is used (undici, conf, ora,
//   chalk, cli-table3, the keychain, YAML, JSON Schema), so `--help` pays for
//   none of them. CommonJS because Node 20's ESM loader alone costs several ms.
// - No compile cache is built or shipped: bin/load.cjs makes one on the
//   user's machine, with the Node that reads it (it says why).
// - dist/index.js: the programmatic entry (`import { createClient } from 'cpk'`,
//   src/index.ts), one ESM file with every package external; and its
//   declarations in dist/types/ (tsc, tsconfig.build.json), for `exports.types`.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// proper-lockfile (the locks of the state file and the config file) is
// bundled too, without graceful-fs: src/manifest/lock.ts hands it its own fs,
// and the config file's lock (src/config/store.ts) makes only mkdir, stat,
// utimes and rmdir calls, which graceful-fs passes through as they are (it
// retries opens, reads and writes on EMFILE). graceful-fs would load Node's
// stream modules and patch fs for nothing, and an import() of a package costs
// a trip through the ESM loader.
// It stays out of the start-up path all the same: a bundled package runs when
// it is first required, i.e. when a lock is taken.
const BUNDLED = new Set(['commander', 'env-paths', 'proper-lockfile']);
const external = Object.keys(pkg.dependencies).filter((name) => !BUNDLED.has(name));

// commander requires node:child_process at load time, for executable
// subcommands cpk does not use; loading it (and net, stream, ...) costs every
// command ~1.5 ms. Require it when a subcommand is spawned instead.
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onLoad({ filter: /commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const eager = "const childProcess = require('node:child_process');";
      if (!source.includes(eager)) throw new Error(`commander changed: "${eager}" not found in ${args.path}`);
      return {
        contents: source.replace(
          eager,
          "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };",
        ),
        loader: 'js',
      };
    });
  },
};

// proper-lockfile's `require('graceful-fs')`: node:fs itself (see BUNDLED).
const noGracefulFs = {
  name: 'no-graceful-fs',
  setup(b) {
    b.onResolve({ filter: /^graceful-fs$/ }, (args) => {
      if (!/[\\/]node_modules[\\/]proper-lockfile[\\/]/.test(args.importer))
        throw new Error(`graceful-fs required by ${args.importer}: only proper-lockfile's is replaced`);
      return { path: 'graceful-fs', namespace: 'node-fs' };
    });
    b.onLoad({ filter: /.*/, namespace: 'node-fs' }, () => ({
      contents: "module.exports = require('node:fs');",
      loader: 'js',
    }));
  },
};

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/cli.cjs',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external,
  plugins: [lazyChildProcess, noGracefulFs],
  // import.meta does not exist in CommonJS: give the one use (resolving a
  // package from cpk's own location) the bundle's file URL.
  define: { 'import.meta.url': '__cpkModuleUrl' },
  banner: {
    js: [
      "const __cpkModuleUrl = require('node:url').pathToFileURL(__filename).href;",
      // V8 drops a vm.Script's import() callback for functions that come from
      // a code cache (Node 20), so the bundle imports packages through a
      // function bin/load.cjs provides, defined outside the vm; with a plain
      // require (Node >= 22.1, or the cache turned off) it is import() itself.
      "const __cpkImport = globalThis[Symbol.for('cpk.import')] || ((specifier) => import(specifier));",
    ].join('\n'),
  },
  logLevel: 'warning',
  absWorkingDir: root,
  write: false,
}).then(({ outputFiles }) => {
  for (const file of outputFiles) {
    // Only `import("package")` with a literal specifier: esbuild has already
    // inlined cpk's own lazy modules, and any other text stays as it is.
    const code = file.text.replace(/\bimport\((?=["'])/g, '__cpkImport(');
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, code);
  }
});

// The programmatic entry: ESM (package.json's "type"), packages resolved from
// the installed package at run time. Not on the command line's start-up path.
await build({
  entryPoints: ['src/index.ts'],
  outfile: 'dist/index.js',
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
  absWorkingDir: root,
});
// Its declarations (tsc, ~1 s): what `exports.types` points at.
const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit', cwd: root });
