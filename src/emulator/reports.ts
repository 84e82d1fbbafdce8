// The simulated history behind a monitor's report: one check every
// interval_seconds over the 24 whole hours before the hour of the monitor's
// last check. Everything is a pure function of the monitor (id,
// type, target, interval and last check), so a report reads the same on every
// fetch and in every test, and the headline figures (uptime, checks, failures,
// average latency) are exactly those of the checks it is built from.
import { FLAKY_UPTIME, REPORT_PERIOD } from './model.js';
import { hash32, seededRandom } from './checks.js';

/** What a report is derived from. */
export interface SimulatedMonitor {
  id: string;
  type: string;
  target: string | null;
  interval_seconds: number;
  last_check: { status: 'up' | 'down'; latency_ms: number | null; checked_at: string } | null;
}

interface Incident {
  start: string;
  /** null: still failing at the end of the period. */
  end: string | null;
  duration_seconds: number;
  failed_checks: number;
  cause: string;
}

const HOUR = 3600;
const PERIOD_HOURS = 24;
const PERIOD_SECONDS = PERIOD_HOURS * HOUR;

const HTTP_CAUSES = ['HTTP 503', 'timeout after 10s', 'HTTP 502', 'TLS handshake timeout'];
const OTHER_CAUSES = ['connection refused', 'timeout after 10s', 'connection reset'];

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: number[], p: number): number {
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

/**
 * Where the failures fall: `failures` failed checks among the first `count - 1`
 * (the last check is the monitor's last check, which succeeded), in at most
 * three runs with at least one success between them. Returns the runs as
 * [first index, length].
 */
function failureRuns(count: number, failures: number, random: () => number): [number, number][] {
  const successes = count - failures; // includes the last check
  const runs = Math.max(0, Math.min(failures, successes, 1 + Math.floor(random() * 3)));
  if (runs === 0) return [];
  // Lengths: failures split into `runs` parts of at least 1.
  const lengths = new Array<number>(runs).fill(1);
  for (let left = failures - runs; left > 0; left--) (lengths[Math.floor(random() * runs)] as number)++;
  // Gaps: before the first run (>= 0), between runs (>= 1), after the last (>= 1, ends with the last check).
  const gaps = new Array<number>(runs + 1).fill(1);
  gaps[0] = 0;
  for (let left = successes - runs; left > 0; left--) (gaps[Math.floor(random() * (runs + 1))] as number)++;
  const out: [number, number][] = [];
  let at = 0;
  for (let r = 0; r < runs; r++) {
    at += gaps[r] as number;
    out.push([at, lengths[r] as number]);
    at += lengths[r] as number;
  }
  return out;
}

/**
 * Latencies of the successful checks: a daily wave, jitter and a few spikes,
 * scaled so their mean is exactly `mean` (the last check's latency), which is
 * the report's avg_latency_ms.
 */
function latencies(count: number, mean: number, hourOf: (i: number) => number, random: () => number): number[] {
  const phase = random() * 2 * Math.PI;
  const raw: number[] = [];
  for (let i = 0; i < count; i++) {
    const wave = 1 + 0.25 * Math.sin((2 * Math.PI * hourOf(i)) / PERIOD_HOURS + phase);
    const jitter = 0.8 + 0.4 * random();
    const spike = random() < 0.03 ? 2.5 + random() * 2 : 1;
    raw.push(wave * jitter * spike);
  }
  const rawMean = raw.reduce((a, b) => a + b, 0) / Math.max(1, count);
  const values = raw.map((v) => Math.max(1, Math.round((v * mean) / rawMean)));
  // Make the integer sum exact: one millisecond at a time on distinct checks.
  let diff = mean * count - values.reduce((a, b) => a + b, 0);
  for (let i = 0; diff !== 0 && i < 4 * count; i++) {
    const k = i % count;
    const step = diff > 0 ? 1 : -1;
    if ((values[k] as number) + step < 1) continue;
    values[k] = (values[k] as number) + step;
    diff -= step;
  }
  return values;
}

/** The wire form of a monitor's report (GET /reports/{id}), figures from simulateReport. */
export function monitorReportBody(
  monitor: SimulatedMonitor & { report_id: string; status: string },
  generatedAt: string,
): Record<string, unknown> {
  const { hourly, incidents, ...figures } = simulateReport(monitor);
  return {
    id: monitor.report_id,
    monitor_id: monitor.id,
    period: REPORT_PERIOD,
    ...figures,
    monitor_status: monitor.status,
    generated_at: generatedAt,
    hourly,
    incidents,
  };
}

/** The headline figures of a monitor's report, derived from the monitor alone; the mean latency is the last check's. */
export function reportFigures(monitor: SimulatedMonitor) {
  const check = monitor.last_check;
  if (check === null) return { uptime_percent: null, checks: 0, failures: 0, avg_latency_ms: null };
  const checks = Math.max(1, Math.floor(PERIOD_SECONDS / monitor.interval_seconds));
  if (check.status === 'down') return { uptime_percent: 0, checks, failures: checks, avg_latency_ms: null };
  const uptime = (monitor.target ?? '').toLowerCase().includes('flaky') ? FLAKY_UPTIME : 100;
  const failures = Math.round((checks * (100 - uptime)) / 100);
  return { uptime_percent: uptime, checks, failures, avg_latency_ms: check.latency_ms };
}

/** The report: its figures and the checks they come from (up to three incidents; one still open when down). */
export function simulateReport(monitor: SimulatedMonitor) {
  const check = monitor.last_check;
  const figures = reportFigures(monitor);
  if (check === null)
    return {
      period_start: null,
      period_end: null,
      ...figures,
      latency_percentiles_ms: null,
      hourly: [],
      incidents: [],
    };
  const interval = monitor.interval_seconds;
  const count = figures.checks;
  const end = Math.floor(Date.parse(check.checked_at) / 1000 / HOUR) * HOUR;
  const start = end - PERIOD_SECONDS;
  const timeOf = (i: number) => start + i * interval;
  const hourOf = (i: number) => Math.floor((i * interval) / HOUR);
  const random = seededRandom(hash32(`${monitor.id}|${monitor.target ?? ''}|report`));
  const causes = monitor.type === 'http' ? HTTP_CAUSES : OTHER_CAUSES;

  const down = check.status === 'down';
  const failures = figures.failures;
  const failed = new Uint8Array(count);
  const incidents: Incident[] = [];
  if (down) {
    failed.fill(1);
    incidents.push({
      start: iso(start),
      end: null,
      duration_seconds: PERIOD_SECONDS,
      failed_checks: count,
      cause: 'connection refused',
    });
  } else {
    for (const [first, length] of failureRuns(count, failures, random)) {
      failed.fill(1, first, first + length);
      incidents.push({
        start: iso(timeOf(first)),
        end: iso(timeOf(first + length)),
        duration_seconds: length * interval,
        failed_checks: length,
        cause: causes[Math.floor(random() * causes.length)] as string,
      });
    }
  }

  const okIndexes: number[] = [];
  for (let i = 0; i < count; i++) if (failed[i] === 0) okIndexes.push(i);
  const mean = check.latency_ms ?? 0;
  const okLatencies = down ? [] : latencies(okIndexes.length, mean, (k) => hourOf(okIndexes[k] as number), random);

  const perHour: { checks: number; failures: number; latencies: number[] }[] = Array.from(
    { length: PERIOD_HOURS },
    () => ({ checks: 0, failures: 0, latencies: [] }),
  );
  for (let i = 0; i < count; i++) {
    const bucket = perHour[hourOf(i)] as (typeof perHour)[number];
    bucket.checks++;
    if (failed[i] === 1) bucket.failures++;
  }
  for (const [k, i] of okIndexes.entries()) perHour[hourOf(i)]?.latencies.push(okLatencies[k] as number);
  const hourly = perHour.map((b, h) => {
    const sorted = [...b.latencies].sort((x, y) => x - y);
    return {
      hour: iso(start + h * HOUR),
      checks: b.checks,
      failures: b.failures,
      avg_latency_ms: sorted.length === 0 ? null : Math.round(sorted.reduce((a, v) => a + v, 0) / sorted.length),
      p95_latency_ms: sorted.length === 0 ? null : percentile(sorted, 95),
    };
  });
  const sorted = [...okLatencies].sort((x, y) => x - y);
  return {
    period_start: iso(start),
    period_end: iso(end),
    ...figures,
    latency_percentiles_ms:
      sorted.length === 0
        ? null
        : {
            p50: percentile(sorted, 50),
            p90: percentile(sorted, 90),
            p95: percentile(sorted, 95),
            p99: percentile(sorted, 99),
            max: sorted[sorted.length - 1] as number,
          },
    hourly,
    incidents,
  };
}
