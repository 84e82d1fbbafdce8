// The IO a command receives. Commands never touch `process` or `console`:
// tests pass fakes, and "is this a terminal" is a field, not a global.

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
  /** The width of the terminal on stdout, when it is one. */
  stdoutColumns?: number | undefined;
  env: Readonly<Record<string, string | undefined>>;
}

export function processIO(): IO {
  // A reader that stops early (`cpk ... | head -1`) closes the pipe: that is
  // not an error worth a stack trace. Stop quietly, as cat and gh do.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(0);
      throw error;
    });
  }
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    stdinIsTTY: process.stdin.isTTY === true,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    stdoutColumns: process.stdout.isTTY ? process.stdout.columns : undefined,
    env: process.env,
  };
}

/** Reads a whole stream as UTF-8 text. */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
