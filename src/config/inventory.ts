// The local inventory: the monitors this machine knows of (docs/monitors.md, "Finding your monitors"),
// and the channels a list showed it, for completion. The service may declare no list operation, and then a
// monitor's id is the only way back to it. One file per base URL and token fingerprint, never the token; a
// command records in memory and writes once when it ends (InventoryRecorder.flush), and a file that cannot
// be read or written is reported once under --debug while the command goes on.
//
// What is known is the service's word, kept only while nothing the service says contradicts it: an id
// answered 404 is forgotten, and so is every id a whole list (read to its end, unfiltered) did not hold,
// as after an emulator restarted with a fresh state.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readFileText } from '../core/io.js';
import { dataDir, type Env } from '../core/paths.js';

export const MAX_ENTRIES = 20_000;
/** A recorder trims to MAX_ENTRIES ids once it holds this many more (InventoryRecorder.record). */
export const TRIM_BATCH = 5_000;
const LOCK_WAIT_MS = 10_000;
const LOCK_STALE_MS = 10_000;

interface StoredEntry {
  /** For completion: the name cpk last saw, and the report's id. */
  name?: string;
  report?: string;
  /** When cpk last saw it (ms since the epoch). */
  seen: number;
}

export type InventoryEntry = StoredEntry & { id: string };

type Monitors = Record<string, StoredEntry>;

/** What the file keeps, each in its own object: `monitors` (as every version wrote it) and `channels`. */
export type Kind = 'monitors' | 'channels';
const KINDS: readonly Kind[] = ['monitors', 'channels'];
type Known = Record<Kind, Monitors>;

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

/** A token's fingerprint: never the token, enough to keep two accounts apart. */
export function tokenFingerprint(token: string | undefined): string {
  return token ? sha256Hex(token).slice(0, 16) : 'anonymous';
}

export function inventoryPath(baseUrl: string, token: string | undefined, env: Env): string {
  const key = sha256Hex(`${baseUrl}\n${tokenFingerprint(token)}`).slice(0, 16);
  return join(inventoryDir(env), `${key}.json`);
}

function inventoryDir(env: Env): string {
  return join(dataDir(env), 'inventory');
}

/** A file's entries for this base URL and, when given, token fingerprint (none if another's); throws if unreadable. */
function readKnown(path: string, baseUrl: string, fingerprint?: string, only?: Record<Kind, string[]>): Known {
  const known: Known = { monitors: Object.create(null) as Monitors, channels: Object.create(null) as Monitors };
  let text: string;
  try {
    text = readFileText(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return known;
    throw error;
  }
  const parsed = JSON.parse(text) as { baseUrl?: unknown; token?: unknown } & Partial<Record<Kind, unknown>>;
  if (parsed.baseUrl !== baseUrl || typeof parsed.monitors !== 'object') return known;
  if (typeof parsed.token !== 'string' || (fingerprint !== undefined && parsed.token !== fingerprint)) return known;
  for (const kind of KINDS) {
    const stored = (typeof parsed[kind] === 'object' && parsed[kind] !== null ? parsed[kind] : {}) as Monitors;
    for (const id of only?.[kind] ?? Object.keys(stored)) {
      const entry = Object.hasOwn(stored, id) ? stored[id] : undefined;
      if (!entry || typeof entry.seen !== 'number') continue;
      const kept: StoredEntry = { seen: entry.seen };
      if (typeof entry.name === 'string') kept.name = entry.name;
      if (typeof entry.report === 'string') kept.report = entry.report;
      known[kind][id] = kept;
    }
  }
  return known;
}

function byRecency(entries: InventoryEntry[]): InventoryEntry[] {
  return entries.sort((a, b) => b.seen - a.seen || (a.id < b.id ? -1 : 1));
}

type Change =
  | { op: 'seen'; id: string; name: string | undefined; report: string | undefined; at: number }
  | { op: 'gone'; id: string };

/** Whether the file is worth writing for the change. */
function apply(monitors: Monitors, change: Change): boolean {
  const previous = monitors[change.id];
  if (change.op === 'gone') {
    delete monitors[change.id];
    return previous !== undefined;
  }
  // An update's answer may hold only id and status: keep the name cpk knew.
  const name = change.name ?? previous?.name;
  const report = change.report ?? previous?.report;
  const next: StoredEntry = { seen: change.at };
  if (name !== undefined) next.name = name;
  if (report !== undefined) next.report = report;
  monitors[change.id] = next;
  // Refresh "seen" at most once an hour: order by recency without a write per get.
  return !previous || name !== previous.name || report !== previous.report || change.at - previous.seen > 3_600_000;
}

/**
 * Collects what one command saw and writes it once, at the end (never throws). What it holds is bounded
 * as the file is: the last change of each id, the most recently seen MAX_ENTRIES kept (TRIM_BATCH more
 * between trims). A list of a million monitors then costs the memory of MAX_ENTRIES, and the file keeps
 * the ones it would have kept of all of them (the least recently seen go first).
 */
export class InventoryRecorder {
  /** By kind, then id, the least recently changed first (an id changed again moves to the end). */
  private changes: Record<Kind, Map<string, Change>> = { monitors: new Map(), channels: new Map() };
  /** The kinds whose whole list the service gave during this command, and when that list was asked for. */
  private readonly whole = new Map<Kind, number>();
  private readonly fingerprint: string;
  readonly path: string;
  constructor(
    private readonly baseUrl: string,
    token: string | undefined,
    env: Env,
    private readonly debug: (line: string) => void = () => {},
    private readonly now: () => number = Date.now,
  ) {
    this.fingerprint = tokenFingerprint(token);
    this.path = inventoryPath(baseUrl, token, env);
  }

  /** Most recently seen first (throws when unreadable). */
  entries(kind: Kind = 'monitors'): InventoryEntry[] {
    return byRecency(
      Object.entries(readKnown(this.path, this.baseUrl, this.fingerprint)[kind]).map(([id, e]) => ({ id, ...e })),
    );
  }

  seen(monitor: unknown, kind: Kind = 'monitors'): void {
    if (monitor === null || typeof monitor !== 'object') return;
    const { id, name, report_id: report } = monitor as { id?: unknown; name?: unknown; report_id?: unknown };
    if (typeof id !== 'string' || id === '') return;
    // An answer without a name (an update's) keeps the name seen earlier in this command, as apply() keeps the file's.
    const earlier = this.changes[kind].get(id);
    const before = earlier?.op === 'seen' ? earlier : undefined;
    this.record(kind, {
      op: 'seen',
      id,
      name: typeof name === 'string' ? name : before?.name,
      report: typeof report === 'string' && kind === 'monitors' ? report : before?.report,
      at: this.now(),
    });
  }

  gone(id: string, kind: Kind = 'monitors'): void {
    this.record(kind, { op: 'gone', id });
  }

  /** The time to pass to `whole` for a list about to be asked for. */
  mark(): number {
    return this.now();
  }

  /**
   * The service has just listed every one of `kind` (read to its end, unfiltered), asked for at `since`
   * (mark()): once written, the ids known before then that the list did not hold are forgotten. An id
   * another command saw after `since` is kept: it may have been made while the list was read.
   */
  wholeList(kind: Kind, since: number): void {
    this.whole.set(kind, Math.min(since, this.whole.get(kind) ?? since));
  }

  /** How many ids wait to be written (at most MAX_ENTRIES + TRIM_BATCH of each kind). */
  get size(): number {
    return this.changes.monitors.size + this.changes.channels.size;
  }

  private record(kind: Kind, change: Change): void {
    const changes = this.changes[kind];
    changes.delete(change.id);
    changes.set(change.id, change);
    // In batches, not one at a time: finding a Map's oldest entry again after each deletion of the oldest
    // walks past every deleted one, which made a list of 200,000 monitors take seconds more.
    if (changes.size > MAX_ENTRIES + TRIM_BATCH) this.changes[kind] = new Map([...changes].slice(-MAX_ENTRIES));
  }

  async flush(): Promise<void> {
    if (this.size === 0 && this.whole.size === 0) return;
    const changes = { monitors: [...this.changes.monitors.values()], channels: [...this.changes.channels.values()] };
    const whole = new Map(this.whole);
    this.changes = { monitors: new Map(), channels: new Map() };
    this.whole.clear();
    try {
      // Cheap path first, reading only the entries touched: a get of a monitor known by its name changes nothing.
      // A whole list may have dropped ids: it always takes the full path.
      if (whole.size === 0) {
        const touched = { monitors: changes.monitors.map((c) => c.id), channels: changes.channels.map((c) => c.id) };
        const current = readKnown(this.path, this.baseUrl, this.fingerprint, touched);
        if (!KINDS.some((kind) => changes[kind].map((c) => apply(current[kind], c)).some(Boolean))) return;
      }
      mkdirSync(join(this.path, '..'), { recursive: true, mode: 0o700 });
      const [{ takeLock }, { writeFileAtomic }] = await Promise.all([
        import('../core/lock.js'),
        import('../core/atomic-file.js'),
      ]);
      const release = await takeLock(this.path, `${this.path}.lock`, {
        staleMs: LOCK_STALE_MS,
        timeoutMs: LOCK_WAIT_MS,
        perHolder: true,
        command: 'cpk',
      });
      try {
        const known = readKnown(this.path, this.baseUrl, this.fingerprint);
        for (const kind of KINDS) {
          const entries = known[kind];
          for (const change of changes[kind]) apply(entries, change);
          const since = whole.get(kind);
          if (since !== undefined)
            for (const id of Object.keys(entries)) if (entries[id]!.seen < since) delete entries[id];
          // Bounded: the least recently seen go first.
          const ids = Object.keys(entries).sort((a, b) => entries[a]!.seen - entries[b]!.seen);
          for (const id of ids.slice(0, Math.max(0, ids.length - MAX_ENTRIES))) delete entries[id];
        }
        const file = { version: 1, baseUrl: this.baseUrl, token: this.fingerprint, ...known };
        await writeFileAtomic(this.path, JSON.stringify(file), { mode: 0o600, durable: false });
      } finally {
        await release();
      }
    } catch (error) {
      this.debug(`inventory: not updated (${(error as Error).message}): ${this.path}`);
    }
  }
}

/** Under any token: completion must not read the token, which could ask the OS keychain. */
export function knownMonitors(baseUrl: string, env: Env, kind: Kind = 'monitors'): InventoryEntry[] {
  const byId = new Map<string, InventoryEntry>();
  let names: string[];
  try {
    names = readdirSync(inventoryDir(env)).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  for (const name of names) {
    try {
      for (const [id, e] of Object.entries(readKnown(join(inventoryDir(env), name), baseUrl)[kind])) {
        const seen = byId.get(id);
        if (!seen || seen.seen < e.seen) byId.set(id, { id, ...e });
      }
    } catch {
      // An unreadable file offers nothing.
    }
  }
  return byRecency([...byId.values()]);
}
