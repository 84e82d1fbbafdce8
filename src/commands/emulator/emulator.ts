import { once } from 'node:events';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../core/errors.js';
import { parseJson, stringifyJson } from '../../core/json.js';
import { readFileText, whyUnreadable } from '../../core/io.js';
import type { DeclaredToken } from '../../emulator/auth.js';
import { SCOPES, type Scope } from '../../emulator/model.js';
import { action, collect, describe, type RawOptions, type Runtime } from '../../cli/action.js';
import { register as registerRequests } from './requests.js';

/** "ci:cpk_ci:monitors:read,reports:read" -> a declared token; a plain "cpk_..." is the development token. */
export function parseDeclaredToken(value: string): DeclaredToken {
  // TOKEN holds no colon, so whatever follows the second one is the scopes (which hold colons).
  const [account = '', token = '', ...scopeParts] = value.split(':');
  const scopeText = scopeParts.join(':');
  const usage = (why: string) => new UsageError(`invalid --token ${account || '(no name)'}:…: ${why}`);
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(account)) throw usage('NAME is letters, digits, _ and - (the account)');
  if (!/^cpk_[\x21-\x39\x3b-\x7e]+$/.test(token))
    throw usage('TOKEN must be cpk_ followed by visible characters, no colon');
  const scopes = scopeText === '' ? [...SCOPES] : scopeText.split(',').map((x) => x.trim());
  const unknown = scopes.find((x) => !(SCOPES as readonly string[]).includes(x));
  if (unknown !== undefined) throw usage(`unknown scope "${unknown}" (scopes: ${SCOPES.join(', ')})`);
  return { account, token, scopes: scopes as Scope[] };
}

function parseNumber(value: unknown, flag: string, check: (n: number) => boolean, expected: string): number {
  const n = Number(value);
  if (typeof value !== 'string' || value.trim() === '' || !Number.isFinite(n) || !check(n)) {
    throw new UsageError(`invalid ${flag} "${String(value)}": expected ${expected}`);
  }
  return n;
}

/** The development token: the one --token without a colon (at most one). */
function plainTokens(raw: unknown): string | undefined {
  const plain = ((raw as string[] | undefined) ?? []).filter((t) => !t.includes(':'));
  if (plain.length > 1)
    throw new UsageError('--token: one development token only (declare others as NAME:TOKEN[:SCOPES])');
  return plain[0];
}

/** A file flag's path, made absolute; undefined when the flag is not given. */
function filePath(value: unknown, flag: string): string | undefined {
  if (typeof value !== 'string') return undefined;
  // resolve('') is the working directory, which no one meant.
  if (value.trim() === '') throw new UsageError(`invalid ${flag} "${value}": expected a file`);
  return resolve(value);
}

/** An empty host would listen on every interface, the opposite of what an empty value suggests. */
function parseHost(value: unknown): string {
  const host = String(value);
  if (host.trim() === '')
    throw new UsageError(`invalid --host "${host}": expected an address to listen on (e.g. 127.0.0.1)`);
  return host;
}

/** The secret travels in the X-Emulator-Admin header: one that cannot (empty, spaces, control characters) would lock the admin routes. */
function parseAdminSecret(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  // The value is a credential: the message never shows it.
  if (typeof value !== 'string' || !/^[\x21-\x7e]+$/.test(value))
    throw new UsageError('invalid --admin-secret: expected 1 or more visible ASCII characters, no spaces');
  return value;
}

/** commander's raw values to the options (usage errors on bad input); the fields startEmulator takes keep its names. */
export function parseEmulatorOptions(raw: RawOptions) {
  return {
    host: parseHost(raw.host),
    port: parseNumber(raw.port, '--port', (n) => Number.isInteger(n) && n >= 0 && n <= 65535, 'a port from 0 to 65535'),
    token: plainTokens(raw.token),
    tokens: ((raw.token as string[] | undefined) ?? []).filter((t) => t.includes(':')).map(parseDeclaredToken),
    importFile: filePath(raw.import, '--import'),
    exportOnExit: filePath(raw.exportOnExit, '--export-on-exit'),
    latencyMs: parseNumber(raw.latency, '--latency', (n) => n >= 0, 'milliseconds >= 0'),
    failRate: parseNumber(raw.failRate, '--fail-rate', (n) => n >= 0 && n <= 1, 'a fraction from 0 to 1'),
    adminSecret: parseAdminSecret(raw.adminSecret),
    quiet: raw.quiet === true,
    persistFile: filePath(raw.persist, '--persist'),
    seed:
      raw.seed === undefined
        ? undefined
        : parseNumber(raw.seed, '--seed', (n) => Number.isSafeInteger(n) && n >= 0, 'a whole number >= 0'),
    timeScale: parseNumber(
      raw.timeScale ?? '1',
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
    .option(
      '--token <token>',
      'the development token to accept (cpk_...); repeatable NAME:TOKEN[:SCOPES] declares a token of account NAME (scopes comma-separated, default all)',
      collect,
    )
    .option('--latency <ms>', 'delay every API response by this many milliseconds', '0')
    .option('--fail-rate <p>', 'answer this fraction (0..1) of API requests with a 503', '0')
    .option('--admin-secret <secret>', 'secret for the fault-injection routes (default: random, printed)')
    .option('--import <file>', 'start from the state in FILE (as --export-on-exit or GET /__emulator/state wrote it)')
    .option('--export-on-exit <file>', 'write the state to FILE on Ctrl-C or SIGTERM')
    .option('--persist <file>', 'keep the state in FILE across restarts (loaded at start, written on each change)')
    .option('--seed <n>', 'make monitor ids and check outcomes reproducible')
    .option('--time-scale <x>', 'run the checks X times faster than the clock (60: a minute of checks a second)', '1')
    .option('-q, --quiet', 'do not log requests to stderr')
    .action(action(runtime, (ctx, _args, opts) => run(parseEmulatorOptions(opts), ctx)));
  describe(cmd, {
    effect: 'read',
    // It serves until stopped; with --json (and in agent mode) its one line of JSON says where.
    streams: true,
    examples: [
      'cpk emulator',
      'cpk emulator --port 0 --json    # one line: {"base_url": ..., "token": ...}',
      'cpk emulator --latency 500 --fail-rate 0.1',
      'cpk emulator --persist state.json   # keeps monitors across restarts',
      'cpk emulator --seed 7 --time-scale 60   # the same run each time, 60x faster',
      'cpk emulator --import seed.json --export-on-exit seed.json',
      'cpk emulator --token ci:cpk_ci_token:monitors:read,reports:read',
      'cpk emulator requests --admin-secret s3cret   # what your script sent',
    ],
  });

  registerRequests(cmd, runtime);
}

export async function run(opts: ReturnType<typeof parseEmulatorOptions>, ctx: Context): Promise<void> {
  if (opts.token !== undefined && !opts.token.startsWith('cpk_')) throw new UsageError('--token must start with cpk_');
  if (opts.importFile !== undefined && opts.persistFile !== undefined)
    throw new UsageError('--import and --persist both give the starting state: use one (--persist FILE keeps it too)');
  const { quiet, importFile, exportOnExit, ...options } = opts;
  const { exposureWarning, startEmulator } = await import('../../emulator/server.js');
  const state = importFile === undefined ? undefined : await readState(importFile);
  let emulator;
  try {
    emulator = await startEmulator({ ...options, log: quiet ? undefined : (line) => ctx.out.info(line), state });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (opts.persistFile !== undefined && code === undefined)
      throw new UsageError(`--persist: ${(error as Error).message}`);
    if (opts.persistFile !== undefined && (code === 'EACCES' || code === 'EISDIR' || code === 'ENOTDIR'))
      throw new UsageError(`--persist: cannot read ${opts.persistFile} (${code})`);
    if (importFile !== undefined && code === undefined)
      throw new UsageError(`--import: ${importFile}: ${(error as Error).message}`);
    if (code === undefined && opts.tokens.length > 0) throw new UsageError(`--token: ${(error as Error).message}`);
    if (code === 'EADDRINUSE')
      throw new UsageError(`port ${opts.port} is in use: pick another with --port (0 picks a free one)`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UsageError(`cannot listen on ${opts.host}`);
    throw error;
  }
  const exposed = exposureWarning(emulator.address);
  if (exposed !== undefined) ctx.out.warn(exposed);
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
      opts.persistFile === undefined
        ? 'Press Ctrl-C to stop. Data lives in memory and is gone when it stops.'
        : `Press Ctrl-C to stop. Data is kept in ${opts.persistFile}.`,
    );
  }
  if (ctx.signal && !ctx.signal.aborted) await once(ctx.signal, 'abort');
  // Written before close, from the state as it stands: what every answered request left.
  if (exportOnExit !== undefined) {
    const { writeFileAtomic } = await import('../../core/atomic-file.js');
    try {
      await writeFileAtomic(exportOnExit, `${stringifyJson(emulator.exportState(), 2)}\n`);
      ctx.out.info(`state written to ${exportOnExit}`);
    } catch (error) {
      await emulator.close();
      throw new UsageError(
        `--export-on-exit: cannot write ${exportOnExit} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
  }
  await emulator.close();
}

/** The state file given to --import, parsed; a one-line usage error when it cannot be read or is not JSON. */
async function readState(file: string): Promise<unknown> {
  let text: string;
  try {
    text = readFileText(file);
  } catch (error) {
    throw new UsageError(`--import: cannot read ${file}${whyUnreadable(error)}`);
  }
  const parsed = parseJson(text);
  if (!parsed.ok) throw new UsageError(`--import: ${file} is not an emulator state file (not JSON)`);
  return parsed.value;
}
