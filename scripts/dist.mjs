#!/usr/bin/env node
// `npm run dist`: standalone executables of cpk (docs/install.md, "Building them"): the whole CLI bundled
// into one CommonJS file and injected into a Node binary (Node's single executable applications).
//
//   npm run dist                          linux-x64, linux-arm64, win-x64 and SHA256SUMS
//   npm run dist -- linux-x64             the named targets only
//   npm run dist -- --host                this machine's platform, with the Node running this script
//   npm run dist -- --out DIR linux-x64   into DIR instead of release/ (the executable's test)
//
// The injecting Node and every target's binary are one pinned version (NODE_VERSION): a blob only runs
// in the Node version that wrote it. The registry has no macOS arm64 binary past Node 18, hence `--host`.
// Exit 3: a Node binary could not be fetched from the registry (the test that runs the executable is
// skipped then, and only then); 2: a usage error or a failed build.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { noBuildSea } from './dist-host.mjs';
import { cliOptions, nodeBundle } from './build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const NODE_VERSION = '26.10.0';
const TARGETS = ['linux-x64', 'linux-arm64', 'win-x64'];
const work = join(root, 'node_modules', '.cache', 'cpk-sea');

function fail(message) {
  process.stderr.write(`dist: ${message}\n`);
  process.exit(2);
}

/** One file of a registry package, fetched once into the work directory; exit 3 when the registry cannot give it. */
function packageFile(name, version, inner) {
  const dir = join(work, `${name.replace('@napi-rs/', '')}-${version}`);
  const file = join(dir, inner);
  if (existsSync(file)) return file;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  process.stderr.write(`dist: fetching ${name}@${version}\n`);
  try {
    execFileSync('npm', ['pack', `${name}@${version}`, '--pack-destination', dir, '--silent'], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  } catch {
    process.stderr.write(`dist: could not fetch ${name}@${version} from the npm registry\n`);
    process.exit(3);
  }
  // The directory was empty: the tarball is its one file.
  const tarball = readdirSync(dir)[0];
  execFileSync('tar', ['-xzf', join(dir, tarball), '-C', dir, inner], { stdio: 'inherit' });
  rmSync(join(dir, tarball));
  return file;
}

const targetNode = (target) =>
  packageFile(`node-${target}`, NODE_VERSION, `package/bin/node${target.startsWith('win-') ? '.exe' : ''}`);

// The keychain binding's package for each target (one of @napi-rs/keyring's optional dependencies).
const KEYRING = {
  'linux-x64': 'linux-x64-gnu',
  'linux-arm64': 'linux-arm64-gnu',
  'win-x64': 'win32-x64-msvc',
  'darwin-arm64': 'darwin-arm64',
  'darwin-x64': 'darwin-x64',
};

/** Undefined for a target with no build: that executable falls back to the 0600 file, as when no keychain answers. */
function keychainBinding(target) {
  const suffix = KEYRING[target];
  if (!suffix) return undefined;
  const { version } = JSON.parse(readFileSync(join(root, 'node_modules/@napi-rs/keyring/package.json'), 'utf8'));
  return packageFile(`@napi-rs/keyring-${suffix}`, version, `package/keyring.${suffix}.node`);
}

/**
 * The npm build loads some packages (yaml) through createRequire; an executable has no installed packages,
 * so here those calls become require() calls that esbuild follows into the bundle. The keychain binding,
 * a native addon, is each executable's asset instead (keychainBinding).
 */
async function bundle(outfile) {
  const lazyRequire = /createRequire\(import\.meta\.url\)\(/g;
  await build({
    ...nodeBundle,
    stdin: {
      contents:
        "require('./src/cli/main.ts').main(process.argv.slice(2)).then((code) => { process.exitCode = code; });",
      resolveDir: root,
      sourcefile: 'sea-main.cjs',
      loader: 'js',
    },
    outfile,
    format: 'cjs',
    target: `node${NODE_VERSION.split('.')[0]}`,
    external: ['@napi-rs/keyring'],
    define: cliOptions.define,
    banner: cliOptions.banner,
    plugins: [
      ...nodeBundle.plugins,
      {
        name: 'bundle-lazy-requires',
        setup(b) {
          b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, (args) => {
            const text = readFileSync(args.path, 'utf8');
            return { contents: text.replace(lazyRequire, 'require('), loader: 'ts' };
          });
        },
      },
    ],
  });
}

const args = process.argv.slice(2);
const host = args.includes('--host');
const outAt = args.indexOf('--out');
const releaseDir = outAt >= 0 ? args[outAt + 1] : join(root, 'release');
if (!releaseDir) fail('--out needs a directory');
const named = args.filter((a, i) => a !== '--host' && (outAt < 0 || (i !== outAt && i !== outAt + 1)));
for (const a of named)
  if (!TARGETS.includes(a)) fail(`unknown target "${a}" (known: ${TARGETS.join(', ')}, or --host)`);
if (host && named.length) fail('--host builds for this machine only: name no targets with it');

let builder;
let jobs;
if (host) {
  if (process.versions.node !== NODE_VERSION)
    process.stderr.write(`dist: building with this machine's Node ${process.version} (releases use ${NODE_VERSION})\n`);
  if (!execFileSync(process.execPath, ['--help'], { encoding: 'utf8' }).includes('--build-sea'))
    fail(
      noBuildSea({ version: process.version, pinned: NODE_VERSION, platform: process.platform, arch: process.arch }),
    );
  builder = process.execPath;
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  jobs = [{ target: `${platform}-${process.arch}`, executable: process.execPath }];
} else {
  // The builder is this machine's own target, the registry's binary of the pinned version (one `npm pack`, no
  // install): it builds every target's executable, and is this machine's target's as it is.
  const here = `${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
  builder = targetNode(here);
  jobs = (named.length ? named : TARGETS).map((target) => ({
    target,
    executable: target === here ? builder : targetNode(target),
  }));
}

// A private scratch directory: a test may build while `npm run dist` does.
mkdirSync(work, { recursive: true });
const scratch = mkdtempSync(join(work, 'build-'));
mkdirSync(releaseDir, { recursive: true });
const rel = relative(root, releaseDir);
const showDir = rel === '' ? '.' : rel.startsWith('..') ? releaseDir : rel;
const main = join(scratch, 'cpk-sea.cjs');
await bundle(main);

for (const { target, executable } of jobs) {
  const name = `cpk-${target}${target.startsWith('win-') ? '.exe' : ''}`;
  const temporary = join(scratch, name);
  const config = join(scratch, `${target}.json`);
  const binding = keychainBinding(target);
  writeFileSync(
    config,
    JSON.stringify({
      // Relative to the scratch directory (the builder's cwd): the blob keeps the
      // path as given, and a temporary directory's name would make every build differ.
      main: 'cpk-sea.cjs',
      output: name,
      executable,
      disableExperimentalSEAWarning: true,
      // The code cache is V8's for the machine that builds: it would not fit another target.
      useCodeCache: false,
      ...(binding ? { assets: { 'keyring.node': binding } } : {}),
    }),
  );
  execFileSync(builder, ['--build-sea', config], { stdio: ['ignore', 'ignore', 'inherit'], cwd: scratch });
  // macOS refuses a binary whose signature no longer matches: sign it anew (ad hoc).
  if (host && process.platform === 'darwin') execFileSync('codesign', ['--sign', '-', '--force', temporary]);
  renameSync(temporary, join(releaseDir, name));
  const { size } = statSync(join(releaseDir, name));
  process.stderr.write(`dist: ${showDir}/${name} (${(size / 1024 / 1024).toFixed(1)} MiB)\n`);
}

const sha256 = (file) =>
  createHash('sha256')
    .update(readFileSync(join(releaseDir, file)))
    .digest('hex');
const executables = readdirSync(releaseDir).filter((f) => f.startsWith('cpk-'));
const sums = executables.sort().map((f) => `${sha256(f)}  ${f}\n`);
writeFileSync(join(releaseDir, 'SHA256SUMS'), sums.join(''));
process.stderr.write(`dist: ${showDir}/SHA256SUMS\n`);
rmSync(scratch, { recursive: true, force: true });
