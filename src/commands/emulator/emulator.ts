import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../core/errors.js';
import { action, examples, type RawOptions, type Runtime } from '../../cli/action.js';

export interface EmulatorCommandOptions {
  host: string;
  port: number;
  token?: string | undefined;
  latencyMs: number;
  failRate: number;
  adminSecret?: string | undefined;
  quiet: boolean;
  /** --persist FILE: keep the state in this file across restarts. */
  persist?: string | undefined;
  /** --seed N: reproducible ids and check outcomes. */
  seed?: number | undefined;
  /** --time-scale X: the checks' schedule X times faster. */
  timeScale: number;
}

function parseNumber(value: unknown, flag: string, check: (n: number) => boolean, expected: string): number {
  const n = Number(value);
  if (typeof value !== 'string' || value.trim() === '' || !Number.isFinite(n) || !check(n)) {
    throw new UsageError(`invalid ${flag} "${String(value)}": expected ${expected}`);
  }
  return n;
}

/** commander's raw values to EmulatorCommandOptions (usage errors on bad input). */
export function parseEmulatorOptions(raw: RawOptions): EmulatorCommandOptions {
  return {
    host: String(raw.host),
    port: parseNumber(raw.port, '--port', (n) => Number.isInteger(n) && n >= 0 && n <= 65535, 'a port from 0 to 65535'),
    token: raw.token as string | undefined,
    latencyMs: parseNumber(raw.latency, '--latency', (n) => n >= 0, 'milliseconds >= 0'),
    failRate: parseNumber(raw.failRate, '--fail-rate', (n) => n >= 0 && n <= 1, 'a fraction from 0 to 1'),
    adminSecret: raw.adminSecret as string | undefined,
    quiet: raw.quiet === true,
    persist: typeof raw.persist === 'string' ? resolve(raw.persist) : undefined,
    seed:
      raw.seed === undefined
        ? undefined
        : parseNumber(raw.seed, '--seed', (n) => Number.isSafeInteger(n) && n >= 0, 'a whole number >= 0'),
    timeScale: parseNumber(
      raw.timeScale,
      '--time-scale',
      (n) => n > 0 && n <= 1_000_000,
      'a factor above 0 (e.g. 60: a minute of checks a second)',
    ),
  };
}

export function register(program: Command, runtime: Runtime): void {
  const cmd = program
    .command('emulator')
    .description('Run a local emulator of the service (in memory), for trying cpk and testing scripts')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks a free one)', '4010')
    .option('--token <token>', 'the development token to accept (must start with cpk_)')
    .option('--latency <ms>', 'delay every API response by this many milliseconds', '0')
    .option('--fail-rate <p>', 'answer this fraction (0..1) of API requests with a 503', '0')
    .option('--admin-secret <secret>', 'secret for the fault-injection routes (default: random, printed)')
    .option('--persist <file>', 'keep the state in FILE across restarts (loaded at start, written on each change)')
    .option('--seed <n>', 'make monitor ids and check outcomes reproducible')
    .option('--time-scale <x>', 'run the checks X times faster than the clock (60: a minute of checks a second)', '1')
    .option('-q, --quiet', 'do not log requests to stderr')
    .action(action(runtime, (ctx, _args, opts) => run(parseEmulatorOptions(opts), ctx)));
  examples(
    cmd,
    'cpk emulator',
    'cpk emulator --port 0 --json     # prints {"base_url": ..., "token": ...} on one line',
    'cpk emulator --latency 500 --fail-rate 0.1',
    'cpk emulator --persist emulator-state.json   # keeps monitors across restarts',
    'cpk emulator --seed 7 --time-scale 60        # the same ids and outcomes each run, checks 60x faster',
  );
}

export async function run(opts: EmulatorCommandOptions, ctx: Context): Promise<void> {
  if (opts.token !== undefined && !opts.token.startsWith('cpk_')) throw new UsageError('--token must start with cpk_');
  const { startEmulator } = await import('../../emulator/server.js');
  let emulator;
  try {
    emulator = await startEmulator({
      host: opts.host,
      port: opts.port,
      token: opts.token,
      adminSecret: opts.adminSecret,
      latencyMs: opts.latencyMs,
      failRate: opts.failRate,
      log: opts.quiet ? undefined : (line) => ctx.out.info(line),
      persistFile: opts.persist,
      seed: opts.seed,
      timeScale: opts.timeScale,
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (opts.persist !== undefined && code === undefined)
      throw new UsageError(`--persist: ${(error as Error).message}`);
    if (opts.persist !== undefined && (code === 'EACCES' || code === 'EISDIR' || code === 'ENOTDIR'))
      throw new UsageError(`--persist: cannot read ${opts.persist} (${code})`);
    if (code === 'EADDRINUSE')
      throw new UsageError(`port ${opts.port} is in use: pick another with --port (0 picks a free one)`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UsageError(`cannot listen on ${opts.host}`);
    throw error;
  }
  if (ctx.out.json) {
    ctx.out.printJson(
      { base_url: emulator.baseUrl, token: emulator.token, admin_secret: emulator.adminSecret },
      { compact: true },
    );
  } else {
    ctx.out.printLine(`cpk emulator listening on ${emulator.baseUrl}`);
    ctx.out.printLine(`  token:        ${emulator.token}`);
    ctx.out.printLine(`  admin secret: ${emulator.adminSecret}`);
    ctx.out.printLine('');
    ctx.out.printLine(`  export CPK_BASE_URL=${emulator.baseUrl} CPK_TOKEN=${emulator.token}`);
    ctx.out.printLine(
      opts.persist === undefined
        ? 'Press Ctrl-C to stop. Data lives in memory and is gone when it stops.'
        : `Press Ctrl-C to stop. Data is kept in ${opts.persist}.`,
    );
  }
  await new Promise<void>((resolve) => {
    if (!ctx.signal || ctx.signal.aborted) return resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await emulator.close();
}
