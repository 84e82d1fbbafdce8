// The state file (cpk.state.json, beside the manifest, meant to be committed):
// which monitor each manifest key became on which service, since the interface
// has no list operation. Its format, its journal and what a crash leaves:
// docs/monitors-as-code.md ("The state file", "What cpk guarantees when a run is
// cut short"). A journal line is a record's new value, or null when it goes:
//
//   {"m":"search","r":{"create_started_at":"2025-01-01T00:00:00.000Z","create_body":{...}}}
//   {"m":"search","r":{"id":"mon_def"}}
//   {"c":"ch_ops","r":{"applied":{"enabled":true}}}
import { open, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { UsageError } from '../core/errors.js';
import { readFileText, whyUnreadable } from '../core/io.js';
import {
  describeJsonError,
  isPlainObject,
  jsonDepth,
  MAX_JSON_DEPTH,
  parseUserJson,
  setOwn,
  stringifyJson,
  type JsonObject,
} from '../core/json.js';
import { checkId } from '../parse/id.js';
import { syncDirectory, writeFileAtomic } from '../core/atomic-file.js';

export const STATE_VERSION = 1;

export interface MonitorRecord {
  id?: string;
  /** Set when a create was sent and its answer has not (yet) been recorded. */
  create_started_at?: string;
  /** What the create sent: its monitor is looked for by this, not by the entry as edited since (absent: older cpk). */
  create_body?: JsonObject;
}

export interface ChannelRecord {
  /** The settings last applied (the service cannot read a channel back). */
  applied: JsonObject;
}

export interface StateData {
  version: number;
  base_url: string;
  monitors: Record<string, MonitorRecord>;
  channels: Record<string, ChannelRecord>;
}

/** Why the state file cannot hold `id` (a path segment cpk cannot send), or undefined when it can. */
export function idProblem(id: string, what?: string): string | undefined {
  try {
    checkId(id, what);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** cpk.yaml -> cpk.state.json, infra/prod.yml -> infra/prod.state.json. */
export function defaultStatePath(manifestPath: string): string {
  const name = basename(manifestPath, extname(manifestPath));
  return join(dirname(manifestPath), `${name}.state.json`);
}

function damaged(path: string, what: string): UsageError {
  return new UsageError(`the state file ${path} is damaged: ${what}`, { hint: 'restore it from version control' });
}

/** A monitor's record, read from the state file or a journal line (`where` names it in the message). */
function monitorRecord(record: unknown, where: string, path: string): MonitorRecord {
  if (!isPlainObject(record)) throw damaged(path, `${where} must be an object`);
  const out: MonitorRecord = {};
  if (record.id !== undefined) {
    if (typeof record.id !== 'string') throw damaged(path, `${where}.id must be a string`);
    const problem = idProblem(record.id, `${where}.id`);
    if (problem !== undefined) throw damaged(path, problem);
    out.id = record.id;
  }
  if (record.create_started_at !== undefined) {
    if (typeof record.create_started_at !== 'string')
      throw damaged(path, `${where}.create_started_at must be a string`);
    out.create_started_at = record.create_started_at;
  }
  if (record.create_body !== undefined) {
    if (!isPlainObject(record.create_body)) throw damaged(path, `${where}.create_body must be an object`);
    out.create_body = record.create_body;
  }
  if (out.id === undefined && out.create_started_at === undefined)
    throw damaged(path, `${where} has neither "id" nor "create_started_at"`);
  return out;
}

/** Parses and checks state file text (usage errors name the file). */
export function parseState(text: string, path: string): StateData {
  // A channel's applied settings are any JSON: bounded as every JSON cpk reads
  // is, before comparing, rendering or writing them back recurses into them.
  if (text.length > MAX_JSON_DEPTH && jsonDepth(text) > MAX_JSON_DEPTH)
    throw damaged(path, `nested deeper than ${MAX_JSON_DEPTH} levels`);
  let raw: unknown;
  try {
    // Numbers exactly as written (a create body, a channel's settings): compared and written back unchanged.
    raw = parseUserJson(text);
  } catch (error) {
    // Never the parser's message: it quotes the text, and the path may lead
    // (a symlink) to a file holding a secret. Line and column instead.
    throw damaged(path, describeJsonError(text, error).replace(/^is /, ''));
  }
  if (!isPlainObject(raw)) throw damaged(path, 'not a JSON object');
  if (typeof raw.version === 'number' && raw.version > STATE_VERSION) {
    throw new UsageError(`the state file ${path} was written by a newer cpk (version ${raw.version}); upgrade cpk`);
  }
  if (raw.version !== STATE_VERSION) throw damaged(path, `"version" must be ${STATE_VERSION}`);
  if (typeof raw.base_url !== 'string' || raw.base_url === '') throw damaged(path, '"base_url" must be a string');
  const monitors = raw.monitors ?? {};
  const channels = raw.channels ?? {};
  if (!isPlainObject(monitors)) throw damaged(path, '"monitors" must be an object');
  if (!isPlainObject(channels)) throw damaged(path, '"channels" must be an object');
  const data: StateData = { version: STATE_VERSION, base_url: raw.base_url, monitors: {}, channels: {} };
  const owners = new Map<string, string>();
  for (const [key, record] of Object.entries(monitors)) {
    const where = `monitors.${key}`;
    const out = monitorRecord(record, where, path);
    if (out.id !== undefined) {
      const owner = owners.get(out.id);
      if (owner !== undefined) throw damaged(path, `monitors.${owner} and ${where} have the same id ${out.id}`);
      owners.set(out.id, key);
    }
    setOwn(data.monitors, key, out);
  }
  for (const [id, record] of Object.entries(channels)) {
    if (!isPlainObject(record) || !isPlainObject(record.applied))
      throw damaged(path, `channels.${id}.applied must be an object`);
    setOwn(data.channels, id, { applied: record.applied });
  }
  return data;
}

/** Stable text: sorted keys, so the committed file changes only where the state did. */
export function serializeState(data: StateData): string {
  const sorted = <T>(record: Record<string, T>): Record<string, T> => {
    const out: Record<string, T> = {};
    for (const key of Object.keys(record).sort()) setOwn(out, key, record[key]);
    return out;
  };
  return `${stringifyJson({ version: data.version, base_url: data.base_url, monitors: sorted(data.monitors), channels: sorted(data.channels) }, 2)}\n`;
}

export function journalPathOf(statePath: string): string {
  return `${statePath}.journal`;
}

type JournalLine = { m: string; r: MonitorRecord | null } | { c: string; r: ChannelRecord | null };

/** Replays journal text onto `data`; returns how many changes it held. A torn last line is ignored. */
export function replayJournal(text: string, data: StateData, path: string): number {
  const lines = text.split('\n');
  // The text after the last newline is a line the crash cut short (or nothing).
  lines.pop();
  lines.forEach((line, i) => {
    let entry: unknown;
    if (line.length > MAX_JSON_DEPTH && jsonDepth(line) > MAX_JSON_DEPTH)
      throw damaged(path, `line ${i + 1} is nested deeper than ${MAX_JSON_DEPTH} levels`);
    try {
      entry = parseUserJson(line);
    } catch {
      throw damaged(path, `line ${i + 1} is not valid JSON`);
    }
    if (!isPlainObject(entry) || !(entry.r === null || isPlainObject(entry.r)))
      throw damaged(path, `line ${i + 1} is not a change`);
    if (typeof entry.m === 'string') {
      if (entry.r === null) delete data.monitors[entry.m];
      else setOwn(data.monitors, entry.m, monitorRecord(entry.r, `line ${i + 1}`, path));
    } else if (typeof entry.c === 'string' && (entry.r === null || isPlainObject(entry.r.applied))) {
      if (entry.r === null) delete data.channels[entry.c];
      else setOwn(data.channels, entry.c, { applied: entry.r.applied });
    } else {
      throw damaged(path, `line ${i + 1} is not a change`);
    }
  });
  return lines.length;
}

interface Waiter {
  durable: boolean;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class StateStore {
  /** Journal lines not yet written. */
  private pending: string[] = [];
  private waiters: Waiter[] = [];
  /** A drain is under way; `drained` settles when it ends. */
  private busy = false;
  private drained: Promise<void> = Promise.resolve();
  /** Open while a drain writes; closed when it ends. */
  private journal: FileHandle | undefined;
  private unsynced = false;
  /** The journal's directory entry is on disk (fsynced once per journal file). */
  private journalNamed = false;
  /** The journal's length up to its last whole write: a write that failed midway is cut back to it. */
  private journalBytes = 0;
  /** A failed write that could not be cut back: nothing more may follow its fragment. */
  private broken: unknown;
  private writes: Promise<void> = Promise.resolve();
  /** What reached the disk: whole-state writes, journal writes and journal fsyncs (for tests). */
  readonly stats = { saves: 0, journalWrites: 0, journalSyncs: 0 };

  private constructor(
    readonly path: string,
    readonly data: StateData,
    /** Changes replayed from the journal of a run that was cut short (not yet in the state file). */
    readonly recovered: number,
  ) {}

  get journalPath(): string {
    return journalPathOf(this.path);
  }

  /**
   * The state at `path` (fresh when there is none), a cut-short run's journal replayed onto it. A state of
   * another base URL is refused: applying it would change (or --prune delete) monitors on the wrong service.
   */
  static async load(path: string, baseUrl: string): Promise<StateStore> {
    const read = (file: string): string | undefined => {
      try {
        return readFileText(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw new UsageError(`cannot read the state file ${file}${whyUnreadable(error)}`);
      }
    };
    const [text, journal] = [read(path), read(journalPathOf(path))];
    const data =
      text === undefined
        ? { version: STATE_VERSION, base_url: baseUrl, monitors: {}, channels: {} }
        : parseState(text, path);
    const recovered = journal === undefined ? 0 : replayJournal(journal, data, journalPathOf(path));
    if (text !== undefined && data.base_url !== baseUrl) {
      const empty = Object.keys(data.monitors).length === 0 && Object.keys(data.channels).length === 0;
      if (!empty) {
        throw new UsageError(
          `the state file ${path} records monitors of ${data.base_url}, but cpk is pointed at ${baseUrl}`,
          {
            hint: 'point cpk at that service (--base-url, CPK_BASE_URL), or keep a separate state for this one with --state FILE',
          },
        );
      }
      data.base_url = baseUrl;
    }
    return new StateStore(path, data, recovered);
  }

  record(key: string): MonitorRecord | undefined {
    return Object.hasOwn(this.data.monitors, key) ? this.data.monitors[key] : undefined;
  }

  /** Each recorded id, and the key that manages it. */
  owners(): Map<string, string> {
    const owners = new Map<string, string>();
    for (const [key, record] of Object.entries(this.data.monitors))
      if (record.id !== undefined) owners.set(record.id, key);
    return owners;
  }

  private log(line: JournalLine): void {
    this.pending.push(`${stringifyJson(line)}\n`);
  }

  /** Sets (or, with undefined, removes) the record of `key`. */
  setRecord(key: string, record: MonitorRecord | undefined): void {
    if (record === undefined) delete this.data.monitors[key];
    else setOwn(this.data.monitors, key, record);
    this.log({ m: key, r: record ?? null });
  }

  setId(key: string, id: string): void {
    this.setRecord(key, { id });
  }

  /** The write-ahead marker of a create: when, and what it sends. */
  markCreating(key: string, body: JsonObject, at: Date = new Date()): void {
    this.setRecord(key, { create_started_at: at.toISOString(), create_body: body });
  }

  applied(channelId: string): JsonObject | undefined {
    return Object.hasOwn(this.data.channels, channelId) ? this.data.channels[channelId]?.applied : undefined;
  }

  setApplied(channelId: string, applied: JsonObject): void {
    setOwn(this.data.channels, channelId, { applied });
    this.log({ c: channelId, r: { applied } });
  }

  forgetChannel(channelId: string): void {
    delete this.data.channels[channelId];
    this.log({ c: channelId, r: null });
  }

  /**
   * Appends the changes so far to the journal. `durable`: fsynced before this resolves (a create's marker);
   * else written at once (safe from a kill) and fsynced with the next batch. Callers that commit while a
   * write is under way share the next one: group commit, one write and at most one fsync per batch.
   */
  commit(durable: boolean): Promise<void> {
    return new Promise<void>((resolvePromise, reject) => {
      this.waiters.push({ durable, resolve: resolvePromise, reject });
      if (!this.busy) {
        this.busy = true;
        // Started after the answers that arrived in this turn of the event
        // loop are handled, so that the creates they free share one batch.
        this.drained = new Promise<void>((started) => setImmediate(started)).then(() => this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      for (;;) {
        await this.drainWaiters();
        // Nothing left to write: the journal is closed (a handle left to the
        // garbage collector is an error on Node 26), and commits that came
        // in meanwhile are written by the next turn, which opens it again.
        const journal = this.journal;
        if (!journal) break;
        this.journal = undefined;
        await journal.close().catch(() => {});
      }
    } finally {
      // In the same synchronous step as the last check of `waiters`: a later commit starts a new drain.
      this.busy = false;
    }
  }

  private async drainWaiters(): Promise<void> {
    while (this.waiters.length > 0) {
      // Taken together, synchronously: a change and its commit are always in the same batch.
      const batch = this.waiters.splice(0);
      const lines = this.pending.splice(0);
      try {
        if (this.broken !== undefined) throw this.broken;
        if (lines.length > 0) {
          const journal = await this.openJournal();
          const text = lines.join('');
          try {
            // appendFile writes all of it or fails (a bare write may stop short on a full disk).
            await journal.appendFile(text);
          } catch (error) {
            // A line cut in the middle, with whole lines after it, would make
            // the journal unreadable to every later run: cut it back.
            await journal.truncate(this.journalBytes).catch(() => {
              this.broken = error;
            });
            throw error;
          }
          this.journalBytes += Buffer.byteLength(text);
          this.stats.journalWrites += 1;
          this.unsynced = true;
        }
        if (this.unsynced && batch.some((w) => w.durable)) {
          // fsync is per file: it also covers what an earlier handle wrote.
          await (await this.openJournal()).sync();
          this.stats.journalSyncs += 1;
          this.unsynced = false;
        }
        for (const w of batch) w.resolve();
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
  }

  private async openJournal(): Promise<FileHandle> {
    if (this.journal) return this.journal;
    const journal = await open(this.journalPath, 'a');
    try {
      this.journalBytes = (await journal.stat()).size;
      // The journal's name must be durable too, or a power cut could lose the file with its markers.
      if (!this.journalNamed) await syncDirectory(dirname(this.path));
    } catch (error) {
      await journal.close().catch(() => {});
      throw error;
    }
    this.journalNamed = true;
    this.journal = journal;
    return journal;
  }

  /**
   * Writes the whole state atomically and removes the journal (compaction), after journal writes under way.
   * Saves are queued: concurrent ones reach the disk one whole file at a time, each including all before it.
   */
  save(): Promise<void> {
    const write = this.writes.then(async () => {
      while (this.busy) await this.drained;
      this.pending = [];
      await writeFileAtomic(this.path, serializeState(this.data));
      this.stats.saves += 1;
      // Once the state holds everything, the journal can go (a crash in between replays it again: same result).
      const journal = this.journal;
      this.journal = undefined;
      await journal?.close();
      await rm(this.journalPath, { force: true });
      this.journalBytes = 0;
      this.journalNamed = false;
      this.unsynced = false;
      this.broken = undefined;
    });
    this.writes = write.catch(() => {});
    return write;
  }
}
