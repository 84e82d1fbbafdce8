// Runs cpk in this process, as the GitHub CLI's tests run a command: main()
// with a fake IO instead of a child process (a CLI process costs a tenth of a
// second of CPU, plan and apply nearly four). Everything a command reads comes
// from the IO: the environment is runCli's (a private HOME, config and data
// directory for each call), stdin is the given text, nothing is a terminal and
// stdout is a pipe, as for a child whose output a test reads. Cases that need a
// real process (signals, a pty, a closed pipe or a full disk, several
// processes at once, the bin/cpk.js shim) use runCli.
import { Readable } from 'node:stream';
import { baseEnv, type CliOptions, type CliResult } from './cli.js';

export type InProcessOptions = Omit<CliOptions, 'onSpawn'> & {
  /** Told of each write to stdout as it happens (a test that needs output before the command ends). */
  onStdout?: (text: string) => void;
};

/** Loaded on the first run: the fixtures import this file, and a file that only spawns never loads src/cli. */
const load = () =>
  Promise.all([import('../../src/cli/main.js'), import('../../src/core/redact.js'), import('./fake-io.js')]);

/**
 * The secrets cpk masks are kept for the life of a process (the token it
 * resolved): they are forgotten once no in-process run is left, so that each
 * run starts as a fresh process would.
 */
let running = 0;

/** `cpk ...args` in-process: the same options and result as runCli (never a signal). */
export async function runCpk(args: string[], options: InProcessOptions = {}): Promise<CliResult> {
  if ('onSpawn' in options) throw new Error('onSpawn needs a child process: use runCli');
  const [{ main }, { forgetSecrets }, { fakeIO }] = await load();
  const io = fakeIO({ env: baseEnv(options.env) });
  io.stdin = Readable.from(options.input === undefined ? [] : [Buffer.from(options.input)]);
  io.stdoutIsPipe = true;
  const { onStdout } = options;
  if (onStdout) {
    const write = io.stdout.write.bind(io.stdout);
    io.stdout = { write: (text: string) => (onStdout(text), write(text)) };
  }
  if (running++ === 0) forgetSecrets();
  let timer: NodeJS.Timeout | undefined;
  const limit = options.timeoutMs ?? 60_000;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`cpk ${args.join(' ')} did not finish in ${limit} ms`)), limit);
  });
  try {
    const code = await Promise.race([main(args, io, { handleSignals: false }), hang]);
    return { code, signal: null, stdout: io.out, stderr: io.err };
  } finally {
    clearTimeout(timer);
    if (--running === 0) forgetSecrets();
  }
}
