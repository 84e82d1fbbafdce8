// A manifest as cpk holds it: its entries, its problems, and the one parse of its
// text (the yaml package keeps every node's line and column), checked against
// schema/manifest.schema.json. Reading files is load.ts's.
import {
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  visit,
  type Document,
  type Node,
  type Pair,
  type Scalar,
} from 'yaml';
import type { ErrorObject } from 'ajv';
import schema from '../../schema/manifest.schema.json' with { type: 'json' };
// Compiled ahead of time from that schema by `npm run gen` (src/gen/manifest-validator.ts).
import { validate as manifestValidator } from './manifest-validator.generated.js';
import { UsageError } from '../core/errors.js';
import { parseDuration } from '../parse/duration.js';
import { ExactNumber, isPlainObject, nearestDoubles, setOwn, type JsonObject } from '../core/json.js';
import type { Env } from '../core/paths.js';

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
  /** Each file's positions, for problems found after loading (a key defined in two files, the service's bodies). */
  places: Map<string, Locator>;
  /** Each `${env:NAME}` the environment gave a value, where it stands: a value that is the token is refused. */
  variables?: Variable[];
}

export interface Variable {
  file: string;
  line: number;
  col: number;
  name: string;
  value: string;
}

export interface Problem {
  line: number;
  col: number;
  message: string;
  /** The file, when it is not the error's own (several manifest files). */
  file?: string;
}

/** Problem lines shown at most, then a count of the rest: a manifest generated wrong can hold tens of thousands. */
export const MAX_PROBLEMS_SHOWN = 200;

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
    /**
     * The entries that could be read despite the problems, with their positions: checked against the
     * service's bodies too, so that a typo in a field is reported in the same run as a problem of structure.
     */
    readonly partial?: Manifest,
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

/** Entries validated per call: given all at once, ajv copies the errors so far at each entry (20,000 problems: 35 s). */
const ENTRIES_PER_CALL = 256;

/** The schema's errors for a parsed manifest (none: valid), ENTRIES_PER_CALL entries at a time. */
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

type AddProblem = (at: string[], which: 'key' | 'value', message: string) => void;

/** The entries of a parsed manifest, keys in file order; what the schema cannot check goes to `problem`. */
function buildManifest(value: unknown, path: string, doc: Document, problem: AddProblem) {
  const order = (at: string[], obj: JsonObject) => keysInOrder(doc, at, obj);
  const manifest: Manifest = { path, monitors: [], channels: [], customFields: [], places: new Map() };
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
      const given = fields[field];
      if (field !== 'interval') setOwn(body, field, given);
      else if (typeof given === 'number' || given instanceof ExactNumber) setOwn(body, 'interval_seconds', given);
      // Wrong types and shapes were reported by the schema; parseDuration catches the rest ("1m1m").
      else if (typeof given === 'string' && DURATION_SHAPE.test(given)) {
        try {
          setOwn(body, 'interval_seconds', parseDuration(given, 'interval'));
        } catch (error) {
          const at = ['monitors', key, 'interval'];
          problem(at, 'value', `${showPath(at)}: ${(error as Error).message}`);
        }
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
function nonFinite(value: unknown, path: string[] = [], out: string[][] = []): string[][] {
  if (typeof value === 'number' && !Number.isFinite(value)) out.push(path);
  else if (typeof value === 'object' && value !== null)
    for (const [k, v] of Object.entries(value)) nonFinite(v, [...path, k], out);
  return out;
}

/**
 * `${env:NAME}` and `${env:NAME:-default}` in a value, as Terraform's variables and monaco's environments
 * let one manifest serve several environments; `$${env:...}` is the text itself. Other `${...}` is text.
 */
const REFERENCE = /\$(\$?)\{env:([^}]*)\}/g;
const VARIABLE = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s;
/** A number in JSON's spelling: a whole value of one reference, unquoted, becomes this number, kept as written. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?$/;

/**
 * Replaces the references in one scalar value; returns whether it made an exact number. A plain scalar that
 * is one reference and nothing else takes the type of what it resolves to (a number, true, false), so that
 * `interval_seconds: ${env:INTERVAL}` sends a number; quoted, or within other text, it stays a string.
 */
function substitute(
  node: Scalar,
  env: Env,
  problem: (message: string) => void,
  used: (name: string, value: string) => void,
): boolean {
  const text = node.value as string;
  const whole = node.type === 'PLAIN' && /^\$\{env:[^}]*\}$/.test(text);
  const resolved = text.replace(REFERENCE, (reference, escaped: string, inner: string) => {
    if (escaped) return reference.slice(1);
    const parsed = VARIABLE.exec(inner);
    if (!parsed) {
      problem(`${reference} is not a variable reference: write \${env:NAME} or \${env:NAME:-default}`);
      return reference;
    }
    const [, name = '', fallback] = parsed;
    const value = env[name];
    // A token in a monitor's fields would be stored by the service and shown to everyone who reads it.
    if (name === 'CPK_TOKEN' || (value !== undefined && value !== '' && value === env.CPK_TOKEN)) {
      problem(`${reference}: ${name} holds the API token, which must never be sent in a monitor's fields`);
      return reference;
    }
    if (value !== undefined && value !== '') {
      used(name, value);
      return value;
    }
    if (fallback !== undefined) return fallback;
    problem(`${name} is not set, and ${reference} gives no default (write \${env:${name}:-value} to give one)`);
    return reference;
  });
  if (whole && JSON_NUMBER.test(resolved)) {
    const n = Number(resolved);
    node.value = Number.isFinite(n) && String(n) === resolved ? n : new ExactNumber(resolved);
    return node.value instanceof ExactNumber;
  }
  node.value = whole && (resolved === 'true' || resolved === 'false') ? resolved === 'true' : resolved;
  return false;
}

export interface ParseOptions {
  /** The environment `${env:NAME}` reads; without it, references are left as written. */
  env?: Env;
}

/** Parses with every node's position, so that each problem is reported with its line and column. */
export function parseManifest(text: string, path: string, options: ParseOptions = {}): Manifest {
  const lineCounter = new LineCounter();
  // Duplicate keys are found below, as each map's pairs are indexed: yaml's own check compares each key with every other.
  // Not prettyErrors: they add the line, the column and an excerpt of the text to yaml's message.
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false, strict: true });
  const place = locatorOf(doc, lineCounter);

  const syntax: Problem[] = [...doc.errors, ...doc.warnings].map((e) => ({
    ...place.of(e.pos[0]),
    message: e.message,
  }));
  let exact = false;
  let problems: Problem[] = [];
  let referenceProblems = 0;
  const variables: Variable[] = [];
  if (syntax.length === 0) {
    const { env } = options;
    const resolve =
      env &&
      ((node: Scalar) => {
        const at = place.of(node.range?.[0]);
        return substitute(
          node,
          env,
          (message) => problems.push({ ...at, message }),
          (name, value) => variables.push({ file: path, ...at, name, value }),
        );
      });
    const { twice, exactNumbers } = indexPairs(doc, resolve);
    referenceProblems = problems.length;
    exact = exactNumbers;
    for (const node of twice) syntax.push({ ...place.of(node.range?.[0]), message: 'Map keys must be unique' });
  }
  if (syntax.length > 0) throw new ManifestError(path, syntax);

  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    // yaml refuses aliases that would expand without bound (a "billion laughs"
    // bomb): a manifest problem at the first alias, not an unexpected error.
    if (!/alias/i.test((error as Error).message)) throw error;
    let first: Node | undefined;
    visit(doc, {
      Alias(_key, node) {
        first = node;
        return visit.BREAK;
      },
    });
    throw new ManifestError(path, [
      {
        ...place.of(first?.range?.[0]),
        message: 'YAML aliases here expand to too many values (a resource exhaustion attack?); write the values out',
      },
    ]);
  }
  const add: AddProblem = (at, which, message) => problems.push({ ...place.at(at, which), message });

  // The schema checks types and ranges: it sees each exact number as its nearest double.
  const checked = exact ? nearestDoubles(value) : value;
  for (const error of validate(checked)) {
    const problem = describe(error);
    if (problem) add(problem.at, problem.which, problem.message);
  }
  for (const path of nonFinite(checked)) add(path, 'value', `${showPath(path)} must be a finite number`);

  // The checks JSON Schema cannot express run even when it found problems, so that every problem is reported at once.
  const manifest = buildManifest(value, path, doc, add);
  manifest.places.set(path, place);
  if (variables.length > 0) manifest.variables = variables;
  if (problems.length > 0) {
    // A value whose reference could not be resolved has that one problem, not also the schema's about its text.
    const unresolved = new Set(problems.slice(0, referenceProblems).map((p) => `${p.line}:${p.col}`));
    problems = problems.filter((p, i) => i < referenceProblems || !unresolved.has(`${p.line}:${p.col}`));
    problems.sort((a, b) => a.line - b.line || a.col - b.col);
    throw new ManifestError(
      path,
      uniqueBy(problems, (p) => `${p.line}:${p.col}:${p.message}`),
      manifest,
    );
  }
  return manifest;
}

// ---------------------------------------------------------------- positions

function keyText(key: unknown): string {
  return isScalar(key) ? String(key.value) : String(key);
}

/** Each map's pairs by key text (the first of a key given twice): finding every entry's position stays linear. */
const pairIndex = new WeakMap<object, Map<string, Pair<unknown, unknown>>>();

/** A number as YAML 1.2's core schema writes it in decimal: `+1`, `.5`, `5.`, `007` and `1e3` included. */
const YAML_DECIMAL = /^([-+]?)(\d*)(?:\.(\d*))?([eE][-+]?\d+)?$/;

/**
 * A number scalar as written, when a double cannot hold it so (an integer
 * past 2^53, more digits than a double keeps, 1.50): its value becomes an
 * ExactNumber of the same text in JSON's spelling, which is what is sent.
 * Returns whether it did. Non-finite values (.inf, .nan) stay, to be refused.
 */
function keepExact(node: Scalar): boolean {
  const { value, source } = node;
  if (typeof value !== 'number' || !Number.isFinite(value) || source === undefined) return false;
  let text: string;
  const decimal = YAML_DECIMAL.exec(source);
  if (decimal) {
    const [, sign, whole = '', fraction, exponent = ''] = decimal;
    const digits = whole.replace(/^0+(?=\d)/, '') || '0';
    text = `${sign === '-' ? '-' : ''}${digits}${fraction ? `.${fraction}` : ''}${exponent}`;
  } else if (/^0[xo][0-9a-fA-F]+$/.test(source)) text = BigInt(source).toString();
  else return false;
  if (String(value) === text) return false;
  node.value = new ExactNumber(text);
  return true;
}

/**
 * Indexes every map's pairs (a walk of its own: yaml's visit() took most of
 * the time on a large manifest), and keeps each number value exactly as written
 * (keepExact). Returns the keys given twice in one map (the second and later),
 * in file order, and whether any number was kept exactly.
 */
function indexPairs(
  doc: Document,
  /** Replaces `${env:...}` in a string value; returns whether it made an exact number. */
  resolve?: (node: Scalar) => boolean,
): { twice: Node[]; exactNumbers: boolean } {
  const twice: Node[] = [];
  let exactNumbers = false;
  const walk = (node: unknown): void => {
    if (isScalar(node)) {
      if (resolve && typeof node.value === 'string' && node.value.includes('{env:'))
        exactNumbers = resolve(node) || exactNumbers;
      else exactNumbers = keepExact(node) || exactNumbers;
    }
    if (isSeq(node)) node.items.forEach(walk);
    if (!isMap(node)) return;
    const index = new Map<string, Pair<unknown, unknown>>();
    for (const pair of node.items) {
      const text = keyText(pair.key);
      if (index.has(text)) twice.push(pair.key as Node);
      else index.set(text, pair);
      // Keys stay as yaml reads them: a key is a name, never sent as a number.
      if (!isScalar(pair.key)) walk(pair.key);
      walk(pair.value);
    }
    pairIndex.set(node, index);
  };
  walk(doc.contents);
  return { twice: twice.sort((a, b) => (a.range?.[0] ?? 0) - (b.range?.[0] ?? 0)), exactNumbers };
}

function resolve(doc: Document, node: unknown): unknown {
  return isAlias(node) ? node.resolve(doc) : node;
}

/**
 * Finds the YAML nodes at a path of keys: the value and the key that holds it
 * (problems about a whole entry point at its key, `checkout-api:`). Stops at
 * the deepest node that exists; `found`: the whole path exists.
 */
function locate(doc: Document, path: string[]): { key: Node | undefined; value: Node | undefined; found: boolean } {
  let current = resolve(doc, doc.contents);
  let key: Node | undefined;
  let depth = 0;
  for (const segment of path) {
    if (isMap(current)) {
      const pair = pairIndex.get(current)?.get(segment);
      if (!pair) break;
      key = pair.key as Node;
      // `checkout-api:` with nothing after it has no value, or an empty one: point at the key.
      const value = resolve(doc, pair.value);
      const empty = value === null || value === undefined || (isScalar(value) && value.range?.[0] === value.range?.[1]);
      current = empty ? pair.key : value;
    } else if (isSeq(current)) {
      const item = resolve(doc, current.items[Number(segment)]);
      if (item === undefined) break;
      key = undefined;
      current = item;
    } else {
      break;
    }
    depth += 1;
  }
  const value = current as Node | undefined;
  return { key: key ?? value, value, found: depth === path.length };
}

/** The keys of the map at `path` in file order (JS objects put integer-like keys first; without one, theirs is the file's). */
function keysInOrder(doc: Document, path: string[], value: JsonObject): string[] {
  const keys = Object.keys(value);
  if (!keys.some((k) => /^(?:0|[1-9]\d*)$/.test(k))) return keys;
  const node = locate(doc, path).value;
  const ordered = isMap(node) ? node.items.map((p) => keyText(p.key)) : [];
  const present = new Set(keys);
  return [...new Set([...ordered.filter((k) => present.has(k)), ...keys])];
}

/** Positions in one manifest file, from its one parse (see locate; an offset of none is 1:1). */
export interface Locator {
  at(path: string[], which: 'key' | 'value'): { line: number; col: number };
  has(path: string[]): boolean;
  of(offset: number | undefined): { line: number; col: number };
}

function locatorOf(doc: Document, lineCounter: LineCounter): Locator {
  const of = (offset: number | undefined) => (offset === undefined ? { line: 1, col: 1 } : lineCounter.linePos(offset));
  return {
    at: (path, which) => of(locate(doc, path)[which]?.range?.[0]),
    has: (path) => locate(doc, path).found,
    of,
  };
}

// ---------------------------------------------------------------- messages

/** One schema error in words, and the key or the value it is about. */
function describe(error: ErrorObject): { at: string[]; which: 'key' | 'value'; message: string } | undefined {
  const path = decodePointer(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const custom = (error.parentSchema as { errorMessage?: string } | undefined)?.errorMessage;
  // A propertyNames failure comes twice: the wrapper, and the rule the name broke (with propertyName set).
  if (error.keyword === 'propertyNames') return undefined;
  const propertyName = (error as ErrorObject & { propertyName?: string }).propertyName;
  if (propertyName !== undefined) {
    const at = [...path, propertyName];
    return { at, which: 'key', message: `${showPath(at)}: ${custom ?? error.message ?? 'invalid key'}` };
  }
  if (path.length === 0 && error.keyword === 'type')
    return { at: [], which: 'value', message: 'the manifest must be a mapping with monitors: and/or channels:' };
  const here = showPath(path);
  switch (error.keyword) {
    case 'required':
      return { at: path, which: 'key', message: `${here}: missing required field "${String(params.missingProperty)}"` };
    case 'additionalProperties': {
      const field = String(params.additionalProperty);
      const expected = path.length === 0 ? ' (expected monitors, channels, custom_fields or $schema)' : '';
      return {
        at: [...path, field],
        which: 'key',
        message: `${here ? `${here}: ` : ''}unknown field "${field}"${expected}`,
      };
    }
  }
  // A field that must not be there at all: point at its name.
  const which = error.keyword === 'not' ? 'key' : 'value';
  const said = (message: string) => ({ at: path, which, message: `${here} ${message}` }) as const;
  if (custom) return said(custom);
  switch (error.keyword) {
    case 'type': {
      const types = ([] as unknown[])
        .concat(params.type)
        .map(String)
        .filter((t) => t !== 'null');
      return said(`must be ${types.map((t) => TYPE_NAMES[t] ?? t).join(' or ')}`);
    }
    case 'minLength':
      return said(params.limit === 1 ? 'must not be empty' : `${error.message}`);
    case 'minimum':
      return said(`must be at least ${String(params.limit)}`);
    case 'uniqueItems':
      return said('must not list an item twice');
    default:
      return said(error.message ?? `fails ${error.keyword}`);
  }
}
