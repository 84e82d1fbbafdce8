// The IO a command receives. Commands never touch `process` or `console`:
// tests pass fakes, and "is this a terminal" is a field, not a global.
import { fstatSync, writeSync } from 'node:fs';
import { UsageError } from './errors.js';

export interface Writer {
  write(chunk: string): unknown;
}

export interface IO {
  stdout: Writer;
  /**
   * For a short text written before any command runs (help and usage), when
   * the platform allows: written at once, without making the stdout stream.
   * Absent in tests' fakes and on Windows: use `stdout`.
   */
  stdoutNow?: Writer | undefined;
  stderr: Writer;
  stdin: NodeJS.ReadableStream;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** The width of the terminal on stdout, when it is one. */
  stdoutColumns?: number | undefined;
  /** The terminal's size now (it changes on a resize), when stdout is one: live views. */
  stdoutSize?: () => { columns: number; rows: number } | undefined;
  /** Calls `listener` when the terminal on stdout is resized (SIGWINCH); returns how to stop. */
  onResize?: (listener: () => void) => () => void;
  env: Readonly<Record<string, string | undefined>>;
  /**
   * Where a failed write to stdout is reported (a closed pipe: EPIPE; a full
   * disk: ENOSPC; a file-size limit: EFBIG). After it, writes to stdout are
   * dropped. src/main.ts decides what it means for the exit code.
   */
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

export function processIO(): IO {
  // A reader that stops early (`cpk ... | head -1`) closes the pipe, and a
  // full disk fails a write: neither is worth a stack trace. The failure is
  // recorded, later writes are dropped, and src/main.ts turns it into the
  // exit code (README, "Exit codes": 141 for a read cut short by a closed
  // pipe, the command's own result for a write, 74 for a failed write).
  const stdoutFailure = new StdoutFailure();
  // The streams are made on first use: creating one loads Node's stream
  // modules, and for a pipe its net.Socket (~3 ms), which `cpk --help` or a
  // quiet success never needs.
  let stdoutReady = false;
  const stdoutStream = (): NodeJS.WriteStream => {
    if (!stdoutReady) {
      stdoutReady = true;
      process.stdout.on('error', (error: NodeJS.ErrnoException) => stdoutFailure.fail(error));
    }
    return process.stdout;
  };
  const writeStream = (chunk: string | Uint8Array) => {
    if (stdoutFailure.error) return false;
    try {
      return stdoutStream().write(chunk);
    } catch (error) {
      stdoutFailure.fail(error as NodeJS.ErrnoException);
      return false;
    }
  };
  const stdout: Writer = { write: writeStream };
  // Whether stdout is certainly no terminal (a pipe, a file or a socket), known
  // from one fstat, without making the stream; a character device (a terminal,
  // or /dev/null) asks the stream.
  let notTerminal: boolean | undefined;
  const certainlyNotTerminal = (): boolean => {
    if (notTerminal === undefined) {
      try {
        const st = fstatSync(1);
        notTerminal = st.isFIFO() || st.isFile() || st.isSocket();
      } catch {
        notTerminal = false;
      }
    }
    return notTerminal;
  };
  const stdoutIsTTY = (): boolean => !certainlyNotTerminal() && stdoutStream().isTTY === true;
  let stderrReady = false;
  return {
    stdout,
    stdoutNow: process.platform === 'win32' ? undefined : directWriter(1, writeStream, stdoutFailure),
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
    get stdoutColumns() {
      return stdoutIsTTY() ? stdoutStream().columns : undefined;
    },
    stdoutSize: () => (stdoutIsTTY() ? { columns: stdoutStream().columns, rows: stdoutStream().rows } : undefined),
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

/**
 * A writer of a short text to file descriptor `fd` (1: stdout) with write(2)
 * itself, without making process.stdout (help, usage). A pipe the other end set non-blocking
 * and that is full (EAGAIN) gets the rest, and every later text, through the
 * stream; a failed write (EPIPE, ENOSPC) is recorded in `failure`, as the
 * stream's would be.
 */
export function directWriter(
  fd: number,
  stream: (chunk: string | Uint8Array) => unknown,
  failure: StdoutFailure,
): Writer {
  let fallback = false;
  return {
    write(chunk: string) {
      if (failure.error) return false;
      if (fallback) return stream(chunk);
      const bytes = Buffer.from(chunk, 'utf8');
      let done = 0;
      try {
        while (done < bytes.length) done += writeSync(fd, bytes, done);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') {
          failure.fail(error as NodeJS.ErrnoException);
          return false;
        }
        fallback = true;
        return stream(bytes.subarray(done));
      }
    },
  };
}

/** The most cpk reads from stdin (or a file) as one input: the same cap as a response body (src/http/client.ts). */
export const MAX_INPUT_BYTES = 32 * 1024 * 1024;

/**
 * Reads a whole stream as UTF-8 text, at most `limit` bytes: an endless or
 * huge stream is a usage error, not gigabytes of memory.
 */
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
