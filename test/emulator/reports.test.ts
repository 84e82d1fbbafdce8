// Reports derived from the checks the emulator ran (reports.ts, history.ts), on a Store whose clock the
// test moves: a report runs the checks due before it is made, so no test waits for the scheduler.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Store } from '../../src/emulator/store.js';
import { CheckHistory, DueQueue, HISTORY_CHECKS } from '../../src/emulator/history.js';
import type { Outage } from '../../src/emulator/faults.js';

const T0 = Date.parse('2026-11-22T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

// Reports are read as the wire gives them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

function world(timeScale = 1) {
  let now = T0;
  const outages: Outage[] = [];
  const store = new Store(undefined, { seed: 7, outages: () => outages, clock: () => now, timeScale });
  return {
    store,
    outages,
    advance: (ms: number) => (now += ms),
    now: () => now,
    create: (body: Record<string, unknown>) => store.createMonitor('acct_dev', { name: 'm', ...body }),
    report: (reportId: string): Json => store.getReport('acct_dev', reportId),
  };
}

describe('a report derived from the checks run', () => {
  it('before the first check: no checks, uptime and latency null, an empty period at the creation', () => {
    const w = world();
    const m = w.create({ target: 'https://example.com' });
    w.advance(30_000); // less than the interval: nothing is due
    expect(w.report(m.report_id)).toEqual({
      id: m.report_id,
      monitor_id: m.id,
      period: '24h',
      period_start: iso(T0),
      period_end: iso(T0),
      uptime_percent: null,
      checks: 0,
      failures: 0,
      avg_latency_ms: null,
      latency_percentiles_ms: null,
      monitor_status: 'pending',
      generated_at: iso(T0 + 30_000),
      hourly: [{ hour: iso(T0), checks: 0, failures: 0, avg_latency_ms: null, p95_latency_ms: null }],
      incidents: [],
    });
  });

  it('up, then an outage: uptime between 0 and 100, one incident opened and then closed, under --time-scale', () => {
    const w = world(60); // a simulated hour is a minute; a 60 s interval is a second
    const m = w.create({ target: 'https://shop.example.com', interval_seconds: 60 });
    w.advance(10_000);
    expect(w.report(m.report_id)).toMatchObject({ checks: 10, failures: 0, uptime_percent: 100, incidents: [] });
    w.outages.push({ target: 'shop.example.com', outcome: 'down' });
    w.advance(5_000);
    const during = w.report(m.report_id);
    expect(during).toMatchObject({
      period_start: iso(T0), // never before the monitor's creation, though a simulated day is 24 minutes
      checks: 15,
      failures: 5,
      uptime_percent: 66.67,
      monitor_status: 'down',
      incidents: [{ start: iso(T0 + 11_000), end: null, duration_seconds: 4, failed_checks: 5, cause: 'outage' }],
    });
    expect(during.uptime_percent).toBeGreaterThan(0);
    expect(during.uptime_percent).toBeLessThan(100);
    w.outages.splice(0);
    w.advance(2_000);
    const after = w.report(m.report_id);
    expect(after).toMatchObject({ checks: 17, failures: 5, uptime_percent: 70.59, monitor_status: 'up' });
    expect(after.incidents).toEqual([
      { start: iso(T0 + 11_000), end: iso(T0 + 16_000), duration_seconds: 5, failed_checks: 5, cause: 'outage' },
    ]);
    // The first simulated hour (a minute of the wall clock) holds every check so far.
    expect(after.hourly).toEqual([expect.objectContaining({ hour: iso(T0), checks: 17, failures: 5 })]);
    const latencies = w.store.checkHistory(m.id)!.flatMap((c) => (c.latency_ms === null ? [] : [c.latency_ms]));
    expect(after.avg_latency_ms).toBe(Math.round(sum(latencies) / latencies.length));
    expect(after.latency_percentiles_ms.max).toBe(Math.max(...latencies));
  });

  it('reads the same until the next check runs (but for generated_at): a watch sees a change only then', () => {
    const w = world();
    const m = w.create({ target: 'https://example.com', interval_seconds: 300 });
    w.advance(300_000);
    const first = w.report(m.report_id);
    w.advance(299_000);
    expect({ ...w.report(m.report_id), generated_at: 0 }).toEqual({ ...first, generated_at: 0 });
    w.advance(1_000);
    expect(w.report(m.report_id)).toMatchObject({ checks: 2, period_end: iso(T0 + 600_000) });
  });

  it('the period is the last 24 hours once the monitor is older: hourly checks, 24 of them in 24 buckets', () => {
    const w = world();
    const m = w.create({ target: 'https://example.com', interval_seconds: 3600 });
    for (let h = 0; h < 30; h++) {
      w.advance(3_600_000);
      if (h === 10) w.report(m.report_id); // reading on the way changes nothing
    }
    const r = w.report(m.report_id);
    expect(r).toMatchObject({
      period_start: iso(T0 + 6 * 3_600_000),
      period_end: iso(T0 + 30 * 3_600_000),
      checks: 24,
      failures: 0,
      uptime_percent: 100,
    });
    expect(r.hourly).toHaveLength(24);
    expect(r.hourly.map((b: { checks: number }) => b.checks)).toEqual(new Array(24).fill(1));
    expect(r.hourly[0].hour).toBe(iso(T0 + 6 * 3_600_000));
  });

  it('a target that is down from the start: 0, one open incident with its cause', () => {
    const w = world();
    const m = w.create({ type: 'tcp', target: 'down.example.com:22', interval_seconds: 60 });
    w.advance(180_000);
    expect(w.report(m.report_id)).toMatchObject({
      checks: 3,
      failures: 3,
      uptime_percent: 0,
      avg_latency_ms: null,
      latency_percentiles_ms: null,
      incidents: [
        { start: iso(T0 + 60_000), end: null, duration_seconds: 120, failed_checks: 3, cause: 'connection refused' },
      ],
    });
  });

  it('the summary averages what the monitors ran; a restored state starts its history again', () => {
    const w = world();
    const up = w.create({ target: 'https://example.com', interval_seconds: 60 });
    const down = w.create({ target: 'https://down.example.com', interval_seconds: 60 });
    w.create({ target: 'https://paused.example.com', paused: true });
    w.advance(120_000);
    expect(w.report('rpt_summary')).toMatchObject({ uptime_percent: 50, checks: 4, failures: 2 });
    expect(w.report(up.report_id).checks).toBe(2);

    const copy = world();
    copy.advance(630_000);
    copy.store.restore(w.store.snapshot());
    const restoredAt = iso(copy.now());
    expect(copy.report(down.report_id)).toMatchObject({ period_start: restoredAt, checks: 0, uptime_percent: null });
    copy.advance(60_000);
    expect(copy.report(down.report_id)).toMatchObject({ period_start: restoredAt, checks: 1, uptime_percent: 0 });
  });
});

describe('the check history', () => {
  it('keeps the last HISTORY_CHECKS in time order, found by time across the ring', () => {
    const h = new CheckHistory();
    const n = HISTORY_CHECKS + 123;
    for (let i = 0; i < n; i++) h.push(i * 1000, i % 5 === 0 ? null : i % 300, i % 2 ? 'a' : 'b');
    expect(h.length).toBe(HISTORY_CHECKS);
    expect(h.run).toBe(n);
    expect(h.entry(0)).toEqual({ at: 123_000, n: 123, latency: 123, cause: null });
    expect(h.entry(h.length - 1).n).toBe(n - 1);
    expect(h.entry(2)).toEqual({ at: 125_000, n: 125, latency: null, cause: 'a' });
    expect(h.firstFrom(0)).toBe(0);
    expect(h.firstFrom(1000.5 * 1000)).toBe(1001 - 123);
    expect(h.firstFrom(n * 1000)).toBe(h.length);
  });
});

describe('the schedule', () => {
  it('property: the queue gives back what is due by a time, earliest first, and keeps the rest', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 1000 }), { maxLength: 60 }),
        fc.integer({ min: 0, max: 1000 }),
        (dues, at) => {
          const queue = new DueQueue<number>();
          dues.forEach((due, i) => queue.push(due, i));
          const taken: number[] = [];
          for (let e = queue.popDue(at); e; e = queue.popDue(at)) taken.push(e.due);
          expect(taken).toEqual(dues.filter((d) => d <= at).sort((a, b) => a - b));
          expect(queue.size).toBe(dues.filter((d) => d > at).length);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('a tick runs what fell due, for monitors new, changed, restored or never read', () => {
    const w = world();
    const a = w.create({ target: 'https://a.example.com', interval_seconds: 60 });
    const b = w.create({ target: 'https://b.example.com', interval_seconds: 120 });
    w.advance(120_000);
    expect(w.store.runDueChecks()).toBe(3); // a twice, b once
    w.store.updateMonitor('acct_dev', w.store.getMonitor('acct_dev', b.id)!, { interval_seconds: 60 });
    expect(w.store.deleteMonitor('acct_dev', a.id)).toBe(true);
    w.advance(60_000);
    expect(w.store.runDueChecks()).toBe(1); // b, on its new interval; a is gone
    expect(w.store.checkHistory(b.id)?.map((c) => c.checked_at)).toEqual([iso(T0 + 120_000), iso(T0 + 180_000)]);
  });
});

describe('pages of reports', () => {
  it('property: paging GET /reports by cursor gives every report once, in id order, the summary in its place', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 1, max: 5 }), fc.nat(), (count, limit, seed) => {
        let state = seed;
        const store = new Store(() => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31, {
          seed: 1,
          outages: () => [],
        });
        const ids = ['rpt_summary'];
        for (let i = 0; i < count; i++) ids.push(store.createMonitor('acct_dev', { name: `m${i}` }).report_id);
        const seen: string[] = [];
        let after: string | undefined;
        for (let pages = 0; pages <= ids.length; pages++) {
          const { page, more } = store.reportsAfter('acct_dev', after, limit);
          expect(page.length).toBeLessThanOrEqual(limit);
          seen.push(...page.map((r) => String(r.id)));
          if (!more) break;
          expect(page.length).toBe(limit);
          after = seen.at(-1);
        }
        expect(seen).toEqual(ids.sort());
      }),
      { numRuns: 100 },
    );
  });
});
