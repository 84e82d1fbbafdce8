// The entry point: builds the program, runs it, and is the only place that
// turns errors into exit codes (table in the docs/scripting.md, "Exit codes").
import { CommanderError, type Command } from 'commander';
import { ConfirmationRequiredError, ExitCode, InterruptedError, UsageError } from '../core/errors.js';
import { processIO, type IO, type Writer } from '../core/io.js';
import { buildProgram } from './program.js';
import { usageMessage } from './suggest.js';
import type { Runtime } from './action.js';
import { writeError } from '../output/errors.js';
import { agentDocument, agentIO, agentMode, HeldStdout, INTERRUPTED_DOCUMENT } from './agent.js';
import { toJson } from '../output/json.js';

/** Runs cpk with `argv` (without node and script) and returns the exit code. */
export async function main(
  argv: string[],
  io: IO = processIO(),
  options: { handleSignals?: boolean } = {},
): Promise<number> {
  // A standalone executable started again to make one keychain call (src/config/keychain.ts).
  if (process.env.CPK_KEYCHAIN_HELPER === '1') {
    await (await import('../config/keychain.js')).runKeychainHelper();
    return ExitCode.OK;
  }
  const controller = new AbortController();
  // Agent mode holds stdout until the outcome is known, then writes one document (src/cli/agent.ts).
  const held = agentMode(argv.includes('--agent'), io.env) ? new HeldStdout(io.stdout) : undefined;
  let agentError: string | undefined;
  const runtime: Runtime = {
    io: held ? agentIO(io, held) : io,
    signal: controller.signal,
    held,
    // A nested run owns no signal handlers: the outer run's Ctrl-C reaches it through the command's own signal.
    runCommandLine: (nestedArgv, nestedIo) => main(nestedArgv, nestedIo, { handleSignals: false }),
  };
  const handleSignals = options.handleSignals ?? true;
  // First Ctrl-C: abort whatever runs (it stops its spinner and unwinds).
  // If the command does not unwind promptly, or on a second Ctrl-C, exit 130.
  // Either way a live view (`monitors watch`) gets its cursor back first.
  const exitNow = () => {
    runtime.context?.out.endFrames();
    process.exit(ExitCode.INTERRUPTED);
  };
  const onSignal = () => {
    if (controller.signal.aborted) exitNow();
    controller.abort();
    setTimeout(exitNow, runtime.context?.interruptGraceMs ?? 2_000).unref();
  };
  if (handleSignals) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    // Past a file-size limit (ulimit -f) the kernel sends SIGXFSZ, which the lock library's exit hook
    // (signal-exit) turns into a kill unless another listener is there. With one, the write fails with
    // EFBIG instead: one line, exit 74. Only the process's own run sets it, not a host of main().
    process.on('SIGXFSZ', () => {});
  }
  // A read command whose output cannot be written stops at once: its reader
  // went away (EPIPE) or the disk is full (ENOSPC, EFBIG, EIO), and a watch
  // would otherwise poll forever writing nothing. A write command finishes,
  // so that what it changed is recorded. outputVerdict gives the exit code.
  let outputFailed = false;
  io.stdoutFailure?.onFailure(() => {
    if (runtime.writes) return;
    outputFailed = true;
    controller.abort();
  });
  const code = await run();
  if (held && !held.streaming) {
    if (code === ExitCode.INTERRUPTED) agentError ??= INTERRUPTED_DOCUMENT;
    io.stdout.write(agentDocument(held.text, agentError, code));
  } else if (agentError !== undefined) {
    // A command that streamed: its error stays out of the stream it wrote, as under --json.
    io.stderr.write(agentError);
  }
  // A failed write is reported on a later tick: let it arrive before judging.
  if (io.stdoutFailure) await new Promise((resolve) => setImmediate(resolve));
  return outputVerdict(code, io.stdoutFailure?.error, Boolean(runtime.writes), io.stderr);

  async function run(): Promise<number> {
    // Errors are JSON when the output is: --json, -o json/jsonl/yaml, or --query
    // without a format that is not (`-o table --query` is refused in words).
    let format: string | undefined;
    argv.forEach((a, i) => {
      const value = a === '-o' || a === '--output' ? argv[i + 1] : /^(?:-o|--output=)(.+)$/.exec(a)?.[1];
      if (value !== undefined) format = value;
    });
    const hasQuery = argv.some((a) => a === '--query' || a.startsWith('--query='));
    const wantsJson =
      held !== undefined ||
      argv.includes('--json') ||
      (format === undefined ? hasQuery : format === 'json' || format === 'jsonl' || format === 'yaml');
    const wantsDebug = argv.includes('--debug');
    let program: Command | undefined;
    // In agent mode the error object is kept for the one document; a confirmation asked for is a preview.
    const fail = (error: unknown, options: Parameters<typeof writeError>[2]): number => {
      if (!held) return writeError(io, error, options);
      if (error instanceof ConfirmationRequiredError) {
        agentError = `${toJson({ confirmation_required: error.preview, exit_code: error.exitCode }, 0)}\n`;
        return error.exitCode;
      }
      // The error's one line is kept; what follows it (a stack under --debug) goes to stderr.
      let line: string | undefined;
      const into = Object.create(io) as IO;
      Object.defineProperty(into, 'stderr', {
        value: { write: (text: string) => (line === undefined ? (line = text) : io.stderr.write(text)) },
      });
      const code = writeError(into, error, { ...options, json: true });
      agentError = line;
      return code;
    };
    try {
      program = buildProgram(runtime);
      if (argv.length === 0) {
        program.outputHelp();
        return ExitCode.OK;
      }
      await program.parseAsync(argv, { from: 'user' });
      return runtime.context?.exitCode ?? ExitCode.OK;
    } catch (error) {
      if (error instanceof CommanderError) {
        if (['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code)) return ExitCode.OK;
        const message = usageMessage(error.message, error.code, program, argv);
        return fail(new UsageError(message), { json: wantsJson, debug: false });
      }
      // Interrupted: the shell already shows ^C; print nothing half-written.
      if (outputFailed) return ExitCode.OK; // outputVerdict makes it 141 or 74
      if (error instanceof InterruptedError || controller.signal.aborted) return ExitCode.INTERRUPTED;
      const json = runtime.context?.globals.json ?? wantsJson;
      const debug = runtime.context?.globals.debug ?? wantsDebug;
      return fail(error, { json, debug, hint: runtime.context?.guidance(error) });
    } finally {
      if (handleSignals) {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
      await runtime.context?.close().catch(() => {});
    }
  }
}

/**
 * The exit code once stdout's fate is known (docs/scripting.md, "Exit codes"): a read cut short by a closed
 * pipe is 141, a write keeps its own result, any other failed output is one line and 74. bin/cpk.js uses it too.
 */
export function outputVerdict(
  code: number,
  failure: NodeJS.ErrnoException | undefined,
  writes: boolean,
  stderr: Writer,
): number {
  if (!failure || (code !== ExitCode.OK && code !== ExitCode.INTERRUPTED)) return code;
  if (failure.code === 'EPIPE') return writes ? code : ExitCode.BROKEN_PIPE;
  const why: Record<string, string> = {
    ENOSPC: ' (no space left on the device)',
    EFBIG: ' (file too large for its limit)',
    EIO: ' (input/output error)',
  };
  stderr.write(`cpk: cannot write the output: ${failure.code ?? failure.message}${why[failure.code ?? ''] ?? ''}\n`);
  return ExitCode.OUTPUT_FAILED;
}
