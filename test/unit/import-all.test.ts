// `cpk import --all`: keys, skipped monitors and the manifest edit.
import { describe, expect, it } from 'vitest';
import { addEntries, entriesToImport } from '../../src/manifest/import-all.js';
import { parseImportOptions } from '../../src/commands/manifest/import.js';
import { UsageError } from '../../src/core/errors.js';

describe('entriesToImport', () => {
  it('keys from names, unique against taken keys; managed ids and repeats left out; nulls dropped', () => {
    const { entries, skipped } = entriesToImport(
      [
        { id: 'mon_1', name: 'Checkout API', target: null, interval_seconds: 90, status: 'up' },
        { id: 'mon_2', name: 'Checkout API' },
        { id: 'mon_3', name: 'Search' },
        { id: 'mon_2', name: 'Checkout API' },
        { id: 'mon_4', name: '!!!' },
        { name: 'no id' },
      ],
      new Set(['mon_3']),
      ['checkout-api'],
    );
    expect(entries).toEqual([
      { key: 'checkout-api-2', id: 'mon_1', entry: { name: 'Checkout API', interval: '1m30s' } },
      { key: 'checkout-api-3', id: 'mon_2', entry: { name: 'Checkout API' } },
      { key: 'mon_4', id: 'mon_4', entry: { name: '!!!' } },
    ]);
    expect(skipped).toEqual([]);
  });

  it('skips a monitor that makes no valid entry, or whose id cannot be recorded, saying why', () => {
    const { entries, skipped } = entriesToImport(
      [
        { id: 'mon_1', name: 42 },
        { id: '..', name: 'dots' },
      ],
      new Set(),
      [],
    );
    expect(entries).toEqual([]);
    expect(skipped.map((s) => s.id)).toEqual(['mon_1', '..']);
    expect(skipped[1]?.reason).toBe('invalid id ".."');
  });
});

describe('addEntries', () => {
  const entries = [{ key: 'b', id: 'mon_b', entry: { name: 'B', interval: '5m' } }];
  it.each([
    [
      'keeps comments and adds below',
      '# mine\nmonitors:\n  a:\n    name: A # first\n',
      '# mine\nmonitors:\n  a:\n    name: A # first\n  b:\n    name: B\n    interval: 5m\n',
    ],
    [
      'keeps a comment on its line and a flow list as written; the rest of the file is untouched',
      '# top\nmonitors:\n  web:   # the site\n    name: Web\n    tags: [prod, payments, eu]  # where\n# later\nchannels: {}\n',
      '# top\nmonitors:\n  web:   # the site\n    name: Web\n    tags: [prod, payments, eu]  # where\n  b:\n    name: B\n    interval: 5m\n# later\nchannels: {}\n',
    ],
    [
      'follows the indentation of the section, and a file without a final newline',
      'monitors:\n    a:\n        name: A',
      'monitors:\n    a:\n        name: A\n    b:\n        name: B\n        interval: 5m\n',
    ],
    ['an empty file', '', 'monitors:\n  b:\n    name: B\n    interval: 5m\n'],
    ['monitors: with nothing', 'monitors:\n', 'monitors:\n  b:\n    name: B\n    interval: 5m\n'],
    ['monitors: {}', 'monitors: {}\n', 'monitors:\n  b:\n    name: B\n    interval: 5m\n'],
    [
      'only channels',
      'channels:\n  ch_1:\n    enabled: true\n',
      'channels:\n  ch_1:\n    enabled: true\nmonitors:\n  b:\n    name: B\n    interval: 5m\n',
    ],
    [
      'YAML flow style stays YAML',
      '{monitors: {a: {name: A}}}\n',
      '{monitors: {a: {name: A}, b: {name: B, interval: 5m}}}\n',
    ],
    [
      'JSON stays JSON',
      '{"monitors": {"a": {"name": "A"}}}',
      '{\n  "monitors": {\n    "a": {\n      "name": "A"\n    },\n    "b": {\n      "name": "B",\n      "interval": "5m"\n    }\n  }\n}\n',
    ],
  ])('%s', (_what, before, after) => {
    expect(addEntries(before, 'cpk.yaml', entries)).toBe(after);
  });
});

describe('parseImportOptions --all', () => {
  it.each([
    [[], {}, 'nothing to import: give KEY=ID pairs, or --all for every monitor no key manages'],
    [['a=mon_1'], { all: true }, '--all imports every monitor no key manages: give KEY=ID pairs or --all, not both'],
    [[], { all: true, replace: true }, '--replace applies to KEY=ID pairs, not to --all'],
  ])('%j %j: %s', (args, opts, message) => {
    expect(() => parseImportOptions(args, opts)).toThrow(new UsageError(message));
  });
  it('--all alone', () => {
    expect(parseImportOptions([], { all: true })).toMatchObject({ all: true, pairs: [] });
  });
});
