// In-memory state of the emulated service: accounts, their monitors and
// channels, and the reports derived from monitors. Everything is keyed by
// account first, which is what makes cross-account access a plain "not found".
import { randomInt } from 'node:crypto';
import { copyJson, setOwn } from '../core/json.js';
import {
  DEFAULT_INTERVAL,
  DEFAULT_MONITOR_TYPE,
  ID_ALPHABET,
  ID_LENGTH,
  MONITOR_ID_PREFIX,
  MONITOR_STATUSES,
  MONITOR_WRITABLE_FIELDS,
  REPORT_ID_PREFIX,
  REPORT_PERIOD,
  SUMMARY_REPORT_ID,
  type ChannelRecord,
  type MonitorStatus,
  type MonitorType,
} from './model.js';
import { simulateCheck } from './checks.js';
import { publicDocument } from './openapi.js';
import type { Outage } from './faults.js';
import { monitorReportBody, reportFigures } from './reports.js';

export interface LastCheck {
  status: 'up' | 'down';
  latency_ms: number | null;
  checked_at: string;
}

export interface MonitorRecord {
  name: string;
  type: MonitorType;
  target: string | null;
  interval_seconds: number;
  paused: boolean;
  id: string;
  status: MonitorStatus;
  created_at: string;
  updated_at: string;
  last_check: LastCheck | null;
  report_id: string;
  extras: Record<string, unknown>;
}

/** What `cpk emulator --persist FILE` writes: monitors and channels of each account, and every id issued. */
export interface PersistedState {
  version: 1;
  accounts: Record<string, { monitors: MonitorRecord[]; channels: ChannelRecord[] }>;
  issued_ids: string[];
  /** Which journal continues this state (`--persist`); absent in exports. */
  journal_generation?: number;
}

/** A `--persist` journal line: what changed as it now is (or its deletion), so a replay twice does no harm. */
type JournalRecord =
  | { account: string; monitor: MonitorRecord }
  | { account: string; deleted: string }
  | { account: string; channel: ChannelRecord };

interface AccountState {
  suspended: boolean;
  monitors: Map<string, MonitorRecord>;
  channels: Map<string, ChannelRecord>;
}

const now = () => new Date().toISOString();

/** The accounts and the channels each starts with, as the document lists them (channels cannot be created). */
const SEEDED = publicDocument['x-emulator'] as {
  accounts: Array<{ id: string; suspended: boolean }>;
  'seeded-channels': ChannelRecord[];
};

/** Checks kept per monitor for `GET /__emulator/checks`: a bounded window. */
const CHECK_HISTORY = 100;
/** Checks run for one monitor in one round at most. */
const CATCH_UP = 100;

/** A monitor body's known fields, and the client's other fields (kept verbatim, "__proto__" as data). */
function splitMonitorBody(body: Record<string, unknown>) {
  const fields: Partial<MonitorRecord> = {};
  const extras: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body))
    setOwn((MONITOR_WRITABLE_FIELDS as readonly string[]).includes(key) ? fields : extras, key, value);
  return { fields, extras };
}

/** A fresh copy of a stored monitor, or undefined when it does not fit; spreads keep "__proto__" as data. */
function loadMonitor(m: unknown): MonitorRecord | undefined {
  const monitor = m as MonitorRecord | null;
  if (typeof monitor?.id !== 'string' || typeof monitor.extras !== 'object' || monitor.extras === null)
    return undefined;
  return { ...monitor, extras: { ...monitor.extras } };
}

export class Store {
  private readonly accounts = new Map<string, AccountState>();
  /** Every monitor id ever issued, so a deleted id is never reused. */
  private readonly issuedIds = new Set<string>();
  /** Grows by one with every change of the state: what `--persist` compares to know what is on disk. */
  version = 0;
  /** What changed since the last takeChanges(): one journal record per monitor or channel, by account and id. */
  private readonly changes = new Map<string, JournalRecord>();
  /** The whole state was replaced (restore, reset) since the last takeChanges(). */
  private replaced = false;

  /** Per monitor: checks run so far (the n of the next seeded outcome), and the last CHECK_HISTORY of them. */
  private readonly checks = new Map<string, { run: number; last: Array<LastCheck & { n: number }> }>();

  constructor(
    private readonly random?: () => number,
    private readonly simulation: {
      seed: number;
      outages: () => readonly Outage[];
      /** Accounts declared at start (`--token NAME:TOKEN`), beside the seeded ones. */
      accounts?: readonly string[];
    } = { seed: 0, outages: () => [] },
  ) {
    this.seedAccounts();
  }

  private seedAccounts(): void {
    const all = [...SEEDED.accounts, ...(this.simulation.accounts ?? []).map((id) => ({ id, suspended: false }))];
    for (const account of all) {
      const channels = new Map(SEEDED['seeded-channels'].map((c) => [c.id, { ...c, events: [...c.events] }]));
      const suspended = this.accounts.get(account.id)?.suspended ?? account.suspended;
      this.accounts.set(account.id, { suspended, monitors: new Map(), channels });
    }
  }

  /** Back to the seeded start; issued ids stay issued, so an id a client still holds never names a new monitor. */
  reset(): void {
    this.seedAccounts();
    this.checks.clear();
    this.version++;
    this.replaced = true;
  }

  /** Replaces the whole state with a snapshot (checked first: one that does not fit changes nothing). */
  replace(snapshot: unknown): void {
    new Store(undefined, this.simulation).restore(snapshot);
    this.reset();
    this.restore(snapshot);
  }

  /** The whole state, as JSON-safe data (`cpk emulator --persist`). */
  snapshot(): PersistedState {
    const accounts: PersistedState['accounts'] = {};
    for (const [id, state] of this.accounts)
      accounts[id] = { monitors: [...state.monitors.values()], channels: [...state.channels.values()] };
    return { version: 1, accounts, issued_ids: [...this.issuedIds] };
  }

  /** Replaces the state with a snapshot; throws (naming what is wrong) on one that does not fit. */
  restore(snapshot: unknown): void {
    const bad = (what: string) => new Error(`not an emulator state file (${what})`);
    if (typeof snapshot !== 'object' || snapshot === null) throw bad('not a JSON object');
    const state = snapshot as Partial<PersistedState>;
    if (state.version !== 1) throw bad('version is not 1');
    if (typeof state.accounts !== 'object' || state.accounts === null) throw bad('no accounts');
    if (!Array.isArray(state.issued_ids)) throw bad('no issued_ids');
    for (const [id, account] of Object.entries(state.accounts)) {
      const target = this.accounts.get(id);
      if (!target) continue; // accounts are seeded; an unknown one is ignored
      if (!Array.isArray(account?.monitors) || !Array.isArray(account.channels)) throw bad(`account ${id}`);
      target.monitors = new Map();
      for (const m of account.monitors) {
        const monitor = loadMonitor(m);
        if (!monitor) throw bad(`a monitor of ${id}`);
        target.monitors.set(monitor.id, monitor);
      }
      for (const c of account.channels)
        if (typeof c?.id === 'string' && target.channels.has(c.id)) target.channels.set(c.id, c);
    }
    for (const suffix of state.issued_ids) if (typeof suffix === 'string') this.issuedIds.add(suffix);
    this.version++;
    this.replaced = true;
  }

  /** Records a change; the record holds the live object, so it is written as it is when the journal is. */
  private mark(record: JournalRecord): void {
    this.version++;
    const id = 'monitor' in record ? record.monitor.id : 'channel' in record ? record.channel.id : record.deleted;
    this.changes.set(`${record.account}\0${id}`, record);
  }

  /** Journal records of what changed since the last call, or 'all' when the whole state was replaced. */
  takeChanges(): JournalRecord[] | 'all' {
    const changes = this.replaced ? 'all' : [...this.changes.values()];
    this.replaced = false;
    this.changes.clear();
    return changes;
  }

  /** Replays one journal record (`--persist` at start); throws on one that does not fit. */
  applyRecord(record: unknown): void {
    const bad = () => new Error('not an emulator journal record');
    if (typeof record !== 'object' || record === null) throw bad();
    const r = record as Record<string, unknown>;
    const state = typeof r.account === 'string' ? this.accounts.get(r.account) : undefined;
    if (!state) throw bad();
    const issue = (id: string) => {
      if (id.startsWith(MONITOR_ID_PREFIX)) this.issuedIds.add(id.slice(MONITOR_ID_PREFIX.length));
    };
    if (typeof r.deleted === 'string') {
      state.monitors.delete(r.deleted);
      issue(r.deleted);
    } else if (r.monitor !== undefined) {
      const monitor = loadMonitor(r.monitor);
      if (!monitor) throw bad();
      state.monitors.set(monitor.id, monitor);
      issue(monitor.id);
    } else if (typeof r.channel === 'object' && r.channel !== null) {
      const c = r.channel as ChannelRecord;
      if (typeof c.id !== 'string' || !state.channels.has(c.id)) throw bad();
      state.channels.set(c.id, c);
    } else throw bad();
    this.version++;
  }

  isSuspended(account: string): boolean {
    return this.accounts.get(account)?.suspended ?? false;
  }

  private newSuffix(): string {
    for (let attempt = 0; ; attempt++) {
      // An injected RNG may repeat itself (e.g. a constant in a test); after a
      // few collisions crypto takes over rather than loop forever.
      const random = attempt < 10 ? this.random : undefined;
      let suffix = '';
      for (let i = 0; i < ID_LENGTH; i++)
        suffix += ID_ALPHABET[random ? Math.min(Math.max(Math.floor(random() * 32), 0), 31) : randomInt(32)];
      if (!this.issuedIds.has(suffix)) return suffix;
    }
  }

  /** A new monitor of the fields given, the document's defaults filled in. */
  createMonitor(account: string, body: Record<string, unknown>): MonitorRecord {
    const { fields, extras } = splitMonitorBody(body);
    const suffix = this.newSuffix();
    this.issuedIds.add(suffix);
    const at = now();
    const record: MonitorRecord = {
      name: fields.name as string,
      type: fields.type ?? DEFAULT_MONITOR_TYPE,
      target: fields.target ?? null,
      interval_seconds: fields.interval_seconds ?? DEFAULT_INTERVAL,
      paused: fields.paused ?? false,
      id: MONITOR_ID_PREFIX + suffix,
      status: fields.paused ? 'paused' : 'pending',
      created_at: at,
      updated_at: at,
      last_check: null,
      report_id: REPORT_ID_PREFIX + suffix,
      extras,
    };
    // Only an authenticated account creates: it exists.
    (this.accounts.get(account) as AccountState).monitors.set(record.id, record);
    this.mark({ account, monitor: record });
    return record;
  }

  getMonitor(account: string, id: string): MonitorRecord | undefined {
    return this.accounts.get(account)?.monitors.get(id);
  }

  /** A pending monitor's first check, run by the get that first reads it (later ones are scheduled). */
  runPendingCheck(account: string, monitor: MonitorRecord): void {
    if (monitor.status !== 'pending') return;
    this.runCheck(account, monitor, Date.now());
  }

  /** One simulated check at time `at` (ms): its outcome becomes the monitor's status and last check. */
  private runCheck(account: string, monitor: MonitorRecord, at: number): void {
    if (monitor.paused) return;
    let checks = this.checks.get(monitor.id);
    if (!checks) this.checks.set(monitor.id, (checks = { run: 0, last: [] }));
    const n = checks.run++;
    const result = simulateCheck(monitor, n, this.simulation.seed, this.simulation.outages());
    monitor.status = result.status;
    monitor.last_check = { ...result, checked_at: new Date(at).toISOString() };
    checks.last.push({ ...monitor.last_check, n });
    if (checks.last.length > CHECK_HISTORY) checks.last.shift();
    this.mark({ account, monitor });
  }

  /** The last checks of a monitor of any account (oldest first), or undefined for no such monitor. */
  checkHistory(id: string): Array<LastCheck & { n: number }> | undefined {
    for (const state of this.accounts.values())
      if (state.monitors.has(id)) return [...(this.checks.get(id)?.last ?? [])];
    return undefined;
  }

  /**
   * Runs every check due by `at` (ms): one interval (divided by `timeScale`) after the last check, or the last
   * change when never checked; beyond CATCH_UP for one monitor, its schedule skips ahead to now.
   */
  runDueChecks(at: number, timeScale: number): number {
    let checked = 0;
    for (const [account, state] of this.accounts)
      for (const monitor of state.monitors.values()) {
        if (monitor.paused) continue;
        const step = (monitor.interval_seconds * 1000) / timeScale;
        let due = Date.parse(monitor.last_check?.checked_at ?? monitor.updated_at) + step;
        let runs = 0;
        for (; due <= at && runs < CATCH_UP; due += step, runs++) this.runCheck(account, monitor, due);
        if (due <= at) this.runCheck(account, monitor, at);
        checked += runs;
      }
    return checked;
  }

  updateMonitor(account: string, monitor: MonitorRecord, body: Record<string, unknown>): void {
    const { fields, extras } = splitMonitorBody(body);
    // A different target makes the previous result meaningless: check again.
    // A target of null (none) is a change too.
    const target = Object.hasOwn(fields, 'target') ? fields.target : monitor.target;
    const retarget = target !== monitor.target || (fields.type ?? monitor.type) !== monitor.type;
    const resumed = fields.paused === false && monitor.paused;
    Object.assign(monitor, fields);
    if (retarget) monitor.last_check = null;
    if (monitor.paused) monitor.status = 'paused';
    else if (resumed || retarget) monitor.status = 'pending';
    monitor.extras = { ...monitor.extras, ...extras }; // "__proto__" stays data (spreads define)
    monitor.updated_at = now();
    this.mark({ account, monitor });
  }

  deleteMonitor(account: string, id: string): boolean {
    const deleted = this.accounts.get(account)?.monitors.delete(id) ?? false;
    if (deleted) {
      this.mark({ account, deleted: id });
      this.checks.delete(id);
    }
    return deleted;
  }

  listMonitors(account: string): MonitorRecord[] {
    return [...(this.accounts.get(account)?.monitors.values() ?? [])];
  }

  getChannel(account: string, id: string): ChannelRecord | undefined {
    return this.accounts.get(account)?.channels.get(id);
  }

  /** Applies a body the document found valid (only the channel's writable fields). */
  updateChannel(account: string, channel: ChannelRecord, changes: Record<string, unknown>): void {
    Object.assign(channel, changes);
    this.mark({ account, channel });
  }

  listChannels(account: string): ChannelRecord[] {
    return [...(this.accounts.get(account)?.channels.values() ?? [])];
  }

  /** Every report of the account: the summary, then one per monitor. */
  listReports(account: string): Record<string, unknown>[] {
    return [this.summaryReport(account), ...this.listMonitors(account).map((m) => monitorReportBody(m, now()))];
  }

  getReport(account: string, id: string): Record<string, unknown> | undefined {
    if (id === SUMMARY_REPORT_ID) return this.summaryReport(account);
    if (!id.startsWith(REPORT_ID_PREFIX)) return undefined;
    const monitor = this.getMonitor(account, MONITOR_ID_PREFIX + id.slice(REPORT_ID_PREFIX.length));
    return monitor ? monitorReportBody(monitor, now()) : undefined;
  }

  private summaryReport(account: string): Record<string, unknown> {
    const monitors = this.listMonitors(account);
    const stats = monitors.map(reportFigures);
    const counts: Record<string, number> = { total: monitors.length };
    for (const status of MONITOR_STATUSES) counts[status] = monitors.filter((m) => m.status === status).length;
    const uptime = mean(stats.map((s) => s.uptime_percent));
    const latency = mean(stats.map((s) => s.avg_latency_ms));
    return {
      id: SUMMARY_REPORT_ID,
      monitor_id: null,
      period: REPORT_PERIOD,
      uptime_percent: uptime === null ? null : Math.round(uptime * 100) / 100,
      checks: stats.reduce((a, s) => a + s.checks, 0),
      failures: stats.reduce((a, s) => a + s.failures, 0),
      avg_latency_ms: latency === null ? null : Math.round(latency),
      generated_at: now(),
      monitors: counts,
    };
  }
}

/** The mean of the values that are not null, or null when none is. */
function mean(values: Array<number | null>): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? null : known.reduce((a, b) => a + b, 0) / known.length;
}

/** The wire form of a monitor: known fields first, then the client's extra fields as sent. */
export function monitorJson(m: MonitorRecord): Record<string, unknown> {
  return {
    id: m.id,
    name: m.name,
    type: m.type,
    target: m.target,
    interval_seconds: m.interval_seconds,
    paused: m.paused,
    status: m.status,
    created_at: m.created_at,
    updated_at: m.updated_at,
    last_check: m.last_check === null ? null : { ...m.last_check },
    report_id: m.report_id,
    ...copyJson(m.extras),
  };
}
