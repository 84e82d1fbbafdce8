#!/usr/bin/env node
// `npm test`'s static checks, side by side: typecheck, lint, format check, actionlint and the OpenAPI linters
// are mostly single-threaded, so on two cores running them together saves about a
// third of their time (CONTRIBUTING.md: npm test stays under two minutes).
// Each one's output is printed whole when it ends. `npm run typecheck|lint|format:check|lint:actions|lint:openapi`
// run one alone, afresh.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));
// The type check keeps what it learnt in node_modules/.cache, by content: a second run checks only what changed.
const cache = (name) => fileURLToPath(new URL(`../node_modules/.cache/${name}`, import.meta.url));
// The type check is TypeScript 7, the native compiler (a fifth of 5.9's CPU).
const tsc = fileURLToPath(new URL('../node_modules/typescript-native/bin/tsc', import.meta.url));
const checks = [
  ['typecheck', process.execPath, [tsc, '--noEmit', '--incremental', '--tsBuildInfoFile', cache('tsc/tsbuildinfo')]],
  // oxlint and oxfmt, native: each takes the whole tree in under a second of CPU, so neither needs a cache.
  ['lint', bin('oxlint'), []],
  ['format', bin('oxfmt'), ['--check']],
  ['actionlint', process.execPath, [fileURLToPath(new URL('./actionlint.mjs', import.meta.url))]],
  ['openapi lint', process.execPath, [fileURLToPath(new URL('./lint-openapi.mjs', import.meta.url))]],
];

// Stopped (scripts/test.mjs runs the checks again at a higher priority) or interrupted, every check stops
// with this script; one that started processes of its own stops them (scripts/lint-openapi.mjs). The checks
// stay in this session: on Linux a new session is a scheduling group of its own (autogroup), where the nice
// value would no longer yield to the tests.
const running = new Set();
for (const [signal, code] of [
  ['SIGTERM', 143],
  ['SIGINT', 130],
]) {
  process.on(signal, () => {
    for (const child of running) child.kill('SIGTERM');
    process.exit(code);
  });
}

/** Runs one check to its end: its exit code (1 when it could not start) and its output, both streams. */
function run(command, args) {
  const child = spawn(command, args, {
    cwd: root,
    shell: process.platform === 'win32',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  return new Promise((resolve) => {
    child.on('error', (error) => (output += String(error)));
    child.on('close', (code) => {
      running.delete(child);
      resolve({ code: code === 0 ? 0 : 1, output });
    });
  });
}

const results = await Promise.all(
  checks.map(async ([name, command, args]) => {
    const started = Date.now();
    const { code, output } = await run(command, args);
    return { name, code, output, ms: Date.now() - started };
  }),
);
for (const { name, code, output, ms } of results) {
  process.stdout.write(`${code === 0 ? 'ok' : 'FAILED'} ${name} (${(ms / 1000).toFixed(1)} s)\n`);
  if (output.trim()) process.stdout.write(`${output.trimEnd()}\n`);
}
process.exitCode = results.some((r) => r.code !== 0) ? 1 : 0;
