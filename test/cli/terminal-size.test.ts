/* eslint-disable no-control-regex -- the test is about what reaches a terminal */
// A terminal that does not say its width: serial consoles, `script` under CI
// and `ssh -tt` report 0 columns. The spinner, the bulk progress and the live
// board then draw nothing in place (no cursor movement, output bounded), and
// Ctrl-C and SIGTERM still end the command. Run on a real pseudo-terminal of
// 0 columns (test/helpers/pty.ts) against the emulator, a request held
// unanswered so that the command is in its slow call when the signal comes.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { runInPty } from '../helpers/pty.js';

const f = useEmulator();

/** Far above what these commands write (a few hundred bytes); the fault wrote megabytes a second. */
const BOUNDED = 16 * 1024;
/** Only to catch a hang: the command ends well under a second after the signal. */
const HANG = 30_000;
/** Cursor movement: up, home, erase in line, erase below (a redraw in place). */
const CURSOR_MOVES = /\u001b\[(?:\d*A|H|\d*K|J|2K)/;

function monitor(name: string): Promise<string> {
  return f.create({ name, target: 'https://size.example.com/health' });
}

/** Resolves once the emulator has received `count` requests for `path` since `mark`. */
async function arrived(sent: () => Array<{ method: string; path: string }>, path: string, count = 1): Promise<void> {
  const until = Date.now() + HANG;
  while (sent().filter((r) => r.path === path).length < count) {
    if (Date.now() > until) throw new Error(`no request for ${path} reached the emulator`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Long enough for a spinner to start (150 ms) and redraw (every 80 ms) a few times. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 600));

describe('a terminal of 0 columns', () => {
  it('a slow call draws no spinner, and Ctrl-C ends it with 130', async () => {
    const id = await monitor('zero-columns-spin');
    const path = `/v1/monitors/${id}`;
    f.emu.injectFault({ method: 'GET', path, kind: 'hang' });
    const sent = f.mark();
    const pty = runInPty(['monitors', 'get', id], { env: f.env, columns: 0, rows: 30, timeoutMs: HANG });
    await arrived(sent, path);
    await settle();
    pty.interrupt();
    const { code, signal, output } = await pty.done;
    expect([code, signal]).toEqual([130, null]);
    expect(output.length).toBeLessThan(BOUNDED);
    expect(output).not.toMatch(CURSOR_MOVES);
  });

  it('a bulk command draws no progress, and SIGTERM ends it with 130', async () => {
    const ids = [await monitor('zero-columns-bulk-1'), await monitor('zero-columns-bulk-2')];
    const held = await monitor('zero-columns-bulk-held');
    const path = `/v1/monitors/${held}`;
    f.emu.injectFault({ method: 'GET', path, kind: 'hang' });
    const sent = f.mark();
    const pty = runInPty(['monitors', 'get', ...ids, held], {
      env: f.env,
      columns: 0,
      rows: 30,
      timeoutMs: HANG,
    });
    await arrived(sent, path);
    await settle();
    pty.signal('TERM');
    const { code, signal, output } = await pty.done;
    expect([code, signal]).toEqual([130, null]);
    expect(output.length).toBeLessThan(BOUNDED);
    expect(output).not.toMatch(CURSOR_MOVES);
  });

  it('the live board is drawn frame after frame, cut to 80 columns, and Ctrl-C ends it with 0', async () => {
    const id = await monitor('zero-columns-watch');
    const pty = runInPty(['monitors', 'watch', id, '--every', '1s'], {
      env: f.env,
      columns: 0,
      rows: 30,
      timeoutMs: HANG,
    });
    await pty.waitFor(/(?:Every 1s: 1 monitor[^]*){2}/);
    pty.interrupt();
    const { code, signal, output } = await pty.done;
    expect([code, signal]).toEqual([0, null]);
    expect(output).not.toMatch(CURSOR_MOVES);
    const lines = output.replace(/\u001b\[[0-9;]*m/g, '').split(/\r?\n/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(lines.filter((line) => line.startsWith(id))).not.toHaveLength(0);
  });

  it('a sized terminal still shows the bulk progress', async () => {
    const ids = [await monitor('sized-bulk-1'), await monitor('sized-bulk-2')];
    const held = await monitor('sized-bulk-held');
    const path = `/v1/monitors/${held}`;
    f.emu.injectFault({ method: 'GET', path, kind: 'hang' });
    const pty = runInPty(['monitors', 'get', ...ids, held], {
      env: f.env,
      columns: 100,
      rows: 30,
      timeoutMs: HANG,
    });
    await pty.waitFor(/Fetching monitors 2\/3/);
    pty.interrupt();
    const { code, signal } = await pty.done;
    expect([code, signal]).toEqual([130, null]);
  });
});
