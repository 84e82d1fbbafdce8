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
import { failureCause, simulateCheck } from './checks.js';
import { publicDocument } from './openapi.js';
import type { Outage } from './faults.js';
import { CheckHistory, DueQueue } from './history.js';
import { monitorReportBody, reportFigures, reportPeriod } from './reports.js';

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
  /**
   * The monitors' ids in order, so a page of a list is found by a binary search, not a scan of the store;
   * undefined after a bulk load until a list needs it.
   */
  order?: string[];
  channels: Map<string, ChannelRecord>;
}

/** The index of the first id in sorted `ids` greater than `after` (0 with no `after`). */
function firstAfter(ids: readonly string[], after: string | undefined): number {
  if (after === undefined) return 0;
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((ids[mid] as string) <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The accounts and the channels each starts with, as the document lists them (channels cannot be created). */
const SEEDED = publicDocument['x-emulator'] as {
  accounts: Array<{ id: string; suspended: boolean }>;
  'seeded-channels': ChannelRecord[];
};

/** Checks shown per monitor by `GET /__emulator/checks`: the last ones of its history. */
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

  /** When each monitor's next check is due (ms), once known; forgotten when the monitor changes. */
  private readonly nextDue = new Map<string, number>();
  /**
   * The scheduler's queue: each monitor by its next due time, so a tick costs what falls due, not a read of
   * every monitor. An entry whose monitor changed, went or was paused since is dropped when it comes up.
   */
  private readonly schedule = new DueQueue<{ account: string; id: string }>();
  /** Monitors new, changed or loaded since the last tick: the next tick finds when they fall due. */
  private unscheduled: Array<{ account: string; monitor: MonitorRecord }> = [];
  /** Per monitor: the checks it ran (history.ts), which its report is made of. */
  private readonly checks = new Map<string, CheckHistory>();
  /** The time (ms) since which this store keeps checks: its start, or the last restore or reset. */
  private since: number;
  private readonly clock: () => number;
  private readonly timeScale: number;

  constructor(
    private readonly random?: () => number,
    private readonly simulation: {
      seed: number;
      outages: () => readonly Outage[];
      /** Accounts declared at start (`--token NAME:TOKEN`), beside the seeded ones. */
      accounts?: readonly string[];
      /** The time in ms (default Date.now): a test drives it to run checks without waiting. */
      clock?: () => number;
      /** How many times faster than the wall clock checks run (`--time-scale`, default 1). */
      timeScale?: number;
    } = { seed: 0, outages: () => [] },
  ) {
    this.clock = simulation.clock ?? Date.now;
    this.timeScale = simulation.timeScale ?? 1;
    this.since = this.clock();
    this.seedAccounts();
  }

  private now(): string {
    return new Date(this.clock()).toISOString();
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
    this.schedule.clear();
    this.nextDue.clear();
    this.unscheduled = [];
    this.since = this.clock();
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
      target.order = undefined;
      for (const m of account.monitors) {
        const monitor = loadMonitor(m);
        if (!monitor) throw bad(`a monitor of ${id}`);
        target.monitors.set(monitor.id, monitor);
        this.unscheduled.push({ account: id, monitor });
      }
      for (const c of account.channels)
        if (typeof c?.id === 'string' && target.channels.has(c.id)) target.channels.set(c.id, c);
    }
    for (const suffix of state.issued_ids) if (typeof suffix === 'string') this.issuedIds.add(suffix);
    // Checks are not part of the state: the reports of what was restored start from here.
    this.since = Math.max(this.since, this.clock());
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
    state.order = undefined;
    if (typeof r.deleted === 'string') {
      state.monitors.delete(r.deleted);
      issue(r.deleted);
    } else if (r.monitor !== undefined) {
      const monitor = loadMonitor(r.monitor);
      if (!monitor) throw bad();
      state.monitors.set(monitor.id, monitor);
      this.unscheduled.push({ account: r.account as string, monitor });
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
    const at = this.now();
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
    const state = this.accounts.get(account) as AccountState;
    state.monitors.set(record.id, record);
    this.unscheduled.push({ account, monitor: record });
    state.order?.splice(firstAfter(state.order, record.id), 0, record.id);
    this.mark({ account, monitor: record });
    return record;
  }

  getMonitor(account: string, id: string): MonitorRecord | undefined {
    return this.accounts.get(account)?.monitors.get(id);
  }

  /** A pending monitor's first check, run by the get that first reads it (later ones are scheduled). */
  runPendingCheck(account: string, monitor: MonitorRecord): void {
    if (monitor.status !== 'pending') return;
    this.runCheck(account, monitor, this.clock());
  }

  /** One simulated check at time `at` (ms): its outcome becomes the monitor's status and last check. */
  private runCheck(account: string, monitor: MonitorRecord, at: number): void {
    if (monitor.paused) return;
    let checks = this.checks.get(monitor.id);
    if (!checks) this.checks.set(monitor.id, (checks = new CheckHistory()));
    const outages = this.simulation.outages();
    const result = simulateCheck(monitor, checks.run, this.simulation.seed, outages);
    monitor.status = result.status;
    monitor.last_check = { ...result, checked_at: new Date(at).toISOString() };
    checks.push(at, result.latency_ms, result.status === 'down' ? failureCause(monitor, outages) : '');
    this.mark({ account, monitor });
  }

  /** The last checks of a monitor of any account (oldest first), or undefined for no such monitor. */
  checkHistory(id: string): Array<LastCheck & { n: number }> | undefined {
    for (const state of this.accounts.values())
      if (state.monitors.has(id)) {
        const history = this.checks.get(id);
        const out: Array<LastCheck & { n: number }> = [];
        for (let i = Math.max(0, (history?.length ?? 0) - CHECK_HISTORY); history && i < history.length; i++) {
          const { at, n, latency } = history.entry(i);
          const status = latency === null ? 'down' : 'up';
          out.push({ status, latency_ms: latency, checked_at: new Date(at).toISOString(), n });
        }
        return out;
      }
    return undefined;
  }

  /** Runs the checks of `monitor` due by `at` (ms); how many ran. */
  private catchUp(account: string, monitor: MonitorRecord, at: number): number {
    if (monitor.paused) return 0;
    // Asked at every report and every tick that takes it off the queue: the next due time is kept, not parsed again.
    const known = this.nextDue.get(monitor.id);
    if (known !== undefined && known > at) return 0;
    const step = (monitor.interval_seconds * 1000) / this.timeScale;
    let due = Date.parse(monitor.last_check?.checked_at ?? monitor.updated_at) + step;
    let runs = 0;
    for (; due <= at && runs < CATCH_UP; due += step, runs++) this.runCheck(account, monitor, due);
    if (due <= at) this.runCheck(account, monitor, at);
    const next = Date.parse(monitor.last_check?.checked_at ?? monitor.updated_at) + step;
    this.nextDue.set(monitor.id, next);
    // By id, so a deleted monitor is not held until its entry comes up.
    this.schedule.push(next, { account, id: monitor.id });
    return runs;
  }

  /**
   * Runs every check due by `at` (ms): one interval (divided by `timeScale`) after the last check, or the last
   * change when never checked; beyond CATCH_UP for one monitor, its schedule skips ahead to now.
   */
  runDueChecks(at: number = this.clock()): number {
    let checked = 0;
    for (const { account, monitor } of this.unscheduled.splice(0))
      if (this.isCurrent(account, monitor)) checked += this.catchUp(account, monitor, at);
    for (let entry = this.schedule.popDue(at); entry; entry = this.schedule.popDue(at)) {
      const { account, id } = entry.item;
      const monitor = this.accounts.get(account)?.monitors.get(id);
      if (monitor && this.nextDue.get(id) === entry.due) checked += this.catchUp(account, monitor, at);
    }
    return checked;
  }

  /** Is this the account's monitor still (not deleted, nor replaced by a restore)? */
  private isCurrent(account: string, monitor: MonitorRecord): boolean {
    return this.accounts.get(account)?.monitors.get(monitor.id) === monitor;
  }

  updateMonitor(account: string, monitor: MonitorRecord, body: Record<string, unknown>): void {
    const { fields, extras } = splitMonitorBody(body);
    // A different target makes the previous result meaningless: check again.
    // A target of null (none) is a change too.
    const target = Object.hasOwn(fields, 'target') ? fields.target : monitor.target;
    const retarget = target !== monitor.target || (fields.type ?? monitor.type) !== monitor.type;
    const resumed = fields.paused === false && monitor.paused;
    Object.assign(monitor, fields);
    this.nextDue.delete(monitor.id);
    this.unscheduled.push({ account, monitor });
    if (retarget) monitor.last_check = null;
    if (monitor.paused) monitor.status = 'paused';
    else if (resumed || retarget) monitor.status = 'pending';
    monitor.extras = { ...monitor.extras, ...extras }; // "__proto__" stays data (spreads define)
    monitor.updated_at = this.now();
    this.mark({ account, monitor });
  }

  deleteMonitor(account: string, id: string): boolean {
    const state = this.accounts.get(account);
    const deleted = state?.monitors.delete(id) ?? false;
    if (deleted) {
      const at = firstAfter(state!.order ?? [], id) - 1;
      if (state!.order?.[at] === id) state!.order.splice(at, 1);
      this.mark({ account, deleted: id });
      this.checks.delete(id);
      this.nextDue.delete(id);
    }
    return deleted;
  }

  listMonitors(account: string): MonitorRecord[] {
    return [...(this.accounts.get(account)?.monitors.values() ?? [])];
  }

  /**
   * A page of the account's monitors in id order: the first `limit` after the id `after` that `keep` accepts,
   * and whether another follows. O(log n + what it reads): the ids are kept sorted, not sorted per page.
   */
  monitorsAfter(
    account: string,
    after: string | undefined,
    limit: number,
    keep: (m: MonitorRecord) => boolean = () => true,
  ): { page: MonitorRecord[]; more: boolean } {
    const state = this.accounts.get(account);
    if (!state) return { page: [], more: false };
    const order = (state.order ??= [...state.monitors.keys()].sort());
    const page: MonitorRecord[] = [];
    for (let i = firstAfter(order, after); i < order.length; i++) {
      const monitor = state.monitors.get(order[i] as string) as MonitorRecord;
      if (!keep(monitor)) continue;
      if (page.length === limit) return { page, more: true };
      page.push(monitor);
    }
    return { page, more: false };
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

  /**
   * A page of the account's reports in id order after the report id `after`: the monitors' reports share
   * their monitors' order (the same 12 characters after a prefix of the same length), and the summary
   * takes its place among them. Only the page's reports are made, but a page holding the summary reads
   * every monitor.
   */
  reportsAfter(account: string, after: string | undefined, limit: number) {
    const monitorAfter = after === undefined ? undefined : MONITOR_ID_PREFIX + after.slice(REPORT_ID_PREFIX.length);
    const { page, more } = this.monitorsAfter(account, monitorAfter, limit);
    const ids = page.map((m) => m.report_id);
    const reports: Array<{ id: string; make: () => Record<string, unknown> }> = page.map((m) => ({
      id: m.report_id,
      make: () => this.monitorReport(account, m),
    }));
    if (after === undefined || SUMMARY_REPORT_ID > after) {
      const at = firstAfter(ids, SUMMARY_REPORT_ID);
      // After the page's last monitor, the summary belongs here only when no monitor follows.
      if (at < ids.length || !more)
        reports.splice(at, 0, { id: SUMMARY_REPORT_ID, make: () => this.summaryReport(account) });
    }
    const hasMore = more || reports.length > limit;
    return { page: reports.slice(0, limit).map((r) => r.make()), more: hasMore };
  }

  getReport(account: string, id: string): Record<string, unknown> | undefined {
    if (id === SUMMARY_REPORT_ID) return this.summaryReport(account);
    if (!id.startsWith(REPORT_ID_PREFIX)) return undefined;
    const monitor = this.getMonitor(account, MONITOR_ID_PREFIX + id.slice(REPORT_ID_PREFIX.length));
    return monitor ? this.monitorReport(account, monitor) : undefined;
  }

  /** A report as of now: the checks due by now run first, so it never lags the clock. */
  private monitorReport(account: string, monitor: MonitorRecord): Record<string, unknown> {
    const now = this.clock();
    this.catchUp(account, monitor, now);
    return monitorReportBody(monitor, this.checks.get(monitor.id), this.periodOf(monitor), now);
  }

  /** The period of a monitor's report: up to its last check, never before its creation nor before checks were kept. */
  private periodOf(monitor: MonitorRecord) {
    const history = this.checks.get(monitor.id);
    const last = history && history.length > 0 ? history.entry(history.length - 1).at : undefined;
    return reportPeriod(Math.max(this.since, Date.parse(monitor.created_at)), last, this.timeScale);
  }

  private summaryReport(account: string): Record<string, unknown> {
    const monitors = this.listMonitors(account);
    const now = this.clock();
    const stats = monitors.map((m) => {
      this.catchUp(account, m, now);
      return reportFigures(this.checks.get(m.id), this.periodOf(m));
    });
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
      generated_at: new Date(now).toISOString(),
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
