// Builds dist/ from src/ (docs/architecture.md, "Layers" and "Performance"):
// - dist/cli.cjs: one CommonJS bundle of cpk and the small modules it needs
//   synchronously (commander, env-paths, and get-east-asian-width, an ES module
//   that measuring text needs), all three devDependencies. Every package of
//   `dependencies` stays external, loaded with `await import()` where it is
//   used, so `--help` pays for none.
// - dist/mcp-sdk.cjs: the MCP SDK and what it imports (src/cli/mcp-sdk.ts), its
//   own file beside the CLI bundle, loaded by `cpk mcp` alone.
// - dist/paths.cjs: cpk's directories (src/core/paths.ts), which bin/cpk.js
//   needs to place that cache before it loads the CLI.
// - dist/keychain-child.cjs: src/config/keychain-child.cjs as it is, the
//   keychain call's child process, found beside the bundle.
// - dist/index.js: the programmatic entry (`import { createClient } from 'cpk'`,
//   src/index.ts), one ESM file with every package external; and its
//   declarations in dist/types/ (tsc, tsconfig.build.json), for `exports.types`.
//
// Imported (not run), it gives the options of the bundles: the test of
// package.json's dependencies builds them again to read what they load.
import { build } from 'esbuild';
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// The emulator's OpenAPI documents are YAML files in src/ (readable in a
// diff); the bundle holds them as data, parsed here once, so the emulator
// neither parses YAML at start nor needs the files beside it at run time.
const yamlAsData = {
  name: 'yaml-as-data',
  setup(b) {
    b.onLoad({ filter: /\.yaml$/ }, (args) => ({
      contents: JSON.stringify(parse(readFileSync(args.path, 'utf8'))),
      loader: 'json',
    }));
  },
};

// What every bundle of src/ shares (gen.mjs and dist.mjs build theirs from it too).
export const nodeBundle = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  plugins: [yamlAsData],
  absWorkingDir: root,
};

// The CLI bundle leaves src/cli/mcp-sdk.ts to its own file (mcpSdkOptions), loaded from beside it.
const mcpSdkChunk = {
  name: 'mcp-sdk-chunk',
  setup(b) {
    b.onResolve({ filter: /^\.\/mcp-sdk\.js$/ }, () => ({ path: './mcp-sdk.cjs', external: true }));
  },
};

export const cliOptions = {
  ...nodeBundle,
  plugins: [...nodeBundle.plugins, mcpSdkChunk],
  entryPoints: { cli: 'src/cli/main.ts', paths: 'src/core/paths.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  // `dependencies` are the packages the installed CLI loads from node_modules; every other package it uses
  // (commander, env-paths, get-east-asian-width, the MCP SDK) is a devDependency, bundled here or into
  // dist/mcp-sdk.cjs, so that `npm install -g cpk` fetches none of it.
  external: Object.keys(pkg.dependencies),
  // import.meta does not exist in CommonJS: give the one use (resolving a
  // package from cpk's own location) the bundle's file URL.
  define: { 'import.meta.url': '__cpkModuleUrl' },
  banner: { js: "const __cpkModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
};

// dist/mcp-sdk.cjs: the official MCP SDK and everything it imports (zod, ajv), in
// one file that only `cpk mcp` loads (src/cli/mcp-sdk.ts says why). Minified: it
// is others' code, read in their own repositories, and minified it adds ~80 KiB
// to the tarball where it would add ~120 KiB.
export const mcpSdkOptions = {
  ...nodeBundle,
  entryPoints: { 'mcp-sdk': 'src/cli/mcp-sdk.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  minify: true,
};

// Packages resolved from the installed package at run time. Not on the
// command line's start-up path.
export const libraryOptions = {
  ...nodeBundle,
  entryPoints: ['src/index.ts'],
  outfile: 'dist/index.js',
  format: 'esm',
  packages: 'external',
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
  await build(cliOptions);
  await build(mcpSdkOptions);
  copyFileSync(
    new URL('../src/config/keychain-child.cjs', import.meta.url),
    new URL('../dist/keychain-child.cjs', import.meta.url),
  );
  await build(libraryOptions);
  // Its declarations (TypeScript 7's native tsc, well under a second): what `exports.types` points at.
  const tsc = fileURLToPath(new URL('../node_modules/typescript-native/bin/tsc', import.meta.url));
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit', cwd: root });
}
