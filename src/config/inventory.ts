// The local inventory: the monitors this machine knows of.
//
// The service may declare no list operation (the interface shows none), and
// then a monitor's id is the only way back to it. So cpk remembers every
// monitor it created, fetched, updated, imported or applied, and forgets it
// on delete or on a 404, per base URL and per token: the token is kept as a
// fingerprint (the first 16 hex digits of its SHA-256), never the token.
//
// - Where: <data dir>/inventory/<key>.json (src/core/paths.ts dataDir:
//   ~/.local/share/cpk on Linux; CPK_DATA_DIR replaces it), one small file per
//   base URL and token, holding {id: {name, seen}}.
// - Bounded: at most MAX_ENTRIES monitors per file; the least recently seen go first.
// - Concurrent cpk processes: a change is a read-modify-write under cpk's
//   lock (../lock.ts), written atomically (temporary file, rename).
// - Never required: a command records what it saw in memory and writes once
//   when it ends (InventoryRecorder.flush); a file that cannot be read or
//   written is reported once under --debug, and the command goes on.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataDir } from '../core/paths.js';

type Env = Readonly<Record<string, string | undefined>>;

export const MAX_ENTRIES = 20_000;
const LOCK_WAIT_MS = 10_000;
const LOCK_STALE_MS = 10_000;

export interface InventoryEntry {
  id: string;
  /** The monitor's name when cpk last saw it (completion shows it), if it had one. */
  name?: string | undefined;
  /** Its report's id, when the service returned one (completion of report ids). */
  reportId?: string | undefined;
  /** When cpk last saw it (ms since the epoch). */
  seen: number;
}

interface StoredEntry {
  name?: string;
  report?: string;
  seen: number;
}

interface FileShape {
  version: 1;
  baseUrl: string;
  token: string;
  monitors: Record<string, StoredEntry>;
}

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

/** A token's fingerprint: never the token, enough to keep two accounts apart. */
export function tokenFingerprint(token: string | undefined): string {
  return token ? sha256Hex(token).slice(0, 16) : 'anonymous';
}

export function inventoryPath(baseUrl: string, token: string | undefined, env: Env): string {
  const key = sha256Hex(`${baseUrl}\n${tokenFingerprint(token)}`).slice(0, 16);
  return join(dataDir(env), 'inventory', `${key}.json`);
}

/** The inventory's directory (docs/monitors.md, "Finding your monitors", says how to clear it). */
export function inventoryDir(env: Env): string {
  return join(dataDir(env), 'inventory');
}

function readFile(path: string, baseUrl: string, fingerprint: string): FileShape {
  const empty: FileShape = { version: 1, baseUrl, token: fingerprint, monitors: {} };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return empty;
    throw error;
  }
  const parsed = JSON.parse(text) as Partial<FileShape>;
  if (parsed.baseUrl !== baseUrl || parsed.token !== fingerprint || typeof parsed.monitors !== 'object') return empty;
  const monitors: FileShape['monitors'] = Object.create(null) as FileShape['monitors'];
  for (const [id, entry] of Object.entries(parsed.monitors ?? {})) {
    if (!entry || typeof entry.seen !== 'number') continue;
    const kept: StoredEntry = { seen: entry.seen };
    if (typeof entry.name === 'string') kept.name = entry.name;
    if (typeof entry.report === 'string') kept.report = entry.report;
    monitors[id] = kept;
  }
  return { ...empty, monitors };
}

type Change =
  | { op: 'seen'; id: string; name: string | undefined; report: string | undefined; at: number }
  | { op: 'gone'; id: string };

async function withLock<T>(path: string, work: () => T | Promise<T>): Promise<T> {
  const { takeLock, LockHeldError } = await import('../core/lock.js');
  const release = await takeLock(path, `${path}.lock`, {
    staleMs: LOCK_STALE_MS,
    timeoutMs: LOCK_WAIT_MS,
    command: 'cpk',
  }).catch((error: unknown) => {
    throw error instanceof LockHeldError ? new Error('the inventory is locked by another cpk') : error;
  });
  try {
    return await work();
  } finally {
    await release();
  }
}

/** Collects what one command saw and writes it once, at the end (never throws). */
export class InventoryRecorder {
  private readonly changes: Change[] = [];
  private readonly fingerprint: string;
  constructor(
    private readonly baseUrl: string,
    token: string | undefined,
    private readonly env: Env,
    private readonly debug: (line: string) => void = () => {},
    private readonly now: () => number = Date.now,
  ) {
    this.fingerprint = tokenFingerprint(token);
    this.path = inventoryPath(baseUrl, token, env);
  }
  readonly path: string;

  /** The monitors known for this base URL and token, most recently seen first (throws when unreadable). */
  entries(): InventoryEntry[] {
    const file = readFile(this.path, this.baseUrl, this.fingerprint);
    return Object.entries(file.monitors)
      .map(([id, e]) => ({ id, name: e.name, reportId: e.report, seen: e.seen }))
      .sort((a, b) => b.seen - a.seen || (a.id < b.id ? -1 : 1));
  }

  /** A monitor the service returned (create, get, update, list): remembered with its name. */
  seen(monitor: unknown): void {
    if (monitor === null || typeof monitor !== 'object') return;
    const { id, name, report_id: report } = monitor as { id?: unknown; name?: unknown; report_id?: unknown };
    if (typeof id !== 'string' || id === '') return;
    this.changes.push({
      op: 'seen',
      id,
      name: typeof name === 'string' ? name : undefined,
      report: typeof report === 'string' ? report : undefined,
      at: this.now(),
    });
  }

  /** A monitor deleted, or answered 404: forgotten. */
  gone(id: string): void {
    this.changes.push({ op: 'gone', id });
  }

  /** Writes the changes (under the lock); skips the write when nothing would change. */
  async flush(): Promise<void> {
    if (this.changes.length === 0) return;
    const changes = this.changes.splice(0);
    try {
      // Cheap path first: a get of a monitor already known under the same name changes nothing.
      const current = readFile(this.path, this.baseUrl, this.fingerprint);
      if (!changes.some((c) => changesFile(current, c))) return;
      mkdirSync(join(this.path, '..'), { recursive: true, mode: 0o700 });
      await withLock(this.path, async () => {
        const file = readFile(this.path, this.baseUrl, this.fingerprint);
        for (const change of changes) apply(file, change);
        bound(file);
        const { writeFileAtomic } = await import('../core/atomic-file.js');
        await writeFileAtomic(this.path, JSON.stringify(file), { mode: 0o600, durable: false });
      });
    } catch (error) {
      this.debug(`inventory: not updated (${(error as Error).message}): ${this.path}`);
    }
  }
}

function changesFile(file: FileShape, change: Change): boolean {
  const entry = file.monitors[change.id];
  if (change.op === 'gone') return entry !== undefined;
  // Refresh "seen" at most once an hour: order by recency without a write per get.
  return (
    entry === undefined ||
    (change.name !== undefined && entry.name !== change.name) ||
    (change.report !== undefined && entry.report !== change.report) ||
    change.at - entry.seen > 3_600_000
  );
}

function apply(file: FileShape, change: Change): void {
  if (change.op === 'gone') {
    delete file.monitors[change.id];
    return;
  }
  const previous = file.monitors[change.id];
  // An update's answer may hold only id and status: keep the name cpk knew.
  const name = change.name ?? previous?.name;
  const report = change.report ?? previous?.report;
  const entry: StoredEntry = { seen: change.at };
  if (name !== undefined) entry.name = name;
  if (report !== undefined) entry.report = report;
  file.monitors[change.id] = entry;
}

function bound(file: FileShape): void {
  const ids = Object.keys(file.monitors);
  if (ids.length <= MAX_ENTRIES) return;
  ids.sort((a, b) => (file.monitors[a]?.seen ?? 0) - (file.monitors[b]?.seen ?? 0));
  for (const id of ids.slice(0, ids.length - MAX_ENTRIES)) delete file.monitors[id];
}

/** The monitors known for a base URL and token, most recently seen first (completion; throws when unreadable). */
export function readInventory(baseUrl: string, token: string | undefined, env: Env): InventoryEntry[] {
  return new InventoryRecorder(baseUrl, token, env).entries();
}

/**
 * Every monitor known for a base URL, under any token (completion: it must
 * not read the token, which could ask the OS keychain), most recent first.
 */
export function knownMonitors(baseUrl: string, env: Env): InventoryEntry[] {
  const byId = new Map<string, InventoryEntry>();
  let names: string[];
  try {
    names = readdirSync(inventoryDir(env)).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  for (const name of names) {
    try {
      const parsed = JSON.parse(readFileSync(join(inventoryDir(env), name), 'utf8')) as Partial<FileShape>;
      if (parsed.baseUrl !== baseUrl || typeof parsed.token !== 'string') continue;
      const file = readFile(join(inventoryDir(env), name), baseUrl, parsed.token);
      for (const [id, e] of Object.entries(file.monitors)) {
        const seen = byId.get(id);
        if (!seen || seen.seen < e.seen) byId.set(id, { id, name: e.name, reportId: e.report, seen: e.seen });
      }
    } catch {
      // An unreadable file offers nothing.
    }
  }
  return [...byId.values()].sort((a, b) => b.seen - a.seen || (a.id < b.id ? -1 : 1));
}
