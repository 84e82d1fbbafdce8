// Monitors that live (docs/emulator.md, "Monitors that live"): checks simulated, never sent. The n-th check's
// outcome is a pure function of the seed, the monitor and n, so `--seed` replays the same story. Under
// --time-scale, timestamps stay on the wall clock: a client compares them with its own ("2s ago", not "in 59m").
import { createHash } from 'node:crypto';
import { FLAKY_UPTIME } from './model.js';
import type { Outage } from './faults.js';
import { hostOfTarget } from './validation.js';

import type { LastCheck, MonitorRecord } from './store.js';

/** A 32-bit number from text (the first bytes of its SHA-256): the seeds and draws of the simulation. */
export function hash32(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0);
}

/** A uniform number in [0, 1) from text. */
const draw = (text: string): number => hash32(text) / 4294967296;

/** mulberry32: the seeded generator behind `--seed`'s monitor ids and the reports' history. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The outcome of check `n` (0 for the first) of `monitor`, as docs/emulator.md's table gives it. The first keeps
 * the latency a hash of id and target always gave, so existing reports read the same.
 */
export function simulateCheck(
  monitor: MonitorRecord,
  n: number,
  seed: number,
  outages: readonly Outage[],
): Omit<LastCheck, 'checked_at'> {
  const host = monitor.target === null ? null : hostOfTarget(monitor.type, monitor.target);
  const target = (monitor.target ?? '').toLowerCase();
  const outage = outages.find((o) => target.includes(o.target.toLowerCase()));
  if (host === null || host.toLowerCase().includes('down') || outage?.outcome === 'down')
    return { status: 'down', latency_ms: null };
  const salt = `${monitor.id}|${monitor.target}`;
  if (n > 0 && host.toLowerCase().includes('flaky') && draw(`${seed}|${salt}|${n}|flaky`) < (100 - FLAKY_UPTIME) / 100)
    return { status: 'down', latency_ms: null };
  const base = n === 0 ? 20 + (hash32(salt) % 280) : 20 + Math.floor(draw(`${seed}|${salt}|${n}`) * 280);
  const slow = host.toLowerCase().includes('slow') || outage?.outcome === 'slow';
  return { status: 'up', latency_ms: slow ? 2000 + base * 10 : base };
}

/** Why a check that came out down failed, in the words a report's incident gives. */
export function failureCause(monitor: MonitorRecord, outages: readonly Outage[]): string {
  if (monitor.target === null) return 'no target';
  if (hostOfTarget(monitor.type, monitor.target) === null) return 'invalid target';
  const target = monitor.target.toLowerCase();
  if (outages.some((o) => o.outcome === 'down' && target.includes(o.target.toLowerCase()))) return 'outage';
  if (hostOfTarget(monitor.type, monitor.target)?.toLowerCase().includes('down')) return 'connection refused';
  return monitor.type === 'http' ? 'HTTP 503' : 'timeout after 10s';
}

/** How often the emulator looks for due checks (ms of real time). */
export const TICK_MS = 100;
