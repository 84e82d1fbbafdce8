// The simulated history behind a monitor's report (src/emulator/reports.ts): pure, no server.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { simulateReport, type SimulatedMonitor } from '../../src/emulator/reports.js';

const base: SimulatedMonitor = {
  id: 'mon_abcdefgh2345',
  type: 'http',
  target: 'https://example.com/health',
  interval_seconds: 300,
  last_check: { status: 'up', latency_ms: 143, checked_at: '2026-11-22T19:02:10.123Z' },
};

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe('simulated reports', () => {
  it('never checked: no period, no buckets, no incidents', () => {
    expect(simulateReport({ ...base, last_check: null })).toEqual({
      uptime_percent: null,
      checks: 0,
      failures: 0,
      avg_latency_ms: null,
      period_start: null,
      period_end: null,
      latency_percentiles_ms: null,
      hourly: [],
      incidents: [],
    });
  });

  it('up: 24 hourly buckets before the hour of the last check, no failures, mean latency the last check', () => {
    const r = simulateReport(base);
    expect(r).toMatchObject({
      uptime_percent: 100,
      checks: 288,
      failures: 0,
      avg_latency_ms: 143,
      period_start: '2026-11-21T19:00:00.000Z',
      period_end: '2026-11-22T19:00:00.000Z',
      incidents: [],
    });
    expect(r.hourly).toHaveLength(24);
    expect(r.hourly[0]).toMatchObject({ hour: '2026-11-21T19:00:00.000Z', checks: 12, failures: 0 });
    expect(r.hourly[23]?.hour).toBe('2026-11-22T18:00:00.000Z');
    const p = r.latency_percentiles_ms!;
    expect(p.p50).toBeLessThanOrEqual(p.p90);
    expect(p.p90).toBeLessThanOrEqual(p.p95);
    expect(p.p95).toBeLessThanOrEqual(p.p99);
    expect(p.p99).toBeLessThanOrEqual(p.max);
    for (const b of r.hourly) expect(b.p95_latency_ms!).toBeGreaterThanOrEqual(b.avg_latency_ms! * 0.5);
  });

  it('is deterministic: the same monitor gives the same report, another monitor another one', () => {
    expect(simulateReport(base)).toEqual(simulateReport({ ...base }));
    expect(simulateReport({ ...base, id: 'mon_zzzzzzzzzzzz' }).hourly).not.toEqual(simulateReport(base).hourly);
  });

  it('flaky: the failures form incidents with start, end, duration and cause, and the buckets count them', () => {
    const r = simulateReport({ ...base, target: 'https://flaky.example.com', interval_seconds: 60 });
    expect(r).toMatchObject({ uptime_percent: 87.5, checks: 1440, failures: 180, avg_latency_ms: 143 });
    expect(r.incidents.length).toBeGreaterThanOrEqual(1);
    expect(r.incidents.length).toBeLessThanOrEqual(3);
    expect(sum(r.incidents.map((i) => i.failed_checks))).toBe(180);
    for (const i of r.incidents) {
      expect(Date.parse(i.end!) - Date.parse(i.start)).toBe(i.duration_seconds * 1000);
      expect(i.duration_seconds).toBe(i.failed_checks * 60);
      expect(['HTTP 503', 'timeout after 10s', 'HTTP 502', 'TLS handshake timeout']).toContain(i.cause);
    }
    expect(sum(r.hourly.map((b) => b.failures))).toBe(180);
  });

  it('down: every check failed, one incident still open, no latency', () => {
    const r = simulateReport({
      ...base,
      type: 'tcp',
      target: 'down.example.com:22',
      last_check: { status: 'down', latency_ms: null, checked_at: '2026-11-22T19:02:10.123Z' },
    });
    expect(r).toMatchObject({ uptime_percent: 0, checks: 288, failures: 288, avg_latency_ms: null });
    expect(r.latency_percentiles_ms).toBeNull();
    expect(r.incidents).toEqual([
      {
        start: '2026-11-21T19:00:00.000Z',
        end: null,
        duration_seconds: 86400,
        failed_checks: 288,
        cause: 'connection refused',
      },
    ]);
    expect(r.hourly.every((b) => b.failures === 12 && b.avg_latency_ms === null)).toBe(true);
  });

  it('property: the figures agree with the checks they come from, for any interval, latency and target', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 30, max: 86400 }),
        fc.integer({ min: 20, max: 300 }),
        fc.boolean(),
        fc.string({ minLength: 1, maxLength: 12 }),
        (interval, latency, flaky, id) => {
          const r = simulateReport({
            ...base,
            id,
            target: flaky ? 'https://flaky.example.com' : base.target,
            interval_seconds: interval,
            last_check: { ...base.last_check!, latency_ms: latency },
          });
          expect(sum(r.hourly.map((b) => b.checks))).toBe(r.checks);
          expect(sum(r.hourly.map((b) => b.failures))).toBe(r.failures);
          expect(sum(r.incidents.map((i) => i.failed_checks))).toBe(r.failures);
          expect(r.failures).toBe(Math.round((r.checks * (100 - r.uptime_percent!)) / 100));
          // The mean of the successful checks is the last check's latency, so the slowest is at least that.
          const ok = r.hourly.filter((b) => b.avg_latency_ms !== null);
          if (ok.length > 0) expect(r.latency_percentiles_ms!.max).toBeGreaterThanOrEqual(latency);
        },
      ),
      { numRuns: 60 },
    );
  });
});
