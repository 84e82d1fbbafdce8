#!/usr/bin/env node
// `npm run test:loaded`: the whole `npm test` with two CPU-bound processes
// beside it, as on a CI runner shared with other jobs. The suite must pass
// there too: its time limits exist only to catch hangs. Prints the wall time
// and passes on npm test's exit code.
import { spawn } from 'node:child_process';
import { cpus } from 'node:os';

const hogs = Number(process.env.CPK_LOAD_HOGS ?? 2);
const busy = 'for (;;) { Math.sqrt(Math.random()); }';
const loops = Array.from({ length: hogs }, () => spawn(process.execPath, ['-e', busy], { stdio: 'ignore' }));
const stop = () => loops.forEach((p) => p.kill('SIGKILL'));
process.on('SIGINT', () => (stop(), process.exit(130)));

const started = Date.now();
process.stderr.write(`test:loaded: ${hogs} busy loops beside npm test on ${cpus().length} cores\n`);
const test = spawn('npm', ['test'], { stdio: 'inherit' });
test.on('exit', (code, signal) => {
  stop();
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  process.stderr.write(`test:loaded: npm test exited ${code ?? signal} after ${seconds} s beside ${hogs} busy loops\n`);
  process.exit(code ?? 1);
});
