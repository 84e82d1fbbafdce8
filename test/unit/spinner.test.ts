// The spinner and the bulk progress on a terminal that does not say its width
// (0 columns): nothing is drawn, and a spinner running when a resize leaves
// the width unknown stops at once, its line cleared and the cursor shown.
import { describe, expect, it, vi } from 'vitest';
import { PassThrough } from 'node:stream';
import { clearLine, cursorTo, moveCursor } from 'node:readline';
import { Output } from '../../src/output/output.js';
import { startProgress } from '../../src/output/progress.js';
import { knownColumns, type IO } from '../../src/core/io.js';

const SHOW_CURSOR = '\u001b[?25h';
/** More cursor movements than any frame needs: past it, a redraw is looping. */
const MOVES = 10_000;

/** A fake terminal on stderr of `columns` columns; its cursor movements are counted. */
function terminal(columns: number) {
  const written: string[] = [];
  let moves = 0;
  const stream = new PassThrough();
  const counted =
    <A extends unknown[]>(move: (...args: A) => unknown) =>
    (...args: A) => {
      // A redraw that loops would never yield; failing here makes it a test failure, not a hang.
      if (++moves > MOVES) throw new Error('the spinner redraws without end');
      return move(...args);
    };
  const stderr = Object.assign(stream, {
    isTTY: true,
    columns,
    rows: 24,
    cursorTo: counted((x: number) => cursorTo(stream, x)),
    moveCursor: counted((dx: number, dy: number) => moveCursor(stream, dx, dy)),
    clearLine: counted((dir: -1 | 0 | 1) => clearLine(stream, dir)),
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
  const out = new Output(io, { json: false, colorFlag: true, debug: false });
  const resize = (to: number) => {
    stderr.columns = to;
    stderr.emit('resize');
  };
  return { out, written, resize, moves: () => moves };
}

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a terminal of 0 columns', () => {
  it('gets no spinner for a slow call, and the result comes back', async () => {
    const t = terminal(0);
    await expect(t.out.spin('Fetching monitor', () => later(500).then(() => 'done'))).resolves.toBe('done');
    expect(t.written.join('')).toBe('');
  });

  it('gets no bulk progress', async () => {
    const t = terminal(0);
    const progress = await startProgress(t.out, 'Deleting monitors', 3);
    progress.tick();
    await later(250);
    progress.tick();
    progress.stop();
    expect(t.written.join('')).toBe('');
  });

  it('stops a running spinner when a resize leaves the width unknown', async () => {
    const t = terminal(80);
    let finish: (value: string) => void = () => {};
    const pending = t.out.spin('Fetching monitor', () => new Promise<string>((resolve) => (finish = resolve)));
    await vi.waitFor(() => expect(t.written.join('')).toContain('Fetching monitor'), { timeout: 60_000, interval: 20 });
    t.resize(0);
    const text = t.written.join('');
    expect(text.endsWith(SHOW_CURSOR)).toBe(true);
    const count = t.written.length;
    await later(400);
    expect(t.written.length).toBe(count);
    finish('done');
    await expect(pending).resolves.toBe('done');
    expect(t.moves()).toBeLessThan(100);
  });

  it('stops the bulk progress when a resize leaves the width unknown; later ticks draw nothing', async () => {
    const t = terminal(80);
    const progress = await startProgress(t.out, 'Deleting monitors', 3);
    progress.tick();
    expect(t.written.join('')).toContain('Deleting monitors 1/3');
    t.resize(0);
    const count = t.written.length;
    progress.tick();
    await later(250);
    progress.tick();
    progress.stop();
    expect(t.written.length).toBe(count);
    expect(t.moves()).toBeLessThan(100);
  });
});

describe('knownColumns', () => {
  it.each([
    [80, 80],
    [1, 1],
    [0, undefined],
    [-1, undefined],
    [Number.NaN, undefined],
    [Infinity, undefined],
    [2.5, undefined],
    [undefined, undefined],
    ['80', undefined],
  ])('%s -> %s', (input, expected) => expect(knownColumns(input)).toBe(expected));
});

describe('every width-driven loop, given a width a terminal should never report', () => {
  // These held before: the guard is that no width reaches a loop that counts
  // lines or cells by it without bound (ora's did). Output stays within a
  // few times the input, whatever the width.
  const text = 'a fairly long line of words, some wide: 監視 and an emoji 🚀 '.repeat(8);
  const widths = [0, -1, Number.NaN, Infinity, -Infinity, 1];
  it.each(widths)('width %s', async (width) => {
    const { truncate, wrapText } = await import('../../src/output/text.js');
    const { boardLines } = await import('../../src/output/board.js');
    const { tableLines, fitSpark, detailLines } = await import('../../src/output/render.js');
    const { PLAIN } = await import('../../src/output/palette.js');
    const size = (lines: string[]) => lines.join('\n').length;
    expect(size(wrapText(text, width))).toBeLessThan(text.length * 4);
    expect(truncate(text, width).length).toBeLessThanOrEqual(text.length + 1);
    const cells = [
      [{ text: 'NAME' }, { text }],
      [{ text: 'x' }, { text }],
    ];
    expect(size(tableLines(cells, { width }))).toBeLessThan(text.length * 10);
    expect(fitSpark([1, 2, 3, 4, 5], width - 40).length).toBeLessThanOrEqual(5);
    const view = { tty: true, width, now: 0, paint: PLAIN };
    expect(size(detailLines({ id: 'mon_1', name: text, tags: [text, text] }, view))).toBeLessThan(text.length * 20);
    const row = {
      id: 'mon_1',
      name: text,
      status: 'up',
      fresh: false,
      lastCheck: null,
      latency: 1,
      latencyPath: 'latency_ms',
      history: [1, 2, 3],
    };
    const frame = boardLines(text, [row, row], [text], {
      width,
      height: width,
      now: 0,
      paint: PLAIN,
      color: false,
    });
    expect(size(frame)).toBeLessThan(text.length * 10);
  });
});
