// A monitor's report, derived from the checks the emulator ran (history.ts): its period is the 24 simulated
// hours up to its last check (so a report changes when a check runs, and only then), never starting before
// the monitor was created (or before this emulator began to keep its checks: history is not saved with the
// state), and every figure (uptime, checks, failures,
// latencies, hourly buckets, incidents) counts the checks of that period and nothing else. Under
// --time-scale X a simulated hour is 3600 / X seconds of the wall clock, on which timestamps stay.
import { REPORT_PERIOD } from './model.js';
import type { CheckHistory } from './history.js';

/** The span a report covers, in ms of the wall clock. */
export interface ReportPeriod {
  start: number;
  end: number;
  /**
   * A full 24 hours leaves out a check at its very start, so that 24 hours of hourly checks are 24 checks;
   * a period that starts at the monitor's creation counts a check made then.
   */
  startsAfter: boolean;
  /** One simulated hour. */
  hourMs: number;
}

/** Hours in a report's period. */
export const PERIOD_HOURS = 24;

interface Incident {
  start: string;
  /** null: still failing at the end of the period. */
  end: string | null;
  duration_seconds: number;
  failed_checks: number;
  cause: string;
}

const iso = (ms: number) => new Date(ms).toISOString();
const round2 = (x: number) => Math.round(x * 100) / 100;

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: number[], p: number): number {
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

/**
 * The period of the report of a monitor tracked since `since` (ms) whose last check was at `last` (none yet:
 * an empty period at `since`), its checks `timeScale` times faster than the wall clock.
 */
export function reportPeriod(since: number, last: number | undefined, timeScale: number): ReportPeriod {
  const hourMs = 3_600_000 / timeScale;
  const end = Math.max(since, last ?? since);
  const full = end - PERIOD_HOURS * hourMs;
  return { start: Math.max(since, full), end, hourMs, startsAfter: full > since };
}

/** The checks of the period, in time order. */
function checksIn(history: CheckHistory | undefined, period: ReportPeriod) {
  const out = [];
  if (history)
    for (let i = history.firstFrom(period.start); i < history.length; i++) {
      const check = history.entry(i);
      if (check.at === period.start && period.startsAfter) continue;
      if (check.at > period.end) break;
      out.push(check);
    }
  return out;
}

/** The headline figures of a monitor's report: uptime null, and no latency, before its first check. */
export function reportFigures(history: CheckHistory | undefined, period: ReportPeriod) {
  const checks = checksIn(history, period);
  const latencies = checks.flatMap((c) => (c.latency === null ? [] : [c.latency]));
  const failures = checks.length - latencies.length;
  return {
    uptime_percent: checks.length === 0 ? null : round2((latencies.length / checks.length) * 100),
    checks: checks.length,
    failures,
    avg_latency_ms: latencies.length === 0 ? null : Math.round(latencies.reduce((a, b) => a + b, 0) / latencies.length),
  };
}

/** The wire form of a monitor's report (GET /reports/{id}). */
export function monitorReportBody(
  monitor: { id: string; report_id: string; status: string },
  history: CheckHistory | undefined,
  period: ReportPeriod,
  now: number,
): Record<string, unknown> {
  const checks = checksIn(history, period);
  // One bucket per simulated hour of the period, the last one closed by its end (which belongs to it).
  const buckets = Math.min(PERIOD_HOURS, Math.max(1, Math.ceil((period.end - period.start) / period.hourMs)));
  const perHour = Array.from({ length: buckets }, () => ({ checks: 0, failures: 0, latencies: [] as number[] }));
  const incidents: Incident[] = [];
  let open: Incident | undefined;
  let openedAt = 0;
  for (const check of checks) {
    // Buckets hold their start, but a full period's buckets hold their end (its start is left out).
    const offset = (check.at - period.start) / period.hourMs;
    const index = period.startsAfter ? Math.ceil(offset) - 1 : Math.floor(offset);
    const bucket = perHour[Math.max(0, Math.min(buckets - 1, index))]!;
    bucket.checks++;
    if (check.latency === null) {
      bucket.failures++;
      if (open) open.failed_checks++;
      else {
        openedAt = check.at;
        open = { start: iso(check.at), end: null, duration_seconds: 0, failed_checks: 1, cause: check.cause ?? '' };
        incidents.push(open);
      }
    } else {
      bucket.latencies.push(check.latency);
      if (open) {
        // A run of failures ends with the next check that succeeds.
        open.end = iso(check.at);
        open.duration_seconds = Math.round((check.at - openedAt) / 1000);
        open = undefined;
      }
    }
  }
  if (open) open.duration_seconds = Math.round((period.end - openedAt) / 1000);
  const all = perHour.flatMap((b) => b.latencies).sort((x, y) => x - y);
  const figures = reportFigures(history, period);
  return {
    id: monitor.report_id,
    monitor_id: monitor.id,
    period: REPORT_PERIOD,
    period_start: iso(period.start),
    period_end: iso(period.end),
    ...figures,
    latency_percentiles_ms:
      all.length === 0
        ? null
        : {
            p50: percentile(all, 50),
            p90: percentile(all, 90),
            p95: percentile(all, 95),
            p99: percentile(all, 99),
            max: all[all.length - 1] as number,
          },
    monitor_status: monitor.status,
    generated_at: iso(now),
    hourly: perHour.map((b, h) => {
      const sorted = b.latencies.sort((x, y) => x - y);
      return {
        hour: iso(period.start + h * period.hourMs),
        checks: b.checks,
        failures: b.failures,
        avg_latency_ms: sorted.length === 0 ? null : Math.round(sorted.reduce((a, v) => a + v, 0) / sorted.length),
        p95_latency_ms: sorted.length === 0 ? null : percentile(sorted, 95),
      };
    }),
    incidents,
  };
}
