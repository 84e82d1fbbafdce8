#!/usr/bin/env node
// Runs the whole vitest suite on another Node.js, without touching the
// system's (README, "Supported Node versions"): the npm registry's `node`
// package carries a Node binary, installed once into
// node_modules/.cache/cpk-node/<version>/ (npm ci starts it afresh).
//
//   node scripts/test-node.mjs 24            latest 24.x   (npm run test:node24)
//   node scripts/test-node.mjs min           the minimum of engines.node (npm run test:node-min)
//   node scripts/test-node.mjs 20.18.1 test/e2e/errors.test.ts    extra arguments go to vitest
//
// dist/ is used as built (npm run build, with the system's Node): its V8 code
// cache then comes from another Node and is rejected, which must only cost
// speed (bin/load.cjs). Tests spawn `process.execPath`, so the CLI runs on
// the chosen Node too; that Node's directory also comes first on PATH, for
// anything started by name (npm in the packaging test).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const [requested, ...vitestArgs] = process.argv.slice(2);
if (!requested) {
  process.stderr.write('usage: node scripts/test-node.mjs <major|x.y.z|min> [vitest arguments...]\n');
  process.exit(2);
}

let spec = requested;
if (spec === 'min') {
  const range = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node;
  const match = /^>=\s*(\d+\.\d+\.\d+)$/.exec(range);
  if (!match) throw new Error(`engines.node "${range}" is not of the form ">=x.y.z"`);
  spec = match[1];
}
if (!/^\d+(\.\d+\.\d+)?$/.test(spec)) {
  process.stderr.write(`test-node: "${requested}" is not a major version, x.y.z or "min"\n`);
  process.exit(2);
}

const dir = join(root, 'node_modules', '.cache', 'cpk-node', spec);
const node = join(dir, 'node_modules', 'node', 'bin', 'node');
const fits = (version) => (spec.includes('.') ? version === `v${spec}` : version.startsWith(`v${spec}.`));
const installed = () => {
  try {
    return execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
};

let version = installed();
if (!version || !fits(version)) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // The package's preinstall script puts the platform's binary (another
  // registry package) in place: allowed by name, for npm versions that gate
  // install scripts (allowScripts, npm >= 11.16).
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ private: true, allowScripts: { node: true } }, null, 2)}\n`,
  );
  process.stderr.write(`test-node: installing node@${spec} into ${dir}\n`);
  execFileSync('npm', ['install', `node@${spec}`, '--prefix', dir, '--no-audit', '--no-fund', '--loglevel=error'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    cwd: dir,
  });
  version = installed();
  if (!version || !existsSync(node)) throw new Error(`node@${spec} did not install a working binary at ${node}`);
  if (!fits(version)) throw new Error(`node@${spec} installed ${version}`);
}

process.stderr.write(`test-node: running the suite on Node ${version}\n`);
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const child = spawn(node, [vitest, 'run', ...vitestArgs], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal ? 1 : 0);
});
