// A fake IO for running a command's run function in-process: what it wrote to
// stdout and stderr is kept as text, stdin is given, nothing is a terminal
// unless asked.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Context } from '../../src/cli/context.js';
import { parseGlobals } from '../../src/cli/globals.js';
import type { IO } from '../../src/core/io.js';

export interface FakeIO extends IO {
  readonly out: string;
  readonly err: string;
}

export function fakeIO(
  options: { env?: Record<string, string | undefined>; stdin?: string; tty?: boolean } = {},
): FakeIO {
  let out = '';
  let err = '';
  return {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]),
    stdinIsTTY: false,
    stdoutIsTTY: options.tty === true,
    stderrIsTTY: options.tty === true,
    // A private HOME, as each CLI process of the tests gets: cpk's directories
    // (config, cache, the inventory of known monitors) fall back to HOME when
    // the environment names none, and a test must never write the real ones.
    env: { HOME: mkdtempSync(join(tmpdir(), 'cpk-fake-home-')), ...options.env },
    get out() {
      return out;
    },
    get err() {
      return err;
    },
  };
}

/** A Context over a fake IO, with global flags as commander would give them (e.g. `{ json: true }`). */
export function fakeContext(io: FakeIO, globals: Record<string, unknown> = {}): Context {
  return new Context(io, parseGlobals(globals));
}
