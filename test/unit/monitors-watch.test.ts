/* eslint-disable no-control-regex -- the test is about what reaches a terminal */
// `monitors watch` run in-process against an emulator with a fake terminal,
// the pause between polls replaced by scripted steps (no timers): notes under
// the board, a resize, a dumb terminal, and the cursor given back when the
// watch ends on an error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/server.js';
import { fakeContext, fakeIO } from '../helpers/fake-io.js';
import { run } from '../../src/commands/monitors/watch.js';
import { CpkError, ExitCode } from '../../src/core/errors.js';

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emu?.close();
});

async function newMonitor(name: string): Promise<string> {
  const res = await fetch(`${emu.baseUrl}/monitors`, {
    method: 'POST',
    headers: { authorization: `Bearer ${emu.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, target: `https://${name}.example.com/` }),
  });
  return ((await res.json()) as { id: string }).id;
}

/** Watches `ids` on a fake terminal; each pause runs the next step, and when they run out the watch ends as on Ctrl-C. */
async function watch(
  ids: string[],
  options: { env?: Record<string, string>; steps: Array<(terminal: Terminal) => unknown> },
) {
  const terminal: Terminal = { columns: 100, rows: 30, resize: undefined };
  const fake = fakeIO({
    tty: true,
    env: {
      CPK_BASE_URL: emu.baseUrl,
      CPK_TOKEN: emu.token,
      TERM: 'xterm-256color',
      CPK_MAX_ATTEMPTS: '1',
      ...options.env,
    },
  });
  // The terminal's size now, and its resize listener (SIGWINCH), played by the steps.
  Object.assign(fake, {
    stdoutColumns: 100,
    stdoutSize: () => ({ columns: terminal.columns, rows: terminal.rows }),
    onResize: (listener: () => void) => {
      terminal.resize = listener;
      return () => (terminal.resize = undefined);
    },
  });
  const ctx = fakeContext(fake);
  const steps = [...options.steps];
  try {
    const error = await run({ ids, all: false, everySeconds: 1, concurrency: 2 }, ctx, {
      pause: async () => {
        const step = steps.shift();
        if (!step) return false;
        await step(terminal);
        return true;
      },
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    return { stdout: fake.out, stderr: fake.err, error, terminal };
  } finally {
    await ctx.close();
  }
}

interface Terminal {
  columns: number;
  rows: number;
  resize: (() => void) | undefined;
}

const frames = (stdout: string) => stdout.split('\u001b[H').slice(1);
const plain = (text: string) => text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');

describe('monitors watch on a terminal (in-process)', () => {
  it('a failed poll is a note under the board, not a line on stderr; the next good poll clears it', async () => {
    const id = await newMonitor('noted');
    const r = await watch([id], {
      steps: [() => emu.injectFault({ method: 'GET', path: `/v1/monitors/${id}`, status: 503 }), () => {}],
    });
    expect(r.error).toBeUndefined();
    expect(r.stderr).toBe('');
    const [first, failed, recovered] = frames(r.stdout).map(plain);
    expect(first).not.toContain('warning');
    expect(failed).toContain(`warning: ${id}: service unavailable (injected fault); trying again in 1s`);
    expect(failed).toMatch(new RegExp(`${id} +noted +up`)); // the last values stay
    expect(recovered).not.toContain('warning');
    expect(r.stdout.endsWith('\u001b[?25h')).toBe(true);
  });

  it('a resize redraws at once, from a cleared screen, at the new width', async () => {
    const id = await newMonitor('resized-monitor-with-a-long-name');
    const r = await watch([id], {
      steps: [
        (terminal) => {
          terminal.columns = 40;
          terminal.rows = 8;
          terminal.resize?.();
        },
      ],
    });
    expect(r.error).toBeUndefined();
    expect(r.terminal.resize).toBeUndefined(); // the listener was removed at the end
    const all = frames(r.stdout);
    expect(all).toHaveLength(3); // first poll, the resize, the second poll
    expect(all[1]!.startsWith('\u001b[2J')).toBe(true);
    for (const frame of all.slice(1)) {
      for (const line of plain(frame).split('\n')) expect(line.length).toBeLessThan(40);
    }
    expect(plain(all[0]!)).toContain('resized-monitor-with-a-long-name');
  });

  it('an error that ends the watch still gives the cursor back', async () => {
    const id = await newMonitor('revoked');
    const r = await watch([id], {
      steps: [() => emu.injectFault({ method: 'GET', path: `/v1/monitors/${id}`, status: 401 })],
    });
    expect((r.error as CpkError).exitCode).toBe(ExitCode.AUTH);
    expect(r.stdout.startsWith('\u001b[?25l')).toBe(true);
    expect(r.stdout.endsWith('\u001b[?25h')).toBe(true);
  });

  it('a dumb terminal gets the boards one after the other, without escape sequences', async () => {
    const id = await newMonitor('dumb');
    const r = await watch([id], { env: { TERM: 'dumb' }, steps: [() => {}] });
    expect(r.error).toBeUndefined();
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stdout.match(/^Every 1s: 1 monitor \(1 up\)/gm)).toHaveLength(2);
  });
});
