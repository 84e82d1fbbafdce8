// Exact numbers and bounded nesting in the JSON cpk reads (issue 12 items 11, 12).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  copyJson,
  ExactNumber,
  describeJsonError,
  isPlainObject,
  jsonEqual,
  MAX_JSON_DEPTH,
  nearestDoubles,
  parseJson,
  parseUserJson,
  stringifyJson,
} from '../../src/core/json.js';
import { toJson } from '../../src/output/json.js';
import { parseSetValue } from '../../src/parse/fields.js';
import { parseRecords } from '../../src/parse/records.js';
import { parseConfig } from '../../src/config/file.js';
import { UsageError } from '../../src/core/errors.js';

const nest = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

describe('numbers from the server, exactly as written', () => {
  it('keeps what a double cannot hold as its text; plain numbers stay numbers', () => {
    const parsed = parseJson(
      '{"a":12345678901234567890,"b":9007199254740993,"c":1e400,"d":1.50,"e":60,"f":0.1,"g":-0}',
    );
    expect(parsed.ok).toBe(true);
    const v = (parsed as { value: Record<string, unknown> }).value;
    for (const key of ['a', 'b', 'c', 'd', 'g']) expect(v[key], key).toBeInstanceOf(ExactNumber);
    expect(v.e).toBe(60);
    expect(v.f).toBe(0.1);
    expect(String(v.a)).toBe('12345678901234567890');
    expect(toJson(v, 0)).toBe(
      '{"a":12345678901234567890,"b":9007199254740993,"c":1e400,"d":1.50,"e":60,"f":0.1,"g":-0}',
    );
  });

  it('digits inside strings are left alone, and a string cannot forge an exact number', () => {
    const parsed = parseJson('{"s":"12345678901234567890","n":12345678901234567890,"t":"\\u0000cpk-exact-x:1"}');
    const v = (parsed as { value: Record<string, unknown> }).value;
    expect(v.s).toBe('12345678901234567890');
    expect(v.t).toBe('\u0000cpk-exact-x:1');
    expect(v.n).toBeInstanceOf(ExactNumber);
  });

  it('on the exact path, __proto__ is still plain data, never a prototype', () => {
    const parsed = parseJson('{"__proto__":{"polluted":1},"n":1e400}');
    const v = (parsed as { value: Record<string, unknown> }).value;
    expect(Object.hasOwn(v, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
  });

  it('a document nested deeper than the bound is refused, not rendered into a stack overflow', () => {
    expect(parseJson(nest(MAX_JSON_DEPTH)).ok).toBe(true);
    const text = nest(MAX_JSON_DEPTH + 1);
    const deep = parseJson(text);
    expect(deep.ok).toBe(false);
    expect(describeJsonError(text, (deep as { error: Error }).error)).toBe('is nested deeper than 1000 levels');
    expect(parseJson(`"${'['.repeat(5000)}"`).ok).toBe(true); // brackets in a string do not count
  });
});

describe('JSON from the user', () => {
  it('--set n=1e999 is a usage error (it would be sent as null); ordinary values parse', () => {
    expect(() => parseSetValue('1e999')).toThrow(UsageError);
    expect(() => parseSetValue('{"a":[-1e999]}')).toThrow(/too large for JSON.*--set-string/);
    expect(() => parseSetValue(`{"a":${nest(2000)}}`)).toThrow(
      /^--set value is nested deeper than 1000 levels; use --set-string to send text$/,
    );
    expect(parseSetValue('3')).toBe(3);
    expect(parseSetValue('abc')).toBe('abc');
  });

  it('--data and --from: non-finite numbers and deep nesting are usage errors, never quoted', () => {
    expect(() => parseUserJson('{"n":1e999}')).toThrow(/too large/);
    expect(() => parseRecords(`[{"name":"x","n":1e999}]`, '--from file "f"')).toThrow(
      /--from file "f" holds a number too large/,
    );
    expect(() => parseRecords(`{"a":${nest(2000)}}`, '--from -')).toThrow(
      /--from - line 1 is nested deeper than 1000 levels/,
    );
    expect(() => parseRecords(`[{"secret":"cpk_abcdefgh12345",}]`, '--from -')).toThrow(
      /^--from - is not valid JSON \(line 1, column \d+\); nothing was sent$/,
    );
  });

  it('--data nested deeply or with 1e999: a usage error naming the source', async () => {
    const { parseDataFlag } = await import('../../src/parse/data.js');
    const stdin = process.stdin;
    await expect(parseDataFlag(`{"a":${nest(3000)}}`, stdin)).rejects.toThrow(
      /^--data argument is nested deeper than 1000 levels$/,
    );
    await expect(parseDataFlag('{"n":1e999}', stdin)).rejects.toThrow(/^--data argument holds a number too large/);
  });

  it('a config file nested deeply is a config error naming the file (exit 2), not a crash', () => {
    expect(() => parseConfig(`{"profiles":${nest(5000)}}`, '/x/config.json')).toThrow(
      /config file \/x\/config.json is nested deeper than 1000 levels/,
    );
  });
});

/** JSON number text as a user may write it: any digits, a fraction, an exponent, within a double's range. */
const numberText = fc
  .tuple(
    fc.boolean(),
    fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9][0-9]{0,40}$/)),
    fc.option(fc.stringMatching(/^[0-9]{1,40}$/), { nil: undefined }),
    fc.option(fc.tuple(fc.constantFrom('e', 'E', 'e+', 'e-', 'E-'), fc.integer({ min: 0, max: 400 })), {
      nil: undefined,
    }),
  )
  .map(
    ([negative, whole, fraction, exponent]) =>
      `${negative ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}${exponent === undefined ? '' : `${exponent[0]}${exponent[1]}`}`,
  )
  .filter((text) => Number.isFinite(Number(text)));

describe('numbers from the user, kept exactly as written', () => {
  it('property: parse then serialize is the identity on numbers, alone or nested in arrays and objects', () => {
    fc.assert(
      fc.property(numberText, fc.array(numberText, { maxLength: 6 }), (one, many) => {
        expect(stringifyJson(parseUserJson(one))).toBe(one);
        const nested = `{"a":[${many.join(',')}],"b":{"c":${one},"s":"${one}"}}`;
        expect(stringifyJson(parseUserJson(nested))).toBe(nested);
        // Indented as JSON.stringify indents, each number still as written.
        expect(stringifyJson(parseUserJson(`[${one}]`), 2)).toBe(`[\n  ${one}\n]`);
      }),
    );
  });

  it('keeps 2^53+1, 20 digits, negatives, -0 and long decimals; plain numbers stay numbers', () => {
    const text =
      '[9007199254740993,12345678901234567890,-12345678901234567890,-0,0.1000000000000000055511151231257827,60,0.5]';
    const value = parseUserJson(text) as unknown[];
    expect(value.slice(0, 5).every((v) => v instanceof ExactNumber)).toBe(true);
    expect(value.slice(5)).toEqual([60, 0.5]);
    expect(stringifyJson(value)).toBe(text);
  });

  it('an ExactNumber is a number, never an object to merge into or walk', () => {
    expect(isPlainObject(new ExactNumber('1.50'))).toBe(false);
    const copied = copyJson({ a: [new ExactNumber('1.50')], __proto__x: 1 });
    expect(stringifyJson(copied)).toBe('{"a":[1.50],"__proto__x":1}');
    expect(nearestDoubles({ a: [new ExactNumber('1.50'), 'x'], b: new ExactNumber('9007199254740993') })).toEqual({
      a: [1.5, 'x'],
      b: 9007199254740992,
    });
  });
});

describe('equality, as plan compares: numbers by their exact value: numbers by their exact value', () => {
  const n = (text: string) => parseUserJson(text);
  it.each([
    ['1234567890123456789', '1234567890123456789', true],
    ['1234567890123456789', '1234567890123456800', false],
    ['9007199254740993', '9007199254740992', false],
    ['1.0', '1', true],
    ['1e2', '100', true],
    ['1.50', '1.5', true],
    ['-0', '0', true],
    ['0.0', '-0e5', true],
    ['123e-2', '1.23', true],
    ['1E+21', '1000000000000000000000', true],
    ['0.1000000000000000055511151231257827', '0.1', false],
    ['-5', '5', false],
    ['1e-400', '0', false],
    ['{"a":[1.0,{"b":1234567890123456789}]}', '{"a":[1,{"b":1234567890123456789}]}', true],
    ['{"a":[1,{"b":1234567890123456789}]}', '{"a":[1,{"b":1234567890123456788}]}', false],
    ['{"a":1,"b":2}', '{"b":2.0,"a":1}', true],
    ['{"a":1}', '{"a":1,"b":null}', false],
    ['[1,2]', '[2,1]', false],
    ['"1"', '1', false],
  ])('%s and %s: %s', (a, b, equal) => {
    expect(jsonEqual(n(a), n(b))).toBe(equal);
    expect(jsonEqual(n(b), n(a))).toBe(equal);
  });
});

describe('numbers in a manifest, YAML or JSON', () => {
  it('are kept as written, in JSON spelling; keys stay names; the schema still checks types', async () => {
    const { parseManifest } = await import('../../src/manifest/positions.js');
    const yaml =
      'monitors:\n  web:\n    name: web\n    interval: 60.0\n    a: 9007199254740993\n    b: -12345678901234567890\n' +
      '    c: -0\n    d: 0.1000000000000000055511151231257827\n    e: [+5, .5, 007, 1e3, 0x20000000000001, 0o17, 5.]\n' +
      '    f: {10: x, g: 1.50}\n    h: 60\n';
    const [entry] = parseManifest(yaml, 'm.yaml').monitors;
    expect(stringifyJson(entry?.body)).toBe(
      '{"name":"web","interval_seconds":60.0,"a":9007199254740993,"b":-12345678901234567890,"c":-0,' +
        '"d":0.1000000000000000055511151231257827,"e":[5,0.5,7,1e3,9007199254740993,15,5],' +
        '"f":{"10":"x","g":1.50},"h":60}',
    );
    const json = '{"monitors":{"web":{"name":"web","a":9007199254740993,"b":[-0,1.50]}}}';
    expect(stringifyJson(parseManifest(json, 'm.json').monitors[0]?.body)).toBe(
      '{"name":"web","a":9007199254740993,"b":[-0,1.50]}',
    );
    expect(() => parseManifest('monitors:\n  web:\n    name: web\n    interval_seconds: 1.5\n', 'm.yaml')).toThrow(
      /not a valid manifest/,
    );
  });
});

describe('a YAML alias bomb in a manifest', () => {
  it('is a manifest problem at the first alias (file:line, exit 2), not an unexpected error', async () => {
    const { ManifestError } = await import('../../src/manifest/load.js');
    const { parseManifest } = await import('../../src/manifest/positions.js');
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 8; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(10).fill(`*${prev}`).join(', ')}]`);
    }
    const text = `${levels.join('\n')}\nmonitors:\n  web:\n    name: web\n    tags: *h\n`;
    let caught: unknown;
    try {
      parseManifest(text, 'bomb.yaml');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ManifestError);
    expect((caught as InstanceType<typeof ManifestError>).exitCode).toBe(2);
    expect((caught as InstanceType<typeof ManifestError>).lines()).toEqual([
      'bomb.yaml:2:8: YAML aliases here expand to too many values (a resource exhaustion attack?); write the values out',
    ]);
  });
});
