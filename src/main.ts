// The entry point: builds the program, runs it, and is the only place that
// turns errors into exit codes (table in the README, "Exit codes").
import { CommanderError } from 'commander';
import { ExitCode, InterruptedError, UsageError } from './errors.js';
import { processIO, type IO } from './io.js';
import { buildProgram } from './program.js';
import type { Runtime } from './commands/action.js';
import { writeError } from './output/errors.js';

/** Runs cpk with `argv` (without node and script) and returns the exit code. */
export async function main(
  argv: string[],
  io: IO = processIO(),
  options: { handleSignals?: boolean } = {},
): Promise<number> {
  const controller = new AbortController();
  const runtime: Runtime = { io, signal: controller.signal };
  const handleSignals = options.handleSignals ?? true;
  // First Ctrl-C: abort whatever runs (it stops its spinner and unwinds).
  // If the command does not unwind promptly, or on a second Ctrl-C, exit 130.
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(ExitCode.INTERRUPTED);
    controller.abort();
    setTimeout(() => process.exit(ExitCode.INTERRUPTED), runtime.context?.interruptGraceMs ?? 2_000).unref();
  };
  if (handleSignals) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  const wantsJson =
    argv.includes('--json') ||
    argv.some((a, i) => {
      if (a === '--query' || a.startsWith('--query=')) return true;
      const format = a === '-o' || a === '--output' ? argv[i + 1] : /^(?:-o|--output=)(.+)$/.exec(a)?.[1];
      return format === 'json' || format === 'jsonl' || format === 'yaml';
    });
  const wantsDebug = argv.includes('--debug');
  try {
    const program = buildProgram(runtime);
    if (argv.length === 0) {
      program.outputHelp();
      return ExitCode.OK;
    }
    await program.parseAsync(argv, { from: 'user' });
    return runtime.context?.exitCode ?? ExitCode.OK;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.version' ||
        error.code === 'commander.help'
      ) {
        return ExitCode.OK;
      }
      const message = error.message.replace(/^error: /, '');
      return writeError(io, new UsageError(`${message} (see --help)`), { json: wantsJson, debug: false });
    }
    // Interrupted: the shell already shows ^C; print nothing half-written.
    if (error instanceof InterruptedError || controller.signal.aborted) return ExitCode.INTERRUPTED;
    const json = runtime.context?.globals.json ?? wantsJson;
    const debug = runtime.context?.globals.debug ?? wantsDebug;
    return writeError(io, error, { json, debug });
  } finally {
    if (handleSignals) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    await runtime.context?.close().catch(() => {});
  }
}
