#!/usr/bin/env node
// `npm test` after the build: the static checks (scripts/checks.mjs) and the
// whole vitest suite side by side, so that the checks hold up no test. The
// checks run at a lower CPU priority: the suite's end-to-end cases wait on
// processes and sockets, and the checks take the CPU those waits leave. The
// suite's output streams as it comes; the checks' is printed when they end.
// Fails when either fails.
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const checks = fileURLToPath(new URL('./checks.mjs', import.meta.url));

/** Runs `args` with this Node; resolves to its exit code, its output kept (or streamed). */
function run(args, { stream = false, nice = 0 } = {}) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', stream ? 'inherit' : 'pipe', stream ? 'inherit' : 'pipe'],
  });
  if (nice) {
    try {
      setPriority(child.pid, nice);
    } catch {
      // Not permitted here: the checks then share the CPU evenly, which is only slower.
    }
  }
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code: code ?? 128, signal, output })));
}

const [checked, tested] = await Promise.all([run([checks], { nice: 10 }), run([vitest, 'run'], { stream: true })]);
process.stdout.write(`\nstatic checks:\n${checked.output}`);
process.exitCode = checked.code !== 0 || tested.code !== 0 ? 1 : 0;
