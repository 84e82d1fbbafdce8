// Exact numbers and bounded nesting in the JSON cpk reads (issue 12 items 11, 12).
import { describe, expect, it } from 'vitest';
import { ExactNumber, JsonDepthError, MAX_JSON_DEPTH, parseJson, parseUserJson } from '../../src/core/json.js';
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
    const deep = parseJson(nest(MAX_JSON_DEPTH + 1));
    expect(deep.ok).toBe(false);
    expect((deep as { error: Error }).error).toBeInstanceOf(JsonDepthError);
    expect(parseJson(`"${'['.repeat(5000)}"`).ok).toBe(true); // brackets in a string do not count
  });
});

describe('JSON from the user', () => {
  it('--set n=1e999 is a usage error (it would be sent as null); ordinary values parse', () => {
    expect(() => parseSetValue('1e999')).toThrow(UsageError);
    expect(() => parseSetValue('{"a":[-1e999]}')).toThrow(/too large for JSON.*--set-string/);
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
