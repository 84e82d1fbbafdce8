// The IO a command receives. Commands never touch `process` or `console`:
// tests pass fakes, and "is this a terminal" is a field, not a global.
import { fstatSync } from 'node:fs';
import { UsageError } from './errors.js';
import type { Env } from './paths.js';

export interface Writer {
  write(chunk: string): unknown;
}

export interface IO {
  stdout: Writer;
  stderr: Writer;
  stdin: NodeJS.ReadableStream;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** The width of the terminal on stdout, when it is one and says it (knownColumns). */
  stdoutColumns?: number | undefined;
  /** The terminal's size now (it changes on a resize), when stdout is one: live views. */
  stdoutSize?: () => { columns: number | undefined; rows: number | undefined } | undefined;
  /** Calls `listener` when the terminal on stdout is resized (SIGWINCH); returns how to stop. */
  onResize?: (listener: () => void) => () => void;
  env: Env;
  /** Whether stdout is a pipe (`cpk ... | head`): a watch then proves its reader is still there (Output.heartbeat). */
  stdoutIsPipe?: boolean;
  /** Where a failed write to stdout (EPIPE, ENOSPC, EFBIG) is recorded: see processIO. */
  stdoutFailure?: StdoutFailure;
}

export class StdoutFailure {
  error: NodeJS.ErrnoException | undefined;
  private listener: ((error: NodeJS.ErrnoException) => void) | undefined;
  fail(error: NodeJS.ErrnoException): void {
    if (this.error) return;
    this.error = error;
    this.listener?.(error);
  }
  onFailure(listener: (error: NodeJS.ErrnoException) => void): void {
    this.listener = listener;
  }
}

/**
 * A terminal's width (or height), or undefined when it does not say (serial
 * consoles, `script` under CI and `ssh -tt` report 0): 0, NaN or Infinity must
 * never reach a loop that counts lines or cells by it.
 */
export function knownColumns(columns: unknown): number | undefined {
  return typeof columns === 'number' && Number.isSafeInteger(columns) && columns > 0 ? columns : undefined;
}

export function processIO(): IO {
  // A closed pipe (`cpk ... | head -1`) or a full disk is worth no stack trace:
  // the failure is recorded, later writes are dropped, and src/cli/main.ts
  // turns it into the exit code (docs/scripting.md, "Exit codes").
  const stdoutFailure = new StdoutFailure();
  // The streams are made on first use (process.stdout is a getter): a quiet
  // success never pays for one.
  let stdoutReady = false;
  const stdoutStream = (): NodeJS.WriteStream => {
    if (!stdoutReady) {
      stdoutReady = true;
      process.stdout.on('error', (error: NodeJS.ErrnoException) => stdoutFailure.fail(error));
    }
    return process.stdout;
  };
  const stdout: Writer = {
    write(chunk: string) {
      if (stdoutFailure.error) return false;
      try {
        return stdoutStream().write(chunk);
      } catch (error) {
        stdoutFailure.fail(error as NodeJS.ErrnoException);
        return false;
      }
    },
  };
  const stdoutIsTTY = (): boolean => stdoutStream().isTTY === true;
  let stderrReady = false;
  return {
    stdout,
    // The real stream: the spinner and prompts need one.
    get stderr() {
      if (!stderrReady) {
        stderrReady = true;
        // stderr has no one left to tell: its failures are dropped.
        process.stderr.on('error', () => {});
      }
      return process.stderr;
    },
    get stdin() {
      return process.stdin;
    },
    get stdinIsTTY() {
      return process.stdin.isTTY === true;
    },
    get stdoutIsTTY() {
      return stdoutIsTTY();
    },
    get stderrIsTTY() {
      return process.stderr.isTTY === true;
    },
    get stdoutIsPipe() {
      try {
        return fstatSync(1).isFIFO();
      } catch {
        return false;
      }
    },
    get stdoutColumns() {
      return stdoutIsTTY() ? knownColumns(stdoutStream().columns) : undefined;
    },
    stdoutSize: () =>
      stdoutIsTTY()
        ? { columns: knownColumns(stdoutStream().columns), rows: knownColumns(stdoutStream().rows) }
        : undefined,
    onResize: (listener) => {
      // Only a terminal resizes: a pipe or a file never makes the stream for this.
      if (!stdoutIsTTY()) return () => {};
      const stream = stdoutStream();
      stream.on('resize', listener);
      return () => stream.off('resize', listener);
    },
    env: process.env,
    stdoutFailure,
  };
}

/** The most cpk reads from stdin (or a file) as one input: the same cap as a response body (src/core/http/client.ts). */
export const MAX_INPUT_BYTES = 32 * 1024 * 1024;

/** A whole stream as UTF-8 text, at most `limit` bytes: an endless one is a usage error, not gigabytes of memory. */
export async function readAll(stream: NodeJS.ReadableStream, limit = MAX_INPUT_BYTES, what = 'stdin'): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > limit) {
      (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      throw new UsageError(`${what} holds more than ${formatBytes(limit)}: too large to read`);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${n / (1024 * 1024)} MiB` : `${n / 1024} KiB`;
}
