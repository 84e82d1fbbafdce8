// The state file (cpk.state.json, beside the manifest, meant to be committed):
// what cpk manages on which service. The interface has no list operation, so
// this record is the only way to know which monitor a manifest key became.
//
//   {
//     "version": 1,
//     "base_url": "https://api.example.com/v1",
//     "monitors": {
//       "checkout-api": { "id": "mon_abc" },
//       "search": { "create_started_at": "2025-01-01T00:00:00.000Z" }   <- outcome unknown
//     },
//     "channels": { "ch_ops": { "applied": { "enabled": true } } }
//   }
//
// Every change is written at once and atomically (./atomic.ts). A create is
// recorded twice: `create_started_at` before the request leaves, the id when
// the answer arrives. If cpk dies in between, the marker stays, and the next
// plan/apply reports the create as uncertain instead of making a duplicate.
import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { isPlainObject, setOwn, type JsonObject } from '../parse/fields.js';
import { checkId } from '../parse/id.js';
import { writeFileAtomic } from './atomic.js';

export const STATE_VERSION = 1;

export interface MonitorRecord {
  /** The id the service gave the monitor. */
  id?: string;
  /** Set when a create was sent and its answer has not (yet) been recorded. */
  create_started_at?: string;
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

/** cpk.yaml -> cpk.state.json, infra/prod.yml -> infra/prod.state.json. */
export function defaultStatePath(manifestPath: string): string {
  const name = basename(manifestPath, extname(manifestPath));
  return join(dirname(manifestPath), `${name}.state.json`);
}

function damaged(path: string, what: string): UsageError {
  return new UsageError(`the state file ${path} is damaged: ${what}`, { hint: 'restore it from version control' });
}

/** Parses and checks state file text (usage errors name the file). */
export function parseState(text: string, path: string): StateData {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw damaged(path, `not valid JSON (${(error as Error).message})`);
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
    if (!isPlainObject(record)) throw damaged(path, `${where} must be an object`);
    const out: MonitorRecord = {};
    if (record.id !== undefined) {
      if (typeof record.id !== 'string') throw damaged(path, `${where}.id must be a string`);
      try {
        out.id = checkId(record.id, `${where}.id`);
      } catch (error) {
        throw damaged(path, (error as Error).message);
      }
      const owner = owners.get(out.id);
      if (owner !== undefined) throw damaged(path, `monitors.${owner} and ${where} have the same id ${out.id}`);
      owners.set(out.id, key);
    }
    if (record.create_started_at !== undefined) {
      if (typeof record.create_started_at !== 'string')
        throw damaged(path, `${where}.create_started_at must be a string`);
      out.create_started_at = record.create_started_at;
    }
    if (out.id === undefined && out.create_started_at === undefined)
      throw damaged(path, `${where} has neither "id" nor "create_started_at"`);
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
  return `${JSON.stringify({ version: data.version, base_url: data.base_url, monitors: sorted(data.monitors), channels: sorted(data.channels) }, null, 2)}\n`;
}

export interface LoadStateOptions {
  /** The base URL cpk is pointed at (normalized). */
  baseUrl: string;
  /** The manifest the state belongs to (they must not be the same file). */
  manifestPath: string;
}

export class StateStore {
  private writes: Promise<void> = Promise.resolve();

  private constructor(
    readonly path: string,
    readonly data: StateData,
    /** False until the file exists on disk. */
    public onDisk: boolean,
  ) {}

  /**
   * Reads the state at `path` (a fresh one when there is none). A state that
   * records monitors or channels of another base URL is refused: applying it
   * would change (or --prune delete) monitors on the wrong service.
   */
  static async load(path: string, options: LoadStateOptions): Promise<StateStore> {
    if (resolve(path) === resolve(options.manifestPath))
      throw new UsageError(`the state file and the manifest are the same file (${path}); choose another --state`);
    let text: string | undefined;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') throw new UsageError(`cannot read the state file ${path} (${code ?? 'error'})`);
    }
    if (text === undefined) {
      return new StateStore(
        path,
        { version: STATE_VERSION, base_url: options.baseUrl, monitors: {}, channels: {} },
        false,
      );
    }
    const data = parseState(text, path);
    if (data.base_url !== options.baseUrl) {
      const empty = Object.keys(data.monitors).length === 0 && Object.keys(data.channels).length === 0;
      if (!empty) {
        throw new UsageError(
          `the state file ${path} records monitors of ${data.base_url}, but cpk is pointed at ${options.baseUrl}`,
          {
            hint: 'point cpk at that service (--base-url, CPK_BASE_URL), or keep a separate state for this one with --state FILE',
          },
        );
      }
      data.base_url = options.baseUrl;
    }
    return new StateStore(path, data, true);
  }

  record(key: string): MonitorRecord | undefined {
    return Object.hasOwn(this.data.monitors, key) ? this.data.monitors[key] : undefined;
  }

  /** The key that manages monitor `id`, if any. */
  keyOf(id: string): string | undefined {
    return Object.keys(this.data.monitors).find((key) => this.data.monitors[key]?.id === id);
  }

  setId(key: string, id: string): void {
    setOwn(this.data.monitors, key, { id });
  }

  markCreating(key: string, at: Date = new Date()): void {
    setOwn(this.data.monitors, key, { create_started_at: at.toISOString() });
  }

  forget(key: string): void {
    delete this.data.monitors[key];
  }

  applied(channelId: string): JsonObject | undefined {
    return Object.hasOwn(this.data.channels, channelId) ? this.data.channels[channelId]?.applied : undefined;
  }

  setApplied(channelId: string, applied: JsonObject): void {
    setOwn(this.data.channels, channelId, { applied });
  }

  forgetChannel(channelId: string): void {
    delete this.data.channels[channelId];
  }

  /**
   * Writes the state as it is now. Writes are queued, so concurrent changes
   * reach the disk one whole file at a time, each including all before it.
   */
  save(): Promise<void> {
    const write = this.writes.then(async () => {
      await writeFileAtomic(this.path, serializeState(this.data));
      this.onDisk = true;
    });
    this.writes = write.catch(() => {});
    return write;
  }
}
