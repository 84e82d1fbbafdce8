#!/usr/bin/env node
// `npm test`: the build, then the whole vitest suite, with the static checks
// (scripts/checks.mjs) beside both from the start, so that the checks hold up
// no test and the build's one busy core leaves the other to them. The
// checks run at the lowest CPU priority (nice 19): the suite's end-to-end
// cases wait on processes and sockets, and the checks take the CPU those
// waits leave rather than slow the tests (at nice 10 they still took a
// sixth of the CPU throughout, and the run took about 20 s more than vitest
// alone); any still running when the suite ends are stopped and run again
// at the usual priority. The suite's output streams as it comes; the checks' is printed when they end.
// Fails when either fails.
import { spawn, spawnSync } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const checks = fileURLToPath(new URL('./checks.mjs', import.meta.url));
const build = fileURLToPath(new URL('./build.mjs', import.meta.url));

/** Runs `args` with this Node: the child, and its exit code with its output kept (or streamed) once it ends. */
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
  const ended = new Promise((resolve) =>
    child.on('close', (code, signal) => resolve({ code: code ?? 128, signal, output })),
  );
  return { child, ended };
}

// The man pages' tests lint and render each page with mandoc and groff (Debian's mandoc and groff-base).
// A bare machine, as CI's is, has neither: as root on Debian they are installed here, once.
const missing = ['mandoc', 'groff'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
if (missing.length > 0 && process.getuid?.() === 0 && spawnSync('sh', ['-c', 'command -v apt-get']).status === 0) {
  process.stderr.write(`npm test: installing ${missing.join(' and ')} for the man pages' tests\n`);
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'groff-base', 'mandoc'], {
    stdio: 'inherit',
  });
}

const checking = run([checks], { nice: 19 });
let checksDone = false;
void checking.ended.then(() => (checksDone = true));
// The suite runs the built CLI: no test starts before the build is done.
const built = await run([build], { stream: true }).ended;
const tested = built.code === 0 ? await run([vitest, 'run'], { stream: true }).ended : built;
// Checks still running once the suite is done would crawl at nice 19 on a machine busy with other work (a
// shared CI runner): they are stopped and run again at the usual priority.
let checked;
if (checksDone) checked = await checking.ended;
else {
  checking.child.kill('SIGTERM');
  await checking.ended;
  checked = await run([checks]).ended;
}
process.stdout.write(`\nstatic checks:\n${checked.output}`);
process.exitCode = checked.code !== 0 || tested.code !== 0 ? 1 : 0;
