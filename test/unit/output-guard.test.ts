/* eslint-disable no-control-regex -- the test is about control characters */
// Every Output method, one by one, with text a hostile server or a careless
// error could carry: escape sequences (CSI, OSC, 8-bit CSI), a bidi override,
// a cpk token and a bearer credential. On stderr (messages) every method
// sanitizes and redacts; on stdout (data) every method sanitizes, except
// printData to a pipe, which is exact by design, and masks the secret in use
// (registered) but no other token-shaped text (a script asked for that data);
// printSecret alone (`cpk auth token`) prints the secret. A method added to Output without a line
// here fails the first test (issue 11: sanitizing and redaction in one place).
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { Output, type OutputSettings } from '../../src/output/output.js';
import { ApiError } from '../../src/core/errors.js';
import { colorPalette } from '../../src/output/palette.js';
import type { IO } from '../../src/core/io.js';
import { forgetSecrets, registerSecret } from '../../src/core/redact.js';
import { parse as parseYaml } from 'yaml';
import { workflowCommandsIn } from '../helpers/workflow-commands.js';

/** cpk's colors as chalk draws them on a 16-color terminal. */
const COLORS = await colorPalette(1);

const TOKEN = 'cpk_guardsecret12345';
const HOSTILE = `a\u001b[2Jb\u001b]0;title\u0007c\u009b31md\u202ee ${TOKEN} Bearer abc.def`;
const ESCAPES = /[\u001b\u009b\u0007\u202e]/;

function fake(
  options: { tty?: boolean; settings?: Partial<OutputSettings>; stdin?: string; env?: Record<string, string> } = {},
) {
  let out = '';
  let err = '';
  let onErr: (() => void) | undefined;
  const io: IO = {
    stdout: { write: (s: string) => (out += s) },
    stderr: {
      write: (s: string) => {
        err += s;
        onErr?.();
        return true;
      },
      // A terminal says its width; without one, nothing is redrawn on it (no spinner).
      ...(options.tty === true ? { columns: 80 } : {}),
    } as IO['stderr'],
    stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]),
    stdinIsTTY: false,
    stdoutIsTTY: options.tty === true,
    stderrIsTTY: options.tty === true,
    env: { TERM: 'xterm-256color', ...options.env },
  };
  const output = new Output(io, { json: false, colorFlag: true, debug: true, ...options.settings });
  return {
    output,
    out: () => out,
    err: () => err,
    firstErr: () => new Promise<void>((resolve) => (onErr = resolve)),
  };
}

/** What each method writes: `stderr` methods must sanitize and redact; `stdout` ones sanitize and keep data. */
const methods = new Map<string, 'stdout' | 'stderr' | 'none'>([
  ['constructor', 'none'],
  ['json', 'none'],
  ['format', 'none'],
  ['view', 'none'],
  ['colors', 'none'],
  ['width', 'none'],
  ['list', 'stdout'],
  ['print', 'stdout'],
  ['printList', 'stdout'],
  ['printRows', 'stdout'],
  ['printJson', 'stdout'],
  ['printLine', 'stdout'],
  ['printText', 'stdout'],
  ['printRendered', 'stdout'],
  ['printData', 'stdout'],
  ['printSecret', 'stdout'],
  ['writeLines', 'stdout'],
  ['heartbeat', 'stdout'],
  ['detailLines', 'none'],
  ['drawFrame', 'stdout'],
  ['endFrames', 'stdout'],
  ['info', 'stderr'],
  ['prompt', 'stderr'],
  ['warn', 'stderr'],
  ['workflowCommand', 'stderr'],
  ['debug', 'stderr'],
  ['itemError', 'stderr'],
  ['promptSecret', 'stderr'],
  ['spin', 'stderr'],
  ['guardedStderr', 'none'],
  ['toStdout', 'stdout'],
  ['toStderr', 'stderr'],
]);

function expectSafeStderr(text: string) {
  expect(text).not.toBe('');
  expect(text).not.toMatch(ESCAPES);
  expect(text).not.toContain(TOKEN);
  expect(text).not.toContain('abc.def');
}

/** The colors of cpk's palettes, which stdout keeps on a terminal. */
const OWN_SGR = /\u001b\[(?:1|2|7|22|27|31|32|33|35|39)m/g;

function expectSafeStdout(text: string) {
  expect(text).not.toBe('');
  expect(text.replace(OWN_SGR, '')).not.toMatch(ESCAPES);
  expect(text).toContain(TOKEN); // data, never redacted
}

describe('Output guards every method', () => {
  it('every method of Output is listed here', () => {
    expect(Object.getOwnPropertyNames(Output.prototype).sort()).toEqual([...methods.keys()].sort());
  });

  it.each([
    ['info', (o: Output) => o.info(HOSTILE)],
    ['prompt', (o: Output) => o.prompt(HOSTILE)],
    ['warn', (o: Output) => o.warn(HOSTILE)],
    ['debug', (o: Output) => o.debug(HOSTILE)],
    ['workflowCommand', (o: Output) => o.workflowCommand(HOSTILE)],
    [
      'itemError',
      (o: Output) =>
        o.itemError(
          { label: HOSTILE, fields: { id: HOSTILE } },
          new ApiError(HOSTILE, { status: 422, method: 'PATCH', url: 'u', requestId: HOSTILE }),
        ),
    ],
  ])('stderr: %s sanitizes and redacts (text and --json)', (_name, call) => {
    for (const json of [false, true]) {
      const f = fake({ tty: true, settings: { json } });
      call(f.output);
      expectSafeStderr(f.err());
      expect(f.out()).toBe('');
    }
  });

  it('stderr: promptSecret sanitizes and redacts the question', async () => {
    const f = fake({ tty: true, stdin: 'typed\n' });
    await expect(f.output.promptSecret(`${HOSTILE}: `)).resolves.toBe('typed');
    expectSafeStderr(f.err());
  });

  it('stderr: spin sanitizes and redacts its text on a terminal', async () => {
    const f = fake({ tty: true });
    const shown = f.firstErr();
    await f.output.spin(HOSTILE, () => shown);
    const text = f.err().replace(/\u001b\[\??[0-9;]*[A-Za-z]/g, ''); // ora's own cursor and line codes
    expect(text).not.toMatch(/[\u001b\u009b\u0007\u202e]|\]0;/);
    expect(text).not.toContain(TOKEN);
    expect(text).toContain('cpk_[REDACTED]');
  });

  it.each([
    ['printLine', (o: Output) => o.printLine(HOSTILE)],
    ['printText', (o: Output) => o.printText(HOSTILE)],
    ['printRendered', (o: Output) => o.printRendered(HOSTILE)],
    ['printData (terminal)', (o: Output) => o.printData(HOSTILE)],
    ['writeLines', (o: Output) => o.writeLines([HOSTILE, HOSTILE])],
    ['printJson', (o: Output) => o.printJson({ name: HOSTILE })],
    ['printJson, a string under --query', (o: Output) => ((o.query = () => HOSTILE), o.printJson({}))],
    ['print', (o: Output) => o.print({ name: HOSTILE, [HOSTILE]: 1 })],
    ['printList', (o: Output) => o.printList([{ id: 'm1', name: HOSTILE }])],
    ['printRows', (o: Output) => o.printRows(['name', HOSTILE], [[HOSTILE, HOSTILE]])],
    [
      'list',
      async (o: Output) => {
        const list = o.list();
        await list.add([{ id: 'm1', name: HOSTILE }]);
        await list.end();
      },
    ],
  ])('stdout on a terminal: %s sanitizes and leaves data unredacted', async (_name, call) => {
    const f = fake({ tty: true });
    await call(f.output);
    expectSafeStdout(f.out());
    expect(f.err()).toBe('');
  });

  it.each(['yaml', 'jsonl', 'markdown', 'wide'] as const)('stdout -o %s sanitizes too', async (format) => {
    const f = fake({ tty: true, settings: { format, json: format === 'yaml' || format === 'jsonl' } });
    await f.output.printList([{ id: 'm1', name: HOSTILE }]);
    expectSafeStdout(f.out());
  });

  it('printRendered keeps the colors of cpk palettes and nothing else', () => {
    const f = fake({ tty: true });
    f.output.printRendered(`${COLORS.ok('up')} \u001b[8mhidden\u001b[28m ${COLORS.bad(HOSTILE)}\n`);
    expect(f.out()).toBe(`${COLORS.ok('up')} hidden ${COLORS.bad(`abcde ${TOKEN} Bearer abc.def`)}\n`);
  });

  it('printData to a pipe is exact (a raw body, a curl command, a token); on a terminal it is sanitized', () => {
    const pipe = fake({ tty: false });
    pipe.output.printData(HOSTILE);
    expect(pipe.out()).toBe(HOSTILE);
    const tty = fake({ tty: true });
    tty.output.printData(HOSTILE);
    expect(tty.out()).toBe(`abcde ${TOKEN} Bearer abc.def`);
  });

  it('drawFrame sanitizes each line, keeps cpk colors, and writes only its own cursor sequences', () => {
    const f = fake({ tty: true });
    f.output.endFrames();
    expect(f.out()).toBe(''); // no frame, nothing to restore
    f.output.drawFrame([COLORS.ok('up'), HOSTILE]);
    f.output.drawFrame(['second']);
    f.output.drawFrame(['resized'], { clear: true });
    f.output.endFrames();
    f.output.endFrames();
    const safe = `abcde ${TOKEN} Bearer abc.def`;
    expect(f.out()).toBe(
      `\u001b[?25l\u001b[H\u001b[2J\u001b[2K${COLORS.ok('up')}\n\u001b[2K${safe}\n\u001b[J` +
        `\u001b[H\u001b[2Ksecond\n\u001b[J` +
        `\u001b[?25l\u001b[H\u001b[2J\u001b[2Kresized\n\u001b[J` +
        `\u001b[?25h`,
    );
    const dumb = fake({ tty: true });
    (dumb.output.io.env as Record<string, string>).TERM = 'dumb';
    dumb.output.drawFrame([HOSTILE]);
    dumb.output.endFrames();
    expect(dumb.out()).toBe(`${safe}\n\n`);
    // A terminal that lost its width (0 columns): the cursor back, then frames one after the other.
    const unsized = fake({ tty: true });
    unsized.output.drawFrame(['first']);
    unsized.output.drawFrame([HOSTILE], { sized: false });
    unsized.output.drawFrame(['third'], { sized: false });
    unsized.output.endFrames();
    expect(unsized.out()).toBe(`\u001b[?25l\u001b[H\u001b[2J\u001b[2Kfirst\n\u001b[J\u001b[?25h${safe}\n\nthird\n\n`);
  });
});

/** Text the GitHub Actions runner would read as workflow commands: the legacy form anywhere, `::` starting a line. */
const COMMANDS = 'x ##[warning]forged\n  ::add-mask::y';

describe('under GitHub Actions every method but workflowCommand defuses workflow commands', () => {
  const actions = (settings: Partial<OutputSettings> = {}) =>
    fake({ tty: false, env: { GITHUB_ACTIONS: 'true' }, settings });
  const defused = (text: string) => {
    expect(text).not.toBe('');
    expect(workflowCommandsIn(text)).toEqual([]);
  };

  it.each([
    ['info', (o: Output) => o.info(COMMANDS)],
    ['prompt', (o: Output) => o.prompt(COMMANDS)],
    ['warn', (o: Output) => o.warn(COMMANDS)],
    ['debug', (o: Output) => o.debug(COMMANDS)],
    ['itemError', (o: Output) => o.itemError({ label: COMMANDS, fields: { id: COMMANDS } }, new Error(COMMANDS))],
  ])('stderr: %s (text and --json)', (_name, call) => {
    for (const json of [false, true]) {
      const f = actions({ json, debug: true });
      call(f.output);
      defused(f.err());
    }
  });

  it.each([
    ['printLine', (o: Output) => o.printLine(COMMANDS)],
    ['printText', (o: Output) => o.printText(COMMANDS)],
    ['printRendered', (o: Output) => o.printRendered(COMMANDS)],
    ['printData (a pipe)', (o: Output) => o.printData(COMMANDS)],
    ['printSecret (a pipe)', (o: Output) => o.printSecret(COMMANDS)],
    ['writeLines', (o: Output) => o.writeLines([COMMANDS, COMMANDS])],
    ['printJson, a string under --query', (o: Output) => ((o.query = () => COMMANDS), o.printJson({}))],
    ['print', (o: Output) => o.print({ name: COMMANDS, [COMMANDS]: 1 })],
    ['printList', (o: Output) => o.printList([{ id: 'm1', name: COMMANDS }])],
    ['printRows', (o: Output) => o.printRows(['name', COMMANDS], [[COMMANDS, COMMANDS]])],
    ['drawFrame', (o: Output) => o.drawFrame([COMMANDS], { sized: false })],
  ])('stdout: %s', async (_name, call) => {
    const f = actions();
    await call(f.output);
    defused(f.out());
  });

  it.each(['json', 'jsonl', 'yaml', 'markdown', 'wide'] as const)('stdout -o %s, the value kept', async (format) => {
    const f = actions({ format, json: format === 'json' || format === 'jsonl' || format === 'yaml' });
    const item = { id: 'm1', name: COMMANDS, [COMMANDS]: [COMMANDS] };
    await f.output.printList([item]);
    defused(f.out());
    if (format === 'json') expect(JSON.parse(f.out())).toEqual([item]);
    if (format === 'jsonl') expect(JSON.parse(f.out())).toEqual(item);
    if (format === 'yaml') expect(parseYaml(f.out())).toEqual([item]);
  });

  it('workflowCommand writes the command as it is: the one line the runner is meant to read', () => {
    const f = actions();
    f.output.workflowCommand('::error title=cpk::message');
    expect(workflowCommandsIn(f.err())).toEqual(['::error title=cpk::message']);
  });

  it('elsewhere the text is left as it is', () => {
    const f = fake({ tty: false });
    f.output.printLine(COMMANDS);
    expect(f.out()).toBe(`${COMMANDS}\n`);
  });
});

/** The token in use: registered, as src/cli/context.ts does when it resolves one. */
const IN_USE = 'cpk_in-use_Secret.42';

describe('the token in use is masked on stdout by every method but printSecret', () => {
  afterEach(() => forgetSecrets());

  it.each([
    ['printLine', (o: Output) => o.printLine(`echo ${IN_USE}`)],
    ['printText', (o: Output) => o.printText(`echo ${IN_USE}`)],
    ['printRendered', (o: Output) => o.printRendered(`echo ${IN_USE}`)],
    ['printData', (o: Output) => o.printData(`echo ${IN_USE}`)],
    ['writeLines', (o: Output) => o.writeLines([`echo ${IN_USE}`, IN_USE])],
    ['printJson', (o: Output) => o.printJson({ message: `echo ${IN_USE}` })],
    ['printJson, a string under --query', (o: Output) => ((o.query = () => IN_USE), o.printJson({}))],
    ['print', (o: Output) => o.print({ message: `echo ${IN_USE}`, [IN_USE]: 1 })],
    ['printList', (o: Output) => o.printList([{ id: 'm1', name: IN_USE }])],
    ['printRows', (o: Output) => o.printRows(['name', IN_USE], [[IN_USE, IN_USE]])],
    ['drawFrame', (o: Output) => o.drawFrame([`echo ${IN_USE}`])],
  ])('%s, on a terminal and to a pipe', async (_name, call) => {
    registerSecret(IN_USE);
    for (const tty of [true, false]) {
      const f = fake({ tty });
      await call(f.output);
      expect(f.out()).not.toBe('');
      expect(f.out()).not.toContain(IN_USE);
      expect(f.out()).toContain('cpk_[REDACTED]');
    }
  });

  it.each(['json', 'jsonl', 'yaml'] as const)('-o %s: masked, and the document stays valid', async (format) => {
    registerSecret(IN_USE);
    const f = fake({ settings: { format, json: true } });
    await f.output.printList([{ id: 'm1', echoed: `you sent ${IN_USE}` }]);
    expect(f.out()).not.toContain(IN_USE);
    if (format === 'json') expect(JSON.parse(f.out())).toEqual([{ id: 'm1', echoed: 'you sent cpk_[REDACTED]' }]);
    if (format === 'jsonl') expect(JSON.parse(f.out())).toEqual({ id: 'm1', echoed: 'you sent cpk_[REDACTED]' });
  });

  it('printSecret prints it exactly (the one exemption: cpk auth token), sanitized on a terminal', () => {
    registerSecret(IN_USE);
    const pipe = fake({ tty: false });
    pipe.output.printSecret(`${IN_USE}\n`);
    expect(pipe.out()).toBe(`${IN_USE}\n`);
    const tty = fake({ tty: true });
    tty.output.printSecret(`\u001b[2J${IN_USE}\n`);
    expect(tty.out()).toBe(`${IN_USE}\n`);
  });

  it('stderr masks it too', () => {
    registerSecret('opaque-secret-value');
    const f = fake({ tty: false });
    f.output.info('echo opaque-secret-value');
    expect(f.err()).toBe('echo [REDACTED]\n');
  });
});
