#!/usr/bin/env node
// Runs the whole vitest suite on another Node.js, without touching the
// system's (README, "Supported Node versions"), installed by ./install-node.mjs.
//
//   node scripts/test-node.mjs 26            latest 26.x   (npm run test:node26; 22: test:node22)
//   node scripts/test-node.mjs min           the minimum of engines.node (npm run test:node-min)
//   node scripts/test-node.mjs 20.18.1 test/cli/errors.test.ts    extra arguments go to vitest
//
// dist/ is used as built. Tests spawn `process.execPath`, so the CLI runs on the chosen Node too; its
// directory also comes first on PATH, for anything started by name (npm in the packaging test).
import { spawn } from 'node:child_process';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installNode } from './install-node.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const [requested, ...vitestArgs] = process.argv.slice(2);
if (!requested) {
  process.stderr.write('usage: node scripts/test-node.mjs <major|x.y.z|min> [vitest arguments...]\n');
  process.exit(2);
}

let installed;
try {
  installed = installNode(requested);
} catch (error) {
  process.stderr.write(`test-node: ${error.message}\n`);
  process.exit(2);
}
const { node, version } = installed;

process.stderr.write(`test-node: running the suite on Node ${version}\n`);
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const child = spawn(node, [vitest, 'run', ...vitestArgs], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
// No code: a signal ended it.
child.on('exit', (code) => (process.exitCode = code ?? 1));
