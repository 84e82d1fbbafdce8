#!/usr/bin/env node
// The emulator's two documents (src/emulator/openapi.yaml, admin-openapi.yaml) through two linters nobody here
// wrote, Spectral (its spectral:oas rules, .spectral.yaml) and Redocly (its recommended rules, redocly.yaml): a
// client generator or a validating proxy reads these documents, and an error either reports is one a user's
// tool trips on. Part of `npm test` (scripts/checks.mjs); `npm run lint:openapi` runs it afresh.
//
// Both take a few CPU-seconds, so a pass is remembered in node_modules/.cache by the content of the documents
// and of the rule files: a run with none of them changed checks nothing.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const at = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const documents = ['src/emulator/openapi.yaml', 'src/emulator/admin-openapi.yaml'];
const inputs = [...documents, '.spectral.yaml', 'redocly.yaml', 'package-lock.json'];
const fresh = process.argv.includes('--fresh');

const digest = createHash('sha256');
for (const path of inputs) digest.update(path).update(readFileSync(at(path)));
const marker = at(`node_modules/.cache/lint-openapi/${digest.digest('hex')}`);
if (!fresh && existsSync(marker)) process.exit(0);

// Redocly would otherwise send usage data and look for a newer version over the network.
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
const options = { cwd: root, env, maxBuffer: 16 * 1024 * 1024, shell: process.platform === 'win32' };
const linters = [
  [
    'spectral',
    at('node_modules/.bin/spectral'),
    ['lint', '--fail-severity', 'error', '--display-only-failures', ...documents],
  ],
  ['redocly', at('node_modules/.bin/redocly'), ['lint', '--format', 'codeframe', ...documents]],
];
// Stopped by scripts/checks.mjs: the linters stop too.
const started = [];
process.on('SIGTERM', () => {
  for (const child of started) child.kill('SIGTERM');
  process.exit(143);
});
const results = await Promise.all(
  linters.map(([name, command, args]) => {
    const linting = run(command, args, options);
    started.push(linting.child);
    return linting.then(
      () => ({ name, ok: true }),
      (error) => ({ name, ok: false, output: `${error.stdout ?? ''}${error.stderr ?? ''}` || String(error) }),
    );
  }),
);
for (const { name, ok, output } of results)
  if (!ok) process.stderr.write(`${name} found errors in the emulator's documents:\n${output.trimEnd()}\n`);
if (results.every((r) => r.ok)) {
  mkdirSync(at('node_modules/.cache/lint-openapi'), { recursive: true });
  writeFileSync(marker, '');
} else process.exitCode = 1;
