// Ctrl-C while a spinner runs or a question waits: the spinner stops at once,
// its line is cleared and the cursor shown again, and the command ends with
// InterruptedError (exit 130 in main) without waiting for the work.
import { describe, expect, it, vi } from 'vitest';
import { PassThrough } from 'node:stream';
import { clearLine, cursorTo, moveCursor } from 'node:readline';
import { Output } from '../../src/output/output.js';
import { Context } from '../../src/cli/context.js';
import { parseGlobals } from '../../src/cli/globals.js';
import { InterruptedError } from '../../src/core/errors.js';
import type { IO } from '../../src/core/io.js';

const SHOW_CURSOR = '\u001b[?25h';
const HIDE_CURSOR = '\u001b[?25l';

/** A fake terminal on stderr: ora draws on it as on a real one. */
function terminalIO(): { io: IO; written: string[] } {
  const written: string[] = [];
  const stream = new PassThrough();
  // The cursor methods of a tty.WriteStream, which ora calls, as readline writes them.
  const stderr = Object.assign(stream, {
    isTTY: true,
    columns: 80,
    rows: 24,
    cursorTo: (x: number) => cursorTo(stream, x),
    moveCursor: (dx: number, dy: number) => moveCursor(stream, dx, dy),
    clearLine: (dir: -1 | 0 | 1) => clearLine(stream, dir),
  });
  stderr.on('data', (chunk: Buffer) => written.push(chunk.toString('utf8')));
  const io: IO = {
    stdout: { write: () => true },
    stderr,
    stdin: new PassThrough(),
    stdinIsTTY: true,
    stdoutIsTTY: true,
    stderrIsTTY: true,
    env: {},
  };
  return { io, written };
}

describe('Ctrl-C', () => {
  it('stops a running spinner, restores the cursor and rejects at once', async () => {
    const { io, written } = terminalIO();
    const controller = new AbortController();
    const out = new Output(io, { json: false, colorFlag: true, debug: false, signal: controller.signal });
    // Work that never ends by itself: only the interruption can end the spin.
    const pending = out.spin('Fetching monitor', () => new Promise<never>(() => {}));
    await vi.waitFor(() => expect(written.join('')).toContain('Fetching monitor'), { timeout: 60_000, interval: 20 });
    expect(written.join('')).toContain(HIDE_CURSOR);
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(InterruptedError);
    const text = written.join('');
    expect(text.lastIndexOf(SHOW_CURSOR)).toBeGreaterThan(text.lastIndexOf(HIDE_CURSOR));
    // Stopped, not paused: no frame is drawn after the interruption.
    const count = written.length;
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(written.length).toBe(count);
  });

  it('a spinner that has not started yet never starts', async () => {
    const { io, written } = terminalIO();
    const controller = new AbortController();
    const out = new Output(io, { json: false, colorFlag: true, debug: false, signal: controller.signal });
    const pending = out.spin('Fetching monitor', () => new Promise<never>(() => {}));
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(InterruptedError);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(written.join('')).toBe('');
  });

  it('ends a confirmation question with InterruptedError', async () => {
    const { io } = terminalIO();
    const controller = new AbortController();
    const ctx = new Context(io, parseGlobals({}), controller.signal);
    const pending = ctx.confirm('Delete monitor mon_1?');
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toBeInstanceOf(InterruptedError);
  });
});
