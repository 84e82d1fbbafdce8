import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sanitize, sanitizeLine } from '../../src/core/sanitize.js';
import { toJson } from '../../src/output/json.js';
import { cellText, leafPaths, pathValue } from '../../src/output/render.js';
import { redactSecrets } from '../../src/core/redact.js';
import { colorLevel, decorate, Output } from '../../src/output/output.js';
import type { IO } from '../../src/core/io.js';

describe('sanitize', () => {
  it.each([
    ['plain', 'plain'],
    ['\u001b[2Jcleared', 'cleared'],
    ['\u001b[31mred\u001b[0m', 'red'],
    ['\u001b]0;title\u0007after', 'after'],
    ['\u001b]8;;https://evil\u001b\\link\u001b]8;;\u001b\\', 'link'],
    ['bell\u0007', 'bell'],
    ['a\u009b2Jb', 'ab'],
    ['tab\tand\nnewline', 'tab\tand\nnewline'],
    ['cr\rback', 'crback'],
    ['del\u007f', 'del'],
    ['rtl\u202eevil', 'rtlevil'],
    ['emoji ✓ ü', 'emoji ✓ ü'],
  ])('%j -> %j', (input, output) => {
    expect(sanitize(input)).toBe(output);
  });

  it('sanitizeLine folds newlines and tabs', () => {
    expect(sanitizeLine('a\nb\tc')).toBe('a b c');
  });

  it('property: output never holds a control character other than newline and tab', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        // eslint-disable-next-line no-control-regex
        expect(sanitize(s)).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
        // eslint-disable-next-line no-control-regex
        expect(sanitizeLine(s)).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
      }),
    );
  });
});

describe('toJson', () => {
  it('escapes DEL, C1 controls and JS line separators, and stays the same JSON value', () => {
    const value = { name: 'a\u007fb\u0085c\u2028d\u2029e\u001bf' };
    const text = toJson(value);
    expect(text).toBe('{\n  "name": "a\\u007fb\\u0085c\\u2028d\\u2029e\\u001bf"\n}');
    expect(JSON.parse(text)).toEqual(value);
  });

  it('property: no raw control byte, and it parses back to the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = toJson(value);
        // eslint-disable-next-line no-control-regex
        expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});

describe('server JSON with keys such as __proto__', () => {
  const key = fc.oneof(
    fc.constantFrom('__proto__', 'constructor', 'prototype', 'polluted'),
    fc.string({ maxLength: 5 }),
  );
  // JSON text, not JS objects: what the server sends.
  const jsonText: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.jsonValue({ maxDepth: 0 }).map((v) => JSON.stringify(v)),
      fc
        .array(fc.tuple(key, tie('node')), { maxLength: 4 })
        .map((pairs) => `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
    ),
  })).node;

  it('property: parsing, flattening and printing keep every key as data and no prototype changes', () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        const value = JSON.parse(text) as unknown;
        for (const key of leafPaths(value).keys()) cellText(pathValue(value, key));
        // What --json prints is the same JSON value, __proto__ keys included.
        expect(toJson(value, 0)).toBe(JSON.stringify(JSON.parse(text)));
        expect(Object.keys(Object.prototype)).toEqual([]);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
    );
  });

  it('reads a __proto__ key as a field', () => {
    const value = JSON.parse('{"__proto__":{"polluted":true},"id":"x"}') as unknown;
    expect([...leafPaths(value).keys()]).toEqual(['__proto__.polluted', 'id']);
    expect(pathValue(value, '__proto__.polluted')).toBe(true);
  });
});

describe('redactSecrets', () => {
  it.each([
    ['token cpk_dev_emulator_token here', 'token cpk_[REDACTED] here'],
    ['Authorization: Bearer abc.def-ghi', 'Authorization: Bearer [REDACTED]'],
    ['Bearer [REDACTED] stays', 'Bearer [REDACTED] stays'],
    ['must start with cpk_', 'must start with cpk_'],
    ['short cpk_abc is not a token', 'short cpk_abc is not a token'],
  ])('%j -> %j', (input, output) => {
    expect(redactSecrets(input)).toBe(output);
  });

  it('property: a cpk_ token inside any text never survives', () => {
    fc.assert(
      fc.property(fc.string(), fc.stringMatching(/^[A-Za-z0-9_]{8,40}$/), fc.string(), (before, secret, after) => {
        const token = `cpk_${secret}`;
        expect(redactSecrets(`${before} ${token} ${after}`)).not.toContain(token);
      }),
    );
  });
});

describe('decorate', () => {
  const io = (env: Record<string, string>): IO => ({
    stdout: { write: () => true },
    stderr: { write: () => true },
    stdin: process.stdin,
    stdinIsTTY: true,
    stdoutIsTTY: true,
    stderrIsTTY: true,
    env,
  });
  const on = { json: false, colorFlag: true };
  it('is on for a terminal with nothing set', () => expect(decorate(io({}), true, on)).toBe(true));
  it('is off off a terminal', () => expect(decorate(io({}), false, on)).toBe(false));
  it('is off under NO_COLOR', () => expect(decorate(io({ NO_COLOR: '1' }), true, on)).toBe(false));
  it('is off under CI', () => expect(decorate(io({ CI: 'true' }), true, on)).toBe(false));
  it('is off under --json', () => expect(decorate(io({}), true, { json: true, colorFlag: true })).toBe(false));
  it('is off under --no-color', () => expect(decorate(io({}), true, { json: false, colorFlag: false })).toBe(false));
});

describe('the color level of stdout', () => {
  const io = (env: Record<string, string>, tty: boolean): IO => ({
    stdout: { write: () => true },
    stderr: { write: () => true },
    stdin: process.stdin,
    stdinIsTTY: tty,
    stdoutIsTTY: tty,
    stderrIsTTY: tty,
    env,
  });
  const on = { json: false, colorFlag: true };
  it.each([
    [{}, true, on, 'detect'],
    [{}, false, on, 0],
    [{ FORCE_COLOR: '1' }, false, on, 1],
    [{ FORCE_COLOR: '' }, false, on, 1],
    [{ FORCE_COLOR: 'true' }, false, on, 1],
    [{ FORCE_COLOR: '3' }, false, on, 3],
    [{ FORCE_COLOR: '9' }, false, on, 3],
    [{ FORCE_COLOR: '0' }, true, on, 0],
    [{ FORCE_COLOR: 'false' }, true, on, 0],
    [{ FORCE_COLOR: '1', CI: 'true' }, false, on, 1],
    [{ FORCE_COLOR: '1', NO_COLOR: '1' }, true, on, 0],
    [{ FORCE_COLOR: '1' }, true, { json: false, colorFlag: false }, 0],
    [{ FORCE_COLOR: '1' }, true, { json: true, colorFlag: true }, 0],
    [{ CI: 'true' }, true, on, 0],
    [{ TERM: 'dumb' }, true, on, 0],
  ] as const)('%j, a terminal: %s, %j -> %s', (env, tty, settings, level) => {
    expect(colorLevel(io(env, tty), tty, settings)).toBe(level);
  });

  it('FORCE_COLOR colors a table written to a pipe, with cpk colors only', async () => {
    let text = '';
    const fake = { ...io({ FORCE_COLOR: '1' }, false), stdout: { write: (s: string) => (text += s) } };
    const out = new Output(fake, { json: false, colorFlag: true, debug: false });
    await out.printList([{ id: 'm1', status: 'up' }]);
    expect(text).toBe('m1\t\u001b[32mup\u001b[39m\n');
  });

  it('on a color terminal, one object is a bordered table with its keys bold and its status green', async () => {
    let text = '';
    const fake = { ...io({}, true), stdoutColumns: 80, stdout: { write: (s: string) => (text += s) } };
    const out = new Output(fake, { json: false, colorFlag: true, debug: false });
    await out.print({ id: 'm1', status: 'up' });
    expect(text).toBe(
      [
        '┌────────┬────┐',
        '│ \u001b[1mid\u001b[22m     │ m1 │',
        '│ \u001b[1mstatus\u001b[22m │ \u001b[32mup\u001b[39m │',
        '└────────┴────┘',
        '',
      ].join('\n'),
    );
  });
});
