// Rows fitted to a terminal's width (src/output/render.ts, fitColumns and
// rowLines with a width): text is cut with `…`, columns drop from the right,
// an id is never cut nor dropped, a header never broken; without a width
// nothing is cut.
import { describe, expect, it } from 'vitest';
import { durationText, fitColumns, PLAIN_VIEW, rowLines, type ColumnKind } from '../../src/output/render.js';
import { textWidth } from '../../src/output/text.js';

const ITEMS = [
  {
    id: 'mon_yrhwxbg45iq2',
    name: 'checkout service in production, behind the eu-west load balancer',
    status: 'up',
    type: 'http',
    target: 'https://checkout.example.com/health/deep?region=eu-west-1',
    interval_seconds: 60,
  },
  {
    id: 'mon_7titezwawoei',
    name: 'web',
    status: 'paused',
    type: 'http',
    target: 'https://a.example.com',
    interval_seconds: 300,
  },
];
const COLUMNS = ['id', 'name', 'status', 'type', 'target', 'interval_seconds'];

describe('rows that fit the terminal', () => {
  it.each([120, 80, 60, 40, 30, 20])('at %i columns: no line wider, ids whole, headers whole', (width) => {
    const lines = rowLines(ITEMS, COLUMNS, { ...PLAIN_VIEW, tty: true, width }, width);
    for (const line of lines) expect(textWidth(line)).toBeLessThanOrEqual(Math.max(width, 16));
    for (const item of ITEMS) expect(lines.join('\n')).toContain(item.id);
    const headers = ['ID', 'NAME', 'STATUS', 'TYPE', 'TARGET', 'INTERVAL'];
    for (const word of (lines[0] as string).split(/\s+/)) expect(headers).toContain(word);
  });

  it('cuts long text with an ellipsis before it drops a column', () => {
    const lines = rowLines(ITEMS, COLUMNS, { ...PLAIN_VIEW, tty: true, width: 80 }, 80);
    // Headers and values for a person: INTERVAL and 1m, not INTERVAL_SECONDS (16 cells) and 60.
    expect(lines[0]).toMatch(/^ID +NAME +STATUS +TYPE +TARGET +INTERVAL$/);
    expect(lines[1]).toMatch(/^mon_yrhwxbg45iq2 {2}checkout service … .* 1m$/);
    expect(lines[2]).toMatch(/^mon_7titezwawoei {2}web .* https:\/\/a\.example\S* +5m$/);
  });

  it('without a width (off a terminal, -o wide) nothing is cut', () => {
    const lines = rowLines(ITEMS, COLUMNS, PLAIN_VIEW);
    expect(lines[1]).toContain(ITEMS[0]!.name);
    expect(lines[1]).toContain(ITEMS[0]!.target);
  });

  it('durations read as a person reads them, on a terminal only', () => {
    expect([0, 45, 60, 90, 3600, 3960, 86_400 + 7200].map(durationText)).toEqual([
      '0s',
      '45s',
      '1m',
      '1m30s',
      '1h',
      '1h6m',
      '1d2h',
    ]);
    const items = [{ id: 'i', duration_seconds: 3960, n_seconds: 1.5 }];
    const columns = ['id', 'duration_seconds', 'n_seconds'];
    const tty = rowLines(items, columns, { ...PLAIN_VIEW, tty: true, width: 80 }, 80);
    expect(tty).toEqual(['ID  DURATION  N', 'i   1h6m      1.5']);
    // Off a terminal values are as the service sent them (and --json is exact whatever the stream).
    expect(rowLines(items, columns, PLAIN_VIEW)[1]).toBe('i   3960              1.5');
  });

  it('fitColumns: the first column after the id drops last, an id never', () => {
    const kinds: ColumnKind[] = ['id', 'cut', 'whole', 'whole'];
    expect(fitColumns(kinds, [16, 40, 6, 10], 200)).toEqual({ keep: [0, 1, 2, 3], shown: [16, 40, 6, 10] });
    expect(fitColumns(kinds, [16, 40, 6, 10], 40)).toEqual({ keep: [0, 1, 2], shown: [16, 14, 6] });
    expect(fitColumns(kinds, [16, 40, 6, 10], 28)).toEqual({ keep: [0, 1], shown: [16, 10] });
    expect(fitColumns(kinds, [16, 40, 6, 10], 10)).toEqual({ keep: [0], shown: [16] });
  });
});
