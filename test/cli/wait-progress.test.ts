// `cpk monitors wait` tells what it is doing: a progress line on a terminal
// (what it waits for, what it sees, the time left), a warning at once when
// the monitor has no such field (naming the nearest one), and a 404 that
// names the id. `reports get --watch` on a terminal redraws in place, cut to
// the terminal's height.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { runInPty } from '../helpers/pty.js';

const f = useEmulator({}, { inProcess: true });
/** Only to catch a hang. */
const HANG = 40_000;

function monitor(name: string): Promise<string> {
  return f.create({ name, target: 'https://wait.example.com' });
}

// Each case has a monitor of its own: the cases run side by side, their waits overlapping.
describe.concurrent('monitors wait, saying what it does', () => {
  it('warns at once of a field the monitor lacks, naming the nearest that exists', async () => {
    const id = await monitor('misspelt');
    const r = await f.cpk(['monitors', 'wait', id, '--for', 'stauts=up', '--every', '1s', '--timeout', '2s']);
    expect(r.code).toBe(8);
    expect(r.stderr.split('\n')[0]).toBe(
      `warning: ${id} has no field stauts (did you mean status?); waiting on, as asked`,
    );
    const nested = await f.cpk(['monitors', 'wait', id, '--for', 'last_check.stats=up', '--timeout', '1s']);
    expect(nested.stderr).toContain('(did you mean last_check.status?)');
  });

  it('a 404 names the id', async () => {
    const r = await f.cpk(['monitors', 'wait', 'mon_nope12345678', '--for', 'status=up', '--timeout', '1m']);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/^cpk: monitor not found.*mon_nope12345678/);
  });

  it('on a terminal, a progress line: what it waits for, what it sees now, the time left', async () => {
    const id = await monitor('progress');
    const pty = runInPty(['monitors', 'wait', id, '--for', 'status=down', '--every', '1s', '--timeout', '3s'], {
      env: f.env,
      columns: 100,
      rows: 24,
      timeoutMs: HANG,
    });
    await pty.waitFor(new RegExp(`Waiting for ${id} to have status=down: now up; \\d+s left`));
    const { code } = await pty.done;
    expect(code).toBe(8);
  });
});

describe('reports get --watch on a terminal', () => {
  it('redraws in place (the screen cleared once), cut to the height with a line saying what is hidden', async () => {
    const id = (await monitor('report-watch')).replace(/^mon_/, 'rpt_');
    // A new monitor's report is some 17 lines: a terminal of 10 rows cannot show it whole.
    const pty = runInPty(['reports', 'get', id, '--watch', '--every', '1s'], {
      env: f.env,
      columns: 80,
      rows: 10,
      timeoutMs: HANG,
    });
    await pty.waitFor(/refreshed at[\s\S]*refreshed at[\s\S]*refreshed at/);
    pty.interrupt();
    const { code, output } = await pty.done;
    expect(code).toBe(0);
    expect(output.split('\u001b[2J')).toHaveLength(2);
    expect(output).toMatch(/… \d+ more lines \(a taller terminal shows them\)/);
  });
});
