// A manifest as cpk holds it: its entries, the problems found in it, and the
// checks against schema/manifest.schema.json (compiled ahead of time by
// `npm run gen`). Reading files is load.ts's; positions in YAML text are
// positions.ts's.
import type { ErrorObject } from 'ajv';
import schema from '../../schema/manifest.schema.json' with { type: 'json' };
// Compiled ahead of time from that schema by `npm run gen` (src/gen/manifest-validator.ts).
import { validate as manifestValidator } from './manifest-validator.generated.js';
import { UsageError } from '../core/errors.js';
import { parseDuration } from '../parse/duration.js';
import { isPlainObject, setOwn, type JsonObject } from '../core/json.js';

export interface MonitorEntry {
  /** cpk's stable name for the monitor: never sent. */
  key: string;
  /** The fields to send, as the manifest gives them, `interval` turned into `interval_seconds`. */
  body: JsonObject;
  /** With several files or a directory: the file that defines it (readManifests). */
  file?: string;
}

export interface ChannelEntry {
  id: string;
  settings: JsonObject;
  file?: string;
}

export interface Manifest {
  /** The path as the user gave it (problems and messages name it so). */
  path: string;
  /** In manifest order. */
  monitors: MonitorEntry[];
  channels: ChannelEntry[];
  /** `custom_fields:`: fields sent on purpose though the service does not declare them (no did-you-mean). */
  customFields: string[];
}

export interface Problem {
  line: number;
  col: number;
  message: string;
  /** The file, when it is not the error's own (several manifest files). */
  file?: string;
}

/**
 * Problem lines shown at most: the first ones in file order, then how many
 * more there are (the closing line gives the count). A manifest generated
 * wrong can hold tens of thousands, and a screenful says what is wrong.
 */
export const MAX_PROBLEMS_SHOWN = 200;

/** The lines of the first MAX_PROBLEMS_SHOWN problems, and a line saying how many more there are. */
export function shownProblems<T>(problems: readonly T[], line: (problem: T) => string): string[] {
  const out = problems.slice(0, MAX_PROBLEMS_SHOWN).map(line);
  const more = problems.length - out.length;
  if (more > 0) out.push(`… and ${more} more problem${more === 1 ? '' : 's'}, not shown`);
  return out;
}

/** The items whose `id` was not seen before, in order. */
export function uniqueBy<T>(items: readonly T[], id: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(id(item)) && Boolean(seen.add(id(item))));
}

/** The manifest cannot be used; each problem carries its line and column. Nothing was sent. */
export class ManifestError extends UsageError {
  constructor(
    readonly file: string,
    readonly problems: Problem[],
  ) {
    super(
      `${file} is not a valid manifest (${problems.length} problem${problems.length === 1 ? '' : 's'}); nothing was sent`,
    );
  }

  /** One line per problem, `file:line:col: message`, the way compilers and editors read them (the first MAX_PROBLEMS_SHOWN). */
  lines(): string[] {
    return shownProblems(this.problems, (p) => `${p.file ?? this.file}:${p.line}:${p.col}: ${p.message}`);
  }
}

const DURATION_SHAPE = new RegExp(schema.definitions.monitor.properties.interval.pattern);

/** Entries validated in one call: ajv joins each entry's errors onto all the errors before it (concat). */
const ENTRIES_PER_CALL = 256;

/**
 * The schema's errors for a parsed manifest (none: valid), a few entries at
 * a time, so that finding N problems stays linear in N (in one call, ajv
 * copies the errors so far at each entry: 20,000 problems took 35 s).
 */
export function validate(value: unknown): ErrorObject[] {
  if (!isPlainObject(value)) return manifestValidator(value) ? [] : [...(manifestValidator.errors ?? [])];
  const errors: ErrorObject[] = [];
  const collect = (part: JsonObject) => {
    if (!manifestValidator(part)) for (const error of manifestValidator.errors ?? []) errors.push(error);
  };
  const sections = (['monitors', 'channels'] as const).filter((k) => isPlainObject(value[k]));
  // The top level with its sections emptied, then each section's entries in slices.
  const top: JsonObject = { ...value };
  for (const k of sections) top[k] = {};
  collect(top);
  for (const k of sections) {
    const entries = Object.entries(value[k] as JsonObject);
    for (let i = 0; i < entries.length; i += ENTRIES_PER_CALL) {
      const slice: JsonObject = {};
      for (const [key, entry] of entries.slice(i, i + ENTRIES_PER_CALL)) setOwn(slice, key, entry);
      collect({ [k]: slice });
    }
  }
  return errors;
}

/**
 * The manifest's entries from its parsed value: `interval` turned into
 * `interval_seconds`, keys in `order`. What the schema cannot check is
 * reported to `problem` with the path it concerns.
 */
export function buildManifest(
  value: unknown,
  path: string,
  order: (at: string[], obj: JsonObject) => string[],
  problem: (at: string[], which: 'key' | 'value', message: string) => void,
): Manifest {
  const manifest: Manifest = { path, monitors: [], channels: [], customFields: [] };
  if (!isPlainObject(value)) return manifest;
  if (Array.isArray(value.custom_fields))
    manifest.customFields = value.custom_fields.filter((f): f is string => typeof f === 'string');
  const monitors = isPlainObject(value.monitors) ? value.monitors : {};
  for (const key of order(['monitors'], monitors)) {
    const fields = monitors[key];
    if (!isPlainObject(fields)) continue;
    if (Object.hasOwn(fields, 'interval') && Object.hasOwn(fields, 'interval_seconds')) {
      problem(
        ['monitors', key, 'interval'],
        'key',
        `${showPath(['monitors', key])}: give interval or interval_seconds, not both`,
      );
      continue;
    }
    const body: JsonObject = {};
    for (const field of order(['monitors', key], fields)) {
      if (field !== 'interval') {
        setOwn(body, field, fields[field]);
        continue;
      }
      const interval = fields.interval;
      // Wrong types and shapes were reported by the schema; parseDuration catches the rest ("1m1m").
      if (typeof interval !== 'number' && !(typeof interval === 'string' && DURATION_SHAPE.test(interval))) continue;
      try {
        setOwn(
          body,
          'interval_seconds',
          typeof interval === 'number' ? interval : parseDuration(String(interval), 'interval'),
        );
      } catch (error) {
        problem(
          ['monitors', key, 'interval'],
          'value',
          `${showPath(['monitors', key, 'interval'])}: ${(error as Error).message}`,
        );
      }
    }
    manifest.monitors.push({ key, body });
  }
  const channels = isPlainObject(value.channels) ? value.channels : {};
  for (const id of order(['channels'], channels)) {
    const settings = channels[id];
    if (isPlainObject(settings)) manifest.channels.push({ id, settings });
  }
  return manifest;
}

// ---------------------------------------------------------------- messages

/** A JSON Pointer (ajv's instancePath) as path segments. */
export function decodePointer(pointer: string): string[] {
  return pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** monitors.checkout-api.interval, with keys that would confuse quoted. */
export function showPath(path: string[]): string {
  return path.map((segment) => (/^[A-Za-z0-9_-]+$/.test(segment) ? segment : JSON.stringify(segment))).join('.');
}

/** JSON Schema's type names as a manifest's author knows them (YAML's words). */
export const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'a mapping',
  array: 'a list',
  null: 'null',
};

/** Paths to numbers JSON cannot carry (YAML's .inf and .nan). */
export function nonFinite(value: unknown, path: string[] = [], out: string[][] = []): string[][] {
  // The path is one array, pushed and popped, copied only for a number found.
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) out.push([...path]);
  } else if (typeof value === 'object' && value !== null) {
    for (const k in value) {
      if (!Object.hasOwn(value, k)) continue;
      path.push(k);
      nonFinite((value as Record<string, unknown>)[k], path, out);
      path.pop();
    }
  }
  return out;
}
