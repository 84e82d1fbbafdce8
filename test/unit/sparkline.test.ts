import { describe, expect, it } from 'vitest';
import { bar, sparkline } from '../../src/output/sparkline.js';

describe('sparkline', () => {
  it.each([
    [[1, 2, 3, 4, 5, 6, 7, 8], '▁▂▃▄▅▆▇█'],
    [[5, 5, 5], '▄▄▄'],
    [[0, null, 10], '▁ █'],
    [[], ''],
    [[null, undefined], '  '],
  ])('%j -> %s', (values, expected) => {
    expect(sparkline(values as number[])).toBe(expected);
  });
});

describe('bar', () => {
  it.each([
    [0, 4, '····'],
    [100, 4, '████'],
    [50, 4, '██··'],
    [150, 2, '██'],
    [Number.NaN, 2, '··'],
  ])('%d%% in %d cells -> %s', (p, w, expected) => {
    expect(bar(p, w)).toBe(expected);
  });
});
