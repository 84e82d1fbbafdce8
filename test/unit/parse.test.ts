import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseDuration } from '../../src/parse/duration.js';
import { fieldsFromFlags, MAX_KEY_SEGMENTS, mergeInto, parseSetValue } from '../../src/parse/fields.js';
import { setOwn } from '../../src/core/json.js';
import { checkId } from '../../src/parse/id.js';
import { encodeSegment } from '../../src/core/http/path.js';
import { UsageError } from '../../src/core/errors.js';

describe('parseDuration', () => {
  it.each([
    ['60', 60],
    ['0', 0],
    ['90s', 90],
    ['5m', 300],
    ['1h', 3600],
    ['1h30m', 5400],
    ['1d', 86400],
    [' 45 ', 45],
  ])('%s -> %d seconds', (input, seconds) => {
    expect(parseDuration(input)).toBe(seconds);
  });

  it.each(['', 'abc', '5x', '-5', '1.5m', 'm', '5m5m', '1e3', '99999999999999999999'])(
    'refuses %j as a usage error',
    (input) => {
      expect(() => parseDuration(input)).toThrow(UsageError);
    },
  );

  it('property: n seconds written as a number or as NNs parse to n', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (n) => {
        expect(parseDuration(String(n))).toBe(n);
        expect(parseDuration(`${n}s`)).toBe(n);
      }),
    );
  });

  it('property: any string either parses to a safe non-negative integer or is a UsageError', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        try {
          const n = parseDuration(s);
          expect(Number.isSafeInteger(n) && n >= 0).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(UsageError);
        }
      }),
    );
  });
});

describe('setOwn', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'x'])(
    'makes %j an own, enumerable data property and leaves the prototype alone',
    (key) => {
      const target: Record<string, unknown> = {};
      setOwn(target, key, { polluted: 1 });
      expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(target, key)).toEqual({
        value: { polluted: 1 },
        enumerable: true,
        writable: true,
        configurable: true,
      });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      setOwn(target, key, 2);
      expect(target[key]).toBe(2);
    },
  );
});

describe('--set and --set-string', () => {
  it('types values as JSON literals when they are one, else strings', () => {
    expect(
      fieldsFromFlags({ set: ['a=true', 'b=3', 'c=null', 'd={"x":1}', 'e=hello', 'f=', 'g=[1,"2"]', 'h="quoted"'] }),
    ).toEqual({
      a: true,
      b: 3,
      c: null,
      d: { x: 1 },
      e: 'hello',
      f: '',
      g: [1, '2'],
      h: 'quoted',
    });
  });

  it('--set-string always sends a string', () => {
    expect(fieldsFromFlags({ setString: ['a=true', 'b=3', 'c=x=y'] })).toEqual({ a: 'true', b: '3', c: 'x=y' });
  });

  it('dotted keys nest', () => {
    expect(fieldsFromFlags({ set: ['notify.email=x', 'notify.slack.channel=ops', 'n.count=2'] })).toEqual({
      notify: { email: 'x', slack: { channel: 'ops' } },
      n: { count: 2 },
    });
  });

  it.each([['noequals'], ['=v'], ['a..b=1'], ['.a=1'], ['a.=1']])('refuses %s', (item) => {
    expect(() => fieldsFromFlags({ set: [item] })).toThrow(UsageError);
  });

  it(`takes a key of ${MAX_KEY_SEGMENTS} segments and refuses deeper ones with a usage error, never a stack overflow`, () => {
    const key = (n: number) => Array.from({ length: n }, () => 'k').join('.');
    let node: unknown = fieldsFromFlags({ set: [`${key(MAX_KEY_SEGMENTS)}=1`] });
    for (let i = 0; i < MAX_KEY_SEGMENTS; i++) node = (node as Record<string, unknown>).k;
    expect(node).toBe(1);
    for (const n of [MAX_KEY_SEGMENTS + 1, 1000, 3000, 5000]) {
      for (const flags of [{ set: [`${key(n)}=1`] }, { setString: [`${key(n)}=x`] }])
        expect(() => fieldsFromFlags(flags)).toThrow(
          new UsageError(
            `invalid ${flags.set ? '--set' : '--set-string'} key "${key(21).slice(0, 40)}…": ${n} segments, more than the ${MAX_KEY_SEGMENTS} a key may have`,
          ),
        );
    }
  });

  it('refuses nesting under a scalar', () => {
    expect(() => fieldsFromFlags({ set: ['a=1', 'a.b=2'] })).toThrow(/already set/);
  });

  it('treats __proto__ as data, never as a prototype change', () => {
    const out = fieldsFromFlags({ set: ['__proto__.polluted=1', 'constructor.prototype.x=2'] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(out))).toEqual(
      JSON.parse('{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":2}}}'),
    );
  });

  it('merges flags over --data deeply', () => {
    const base = { name: 'a', notify: { email: 'x', slack: 'y' } };
    expect(mergeInto(base, { notify: { email: 'z' }, interval_seconds: 5 })).toEqual({
      name: 'a',
      notify: { email: 'z', slack: 'y' },
      interval_seconds: 5,
    });
  });

  it('property: a value parses back to itself when given as JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(parseSetValue(text)).toEqual(JSON.parse(text));
      }),
    );
  });

  it('property: --set key=anything never throws for a simple key, and keeps the key', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z_][a-z0-9_]{0,10}$/), fc.string(), (key, raw) => {
        const out = fieldsFromFlags({ set: [`${key}=${raw}`], setString: [] });
        expect(Object.keys(out)).toEqual([key]);
        const expected = (() => {
          try {
            return JSON.parse(raw);
          } catch {
            return raw;
          }
        })();
        expect(out[key]).toEqual(expected);
      }),
    );
  });
});

describe('--set: property tests over untrusted keys', () => {
  const segment = fc.oneof(
    fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'),
    fc.string({ minLength: 1, maxLength: 6 }),
  );

  it('property: any item either builds a plain object holding the value at its path, or is a UsageError', () => {
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.string(), (path, raw) => {
        const item = `${path.join('.')}=${raw}`;
        let out: Record<string, unknown>;
        try {
          out = fieldsFromFlags({ set: [item] });
        } catch (error) {
          expect(error).toBeInstanceOf(UsageError);
          return;
        }
        // The key ends at the first "=", so a segment holding "=" moves the split.
        const eq = item.indexOf('=');
        const keys = item.slice(0, eq).split('.');
        let node: unknown = out;
        for (const key of keys) {
          expect(Object.prototype.hasOwnProperty.call(node, key)).toBe(true);
          node = (node as Record<string, unknown>)[key];
        }
        expect(node).toEqual(parseSetValue(item.slice(eq + 1)));
        expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
        // Nothing was written to Object.prototype on the way.
        expect(Object.keys(Object.prototype)).toEqual([]);
      }),
    );
  });

  it('property: merging any JSON over --data never changes a prototype', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(segment, fc.jsonValue()), { maxLength: 5 }),
        fc.array(fc.tuple(segment, fc.jsonValue()), { maxLength: 5 }),
        (a, b) => {
          const toObject = (pairs: Array<[string, unknown]>) =>
            JSON.parse(`{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`) as Record<
              string,
              unknown
            >;
          const merged = mergeInto(toObject(a), toObject(b));
          expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
          expect(Object.keys(Object.prototype)).toEqual([]);
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        },
      ),
    );
  });
});

describe('ids as path segments', () => {
  it.each(['', '.', '..', 'a\u0000b', 'x\ny', '\u001b[2J', 'a\u0085'])('refuses %j', (id) => {
    expect(() => checkId(id)).toThrow(UsageError);
  });

  it('encodes a/b?c#d%e as one segment', () => {
    expect(encodeSegment('a/b?c#d%e')).toBe('a%2Fb%3Fc%23d%25e');
  });

  it('property: an accepted id encodes to one segment that decodes back to itself', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1 }), (id) => {
        let ok = true;
        try {
          checkId(id);
        } catch {
          ok = false;
        }
        fc.pre(ok);
        const encoded = encodeSegment(id);
        expect(encoded).not.toMatch(/[/?#]/);
        expect(encoded).not.toBe('.');
        expect(encoded).not.toBe('..');
        expect(decodeURIComponent(encoded)).toBe(id);
        const url = new URL(`https://h.example/v1/monitors/${encoded}`);
        expect(url.pathname.split('/').length).toBe(4);
      }),
    );
  });
});
