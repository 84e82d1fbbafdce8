/* eslint-disable no-control-regex -- the test reads what reached a terminal */
// Fitting an 80x24 terminal, on a real pseudo-terminal (test/helpers/pty.ts)
// against the emulator: no line of a list, a bulk get, the reports list, a
// report or the watch board is wider than the terminal, and no id is cut.
// And the watches end with their reader: `watch | head -1` and
// `reports get --watch | head -c 50` exit 141 with nothing changing.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, baseEnv } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { runInPty } from '../helpers/pty.js';
import { textWidth } from '../../src/output/text.js';

const f = useEmulator({}, { inProcess: true });

/** Only to catch a hang: each command ends in a second or two. */
const HANG = 40_000;

const NAMES = [
  'checkout service in production, behind the eu-west load balancer',
  'status page (public) for the payments platform and its partners',
  'a third monitor whose name is also far longer than a column allows',
];

async function monitors(): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, name] of NAMES.entries()) {
    ids.push(
      await f.create({
        name,
        target: `https://service-${i}.example.com/health/deep/check/with/a/long/path?region=eu-west-1&verbose=true`,
      }),
    );
  }
  return ids;
}

/** The lines the terminal shows: escape sequences out, split where the terminal breaks lines. */
function screenLines(output: string): string[] {
  return (
    output
      // A spinner's redraw (column 1, erase the line) starts its line again.
      .replace(/\u001b\[\d*[GK]/g, '\n')
      .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '')
      .replace(/\u001b\][^\u0007]*\u0007/g, '')
      .split(/\r?\n|\r/)
  );
}

function expectFits(output: string, ids: readonly string[], columns = 80): void {
  const lines = screenLines(output);
  for (const line of lines) expect(textWidth(line), `too wide: ${JSON.stringify(line)}`).toBeLessThanOrEqual(columns);
  for (const id of ids) expect(output).toContain(id);
}

async function inPty(args: string[]): Promise<string> {
  const pty = runInPty(args, { env: f.env, columns: 80, rows: 24, timeoutMs: HANG });
  const { code, output } = await pty.done;
  expect(code, output).toBe(0);
  return output;
}

// Each case makes its own monitors: the cases run side by side, their terminals' waits overlapping.
describe.concurrent('an 80x24 terminal', () => {
  it('monitors list, monitors get A B C, reports list and a report fit; ids whole, headers unbroken', async () => {
    const ids = await monitors();
    const list = await inPty(['monitors', 'list']);
    expectFits(list, ids);
    expect(list).toContain('…'); // long names and targets are cut, not wrapped
    expectFits(await inPty(['monitors', 'get', ...ids]), ids);
    const reports = await inPty(['reports', 'list']);
    const reportIds = ids.map((id) => id.replace(/^mon_/, 'rpt_'));
    expectFits(reports, reportIds);
    expect(reports).not.toMatch(/^\s*IOD_START/m);
    // Each report's monitor by its name, cut to fit, where its id stood.
    for (const name of NAMES) expect(reports).toMatch(new RegExp(`rpt_\\w+ .* ${name.slice(0, 12)}`));
    const report = await inPty(['reports', 'get', reportIds[0] as string]);
    expectFits(report, [reportIds[0] as string]);
    // A timestamp is never broken: no line starts inside one's age.
    for (const line of screenLines(report)) expect(line).not.toMatch(/^[│\s]*ago\)/);
  }, 120_000);

  it('-o wide and a pipe keep every value whole', async () => {
    const ids = await monitors();
    const piped = await f.cpk(['monitors', 'get', ...ids]);
    for (const name of NAMES) expect(piped.stdout).toContain(name);
    const wide = await inPty(['monitors', 'get', ...ids, '-o', 'wide']);
    for (const name of NAMES) expect(wide.replace(/\s+/g, ' ')).toContain(name);
  }, 120_000);

  it('the watch board fits 80 columns and 60, ids whole, and keeps the time of a change', async () => {
    const ids = await monitors();
    const board = async (columns: number) => {
      const pty = runInPty(['monitors', 'watch', ...ids, '--every', '1s'], {
        env: f.env,
        columns,
        rows: 24,
        timeoutMs: HANG,
      });
      await pty.waitFor(/polled[\s\S]*polled/);
      pty.interrupt();
      const { code, output } = await pty.done;
      expect(code, output).toBe(0);
      expectFits(output, ids, columns);
    };
    await Promise.all([board(80), board(60)]);
  }, 120_000);
});

/** `sh -c "cpk ARGS | READER"`: cpk's own exit code (bash's PIPESTATUS), within HANG. */
function piped(args: string[], reader: string): Promise<{ cpk: number | undefined; killed: boolean }> {
  return new Promise((resolve) => {
    const quoted = [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' ');
    const child = spawn('bash', ['-c', `${quoted} | ${reader} > /dev/null; echo "cpk=\${PIPESTATUS[0]}" >&2`], {
      env: baseEnv(f.env),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, HANG);
    child.on('close', () => {
      clearTimeout(timer);
      const m = /cpk=(\d+)/.exec(stderr);
      resolve({ cpk: m ? Number(m[1]) : undefined, killed });
    });
  });
}

describe.concurrent('a watch whose reader has gone', () => {
  it('monitors watch ID --every 1s | head -1 exits 141 with nothing changing', async () => {
    const [id] = await monitors();
    expect(await piped(['monitors', 'watch', id as string, '--every', '1s'], 'head -1')).toEqual({
      cpk: 141,
      killed: false,
    });
  });

  it('reports get ID --watch | head -c 50 exits 141 with nothing changing', async () => {
    const [id] = await monitors();
    const report = (id as string).replace(/^mon_/, 'rpt_');
    expect(await piped(['reports', 'get', report, '--watch', '--every', '1s'], 'head -c 50')).toEqual({
      cpk: 141,
      killed: false,
    });
  });
});
