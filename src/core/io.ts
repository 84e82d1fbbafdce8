// The IO a command receives. Commands never touch `process` or `console`:
// tests pass fakes, and "is this a terminal" is a field, not a global.
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync, type Stats } from 'node:fs';
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
  let stdinChecked = false;
  // Node gives a stdin it cannot read (a directory: `cpk monitors get - < .`)
  // as a stream that ends at once, which would read as an empty list and
  // succeed with nothing done: it fails instead, with the system's reason.
  const stdin = (): NodeJS.ReadableStream => {
    if (!stdinChecked) {
      stdinChecked = true;
      let info: Stats | undefined;
      try {
        info = fstatSync(0);
      } catch {
        info = undefined;
      }
      if (info?.isDirectory()) process.stdin.destroy(new UnreadableFileError('it is a directory (EISDIR)', 'EISDIR'));
    }
    return process.stdin;
  };
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
      return stdin();
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
  try {
    for await (const chunk of stream) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += buffer.length;
      if (size > limit) {
        (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
        throw new UsageError(`${what} holds more than ${formatBytes(limit)}: too large to read`);
      }
      chunks.push(buffer);
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${what}${whyUnreadable(error)}`);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A file that was not read, and why in words; `code` is the system's (EISDIR) when there is one, and
 * `stream` says it is a FIFO or a socket, whose data stdin could carry instead.
 */
export class UnreadableFileError extends Error {
  constructor(
    message: string,
    readonly code?: string,
    readonly stream = false,
  ) {
    super(message);
  }
}

/**
 * How a failed read is told after the name of what was read: ": it is a FIFO,
 * not a regular file" for a refusal of readFileText's, " (EACCES)" for the
 * system's own errors, whose code is the whole of what they say usefully.
 */
export function whyUnreadable(error: unknown): string {
  if (error instanceof UnreadableFileError) return `: ${error.message}`;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code ? ` (${code})` : '';
}

function notRegular(info: Stats): string | undefined {
  if (info.isDirectory()) return 'it is a directory (EISDIR)';
  if (info.isFIFO()) return 'it is a FIFO, not a regular file';
  if (info.isSocket()) return 'it is a socket, not a regular file';
  if (info.isBlockDevice()) return 'it is a block device, not a regular file';
  return undefined;
}

/**
 * The one way cpk reads a file someone named (a manifest, the state, the
 * config, a saved plan, --data @FILE, --from FILE, caches) as UTF-8 text.
 * A FIFO with no writer would block the open, and then the read, without
 * bound: the file is opened without waiting (O_NONBLOCK) and refused unless
 * it is a regular file or a device. A regular file is read whole, as its
 * size is known; a device (/dev/urandom) may never end, so it is read up to
 * `limit` and refused there, and one with nothing to give at once (a
 * terminal) fails with EAGAIN rather than wait. Errors of the system (ENOENT,
 * EACCES) are thrown as they are, so callers can tell a missing file from the
 * rest; the refusals are UnreadableFileError. Synchronous: the config is
 * read that way, and none of it waits.
 */
export function readFileText(path: string, limit = MAX_INPUT_BYTES): string {
  // Windows has no O_NONBLOCK (nor FIFOs in the file system).
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const info = fstatSync(fd);
    const refused = notRegular(info);
    if (refused)
      throw new UnreadableFileError(
        refused,
        info.isDirectory() ? 'EISDIR' : undefined,
        info.isFIFO() || info.isSocket(),
      );
    if (info.isFile()) return readFileSync(fd, 'utf8');
    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      const buffer = Buffer.allocUnsafe(64 * 1024);
      const read = readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      size += read;
      if (size > limit)
        throw new UnreadableFileError(`it is a device and gave more than ${formatBytes(limit)}: too large to read`);
      chunks.push(buffer.subarray(0, read));
    }
    return Buffer.concat(chunks, size).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${n / (1024 * 1024)} MiB` : `${n / 1024} KiB`;
}
