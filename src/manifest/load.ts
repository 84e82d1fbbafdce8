// Reads a manifest (cpk.yaml, or the same structure as JSON, which YAML reads
// too) and checks it against schema/manifest.schema.json. Every problem is
// reported with file:line:column before anything is sent (issue #6). yaml and
// ajv are imported here only, and only plan, apply and import load this module.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
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
} from 'yaml';
import { Ajv, type ErrorObject } from 'ajv';
import jsYaml from 'js-yaml';
import schema from '../../schema/manifest.schema.json' with { type: 'json' };
import { UsageError } from '../errors.js';
import { parseDuration } from '../parse/duration.js';
import { isPlainObject, setOwn, type JsonObject } from '../parse/fields.js';

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

  /** One line per problem, `file:line:col: message`, the way compilers and editors read them. */
  lines(): string[] {
    return this.problems.map((p) => `${p.file ?? this.file}:${p.line}:${p.col}: ${p.message}`);
  }
}

export async function readManifest(path: string): Promise<Manifest> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read the manifest ${path}${code ? ` (${code})` : ''}`, {
      hint: code === 'ENOENT' ? 'write one (README: "Monitors as code") or point at it with -f FILE' : undefined,
    });
  }
  return parseManifest(text, path);
}

/** What a manifest directory holds: read, sorted by name, not recursively (as `kubectl apply -f DIR`). */
const MANIFEST_NAME = /\.(ya?ml|json)$/i;
/** In a manifest directory but not manifests: state files, saved plans (plan.json, *.plan.json), hidden files. */
const NOT_MANIFEST = /^\.|(^|\.)(state|plan)\.json$/i;

/** The manifest files `-f` names: files as given, a directory as its *.yaml, *.yml, *.json. */
export async function manifestFiles(paths: string[]): Promise<{ files: string[]; directory: string | undefined }> {
  const files: string[] = [];
  let directory: string | undefined;
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (!info?.isDirectory()) {
      files.push(path);
      continue;
    }
    directory = path;
    let names: string[];
    try {
      // Files only (a symlink is followed when read): subdirectories are not read.
      const entries = await readdir(path, { withFileTypes: true });
      names = entries.filter((e) => e.isFile() || e.isSymbolicLink()).map((e) => e.name);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(`cannot read the manifest directory ${path}${code ? ` (${code})` : ''}`);
    }
    const found = names.filter((n) => MANIFEST_NAME.test(n) && !NOT_MANIFEST.test(n)).sort();
    if (found.length === 0)
      throw new UsageError(`no manifest in the directory ${path} (cpk reads its *.yaml, *.yml and *.json files)`);
    files.push(...found.map((name) => join(path, name)));
  }
  return { files, directory: paths.length === 1 ? directory : undefined };
}

/**
 * Reads several manifests as one: entries in file order, then in each file's
 * order. Every file's problems are reported together; a monitor key or a
 * channel id defined in two files is a problem naming both places.
 */
export async function readManifests(files: string[], label: string): Promise<Manifest> {
  if (files.length === 1) return readManifest(files[0]!);
  const texts = new Map<string, string>();
  const read = await Promise.all(
    files.map(async (file) => {
      try {
        const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
          throw new UsageError(`cannot read the manifest ${file}${error.code ? ` (${error.code})` : ''}`);
        });
        texts.set(file, text);
        return parseManifest(text, file);
      } catch (error) {
        if (error instanceof ManifestError) return error;
        throw error;
      }
    }),
  );
  const problems: Problem[] = [];
  for (const r of read)
    if (r instanceof ManifestError) problems.push(...r.problems.map((p) => ({ ...p, file: r.file })));
  const merged: Manifest = { path: label, monitors: [], channels: [], customFields: [] };
  const monitorFrom = new Map<string, string>();
  const channelFrom = new Map<string, string>();
  const twice = (section: 'monitors' | 'channels', name: string, first: string, second: string) => {
    const a = keyPosition(texts.get(first) ?? '', [section, name]);
    const b = keyPosition(texts.get(second) ?? '', [section, name]);
    problems.push({
      file: second,
      ...b,
      message: `${showPath([section, name])} is defined twice: here and at ${first}:${a.line}:${a.col}`,
    });
  };
  for (const r of read) {
    if (r instanceof ManifestError) continue;
    // custom_fields: what any of the files sends on purpose.
    for (const field of r.customFields) if (!merged.customFields.includes(field)) merged.customFields.push(field);
    for (const entry of r.monitors) {
      const first = monitorFrom.get(entry.key);
      if (first !== undefined) twice('monitors', entry.key, first, r.path);
      else {
        monitorFrom.set(entry.key, r.path);
        merged.monitors.push({ ...entry, file: r.path });
      }
    }
    for (const entry of r.channels) {
      const first = channelFrom.get(entry.id);
      if (first !== undefined) twice('channels', entry.id, first, r.path);
      else {
        channelFrom.set(entry.id, r.path);
        merged.channels.push({ ...entry, file: r.path });
      }
    }
  }
  if (problems.length > 0) throw new ManifestError(label, problems);
  return merged;
}

/** Where a key is written in manifest text (1:1 when it cannot be found). */
function keyPosition(text: string, path: string[]): { line: number; col: number } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: false });
  const offset = locate(doc, path).key?.range?.[0];
  return offset === undefined ? { line: 1, col: 1 } : lineCounter.linePos(offset);
}

const DURATION_SHAPE = new RegExp(schema.definitions.monitor.properties.interval.pattern);

let validator: ReturnType<Ajv['compile']> | undefined;
function validate(value: unknown): ErrorObject[] {
  if (!validator) {
    // verbose: errors carry their schema, whose errorMessage (also read by
    // editors) is the message for people; the two keywords only annotate.
    const ajv = new Ajv({ allErrors: true, verbose: true, allowUnionTypes: true });
    ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });
    validator = ajv.compile(schema);
  }
  return validator(value) ? [] : [...(validator.errors ?? [])];
}

/** Parses and validates manifest text; `path` names the file in problems. */
export function parseManifest(text: string, path: string): Manifest {
  return fastManifest(text, path) ?? positionedManifest(text, path);
}

/**
 * The manifest's entries from its parsed value: `interval` turned into
 * `interval_seconds`, keys in `order`. What the schema cannot check is
 * reported to `problem` with the path it concerns.
 */
function buildManifest(
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

/** Text the fast parser might read otherwise than yaml does: aliases (shared, or a bomb), `0b101`, `+.5`. */
const NOT_FAST = /[&*]|\b0b[01]|\+\./;
/** A key JavaScript would put first in an object (integer-like): the file's order would be lost. */
const INDEX_LIKE = /^(0|[1-9]\d*)$/;

class NotFast extends Error {}

/**
 * The common case, fast: a valid manifest read by js-yaml (ten times faster
 * than yaml's Document, which keeps every position). Gives undefined at the
 * first sign of a problem or of anything the two parsers might read
 * differently; the positioned parse then finds every problem with its line
 * and column.
 */
function fastManifest(text: string, path: string): Manifest | undefined {
  if (NOT_FAST.test(text)) return undefined;
  let value: unknown;
  try {
    // JSON too (JSON.parse would let a key given twice pass; js-yaml refuses it).
    value = jsYaml.load(text, { schema: jsYaml.CORE_SCHEMA });
  } catch {
    return undefined;
  }
  if (validate(value).length > 0 || nonFinite(value).length > 0) return undefined;
  try {
    return buildManifest(
      value,
      path,
      (_at, obj) => {
        const keys = Object.keys(obj);
        if (keys.some((k) => INDEX_LIKE.test(k))) throw new NotFast();
        return keys;
      },
      () => {
        throw new NotFast();
      },
    );
  } catch (error) {
    if (error instanceof NotFast) return undefined;
    throw error;
  }
}

/** Parses with every node's position, so that each problem is reported with its line and column. */
export function positionedManifest(text: string, path: string): Manifest {
  const lineCounter = new LineCounter();
  // Duplicate keys are found below, with a Set per map: yaml's own check compares each key with every other.
  const doc = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: false, strict: true });
  const at = (offset: number | undefined): { line: number; col: number } =>
    offset === undefined ? { line: 1, col: 1 } : lineCounter.linePos(offset);

  const syntax: Problem[] = [...doc.errors, ...doc.warnings].map((e) => {
    const pos = e.linePos?.[0] ?? at(e.pos[0]);
    // yaml's message goes on with " at line N, column M:" and a code excerpt.
    const message = (e.message.split('\n')[0] ?? e.message).replace(/ at line \d+, column \d+:?$/, '');
    return { line: pos.line, col: pos.col, message };
  });
  if (syntax.length === 0) {
    for (const node of duplicateKeys(doc.contents))
      syntax.push({ ...at(node.range?.[0]), message: 'Map keys must be unique' });
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
        ...at(first?.range?.[0]),
        message: 'YAML aliases here expand to too many values (a resource exhaustion attack?); write the values out',
      },
    ]);
  }
  const problems: Problem[] = [];
  const add = (node: Node | null | undefined, message: string) => problems.push({ ...at(node?.range?.[0]), message });

  for (const error of validate(value)) {
    const problem = describe(error, doc);
    if (problem) add(problem.node, problem.message);
  }
  for (const path of nonFinite(value)) add(locate(doc, path).value, `${showPath(path)} must be a finite number`);

  // The checks JSON Schema cannot express run even when it found problems, so that every problem is reported at once.
  const manifest = buildManifest(
    value,
    path,
    (at, obj) => keysInOrder(doc, at, obj),
    (at, which, message) => {
      const found = locate(doc, at);
      add(which === 'key' ? found.key : found.value, message);
    },
  );
  if (problems.length > 0) {
    problems.sort((a, b) => a.line - b.line || a.col - b.col);
    const seen = new Set<string>();
    throw new ManifestError(
      path,
      problems.filter((p) => {
        const id = `${p.line}:${p.col}:${p.message}`;
        return seen.has(id) ? false : (seen.add(id), true);
      }),
    );
  }
  return manifest;
}

// ---------------------------------------------------------------- positions

function keyText(key: unknown): string {
  return isScalar(key) ? String(key.value) : String(key);
}

/** Keys given twice in one map (the second and later), anywhere in the document. */
function duplicateKeys(root: unknown): Node[] {
  const out: Node[] = [];
  const seen = new Set<unknown>();
  const walk = (node: unknown) => {
    if (seen.has(node)) return;
    seen.add(node);
    if (isMap(node)) {
      const keys = new Set<string>();
      for (const pair of node.items as Array<Pair<unknown, unknown>>) {
        const text = isScalar(pair.key) ? `s:${String(pair.key.value)}` : `n:${String(pair.key)}`;
        if (keys.has(text)) out.push(pair.key as Node);
        keys.add(text);
        walk(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) walk(item);
    }
  };
  walk(root);
  return out;
}

/** Each map's pairs by key text, built once per map: finding every entry's position stays linear. */
const pairIndex = new WeakMap<object, Map<string, Pair<unknown, unknown>>>();
function pairOf(map: object & { items: unknown[] }, segment: string): Pair<unknown, unknown> | undefined {
  let index = pairIndex.get(map);
  if (!index) {
    index = new Map();
    for (const pair of map.items as Array<Pair<unknown, unknown>>) {
      const text = keyText(pair.key);
      if (!index.has(text)) index.set(text, pair);
    }
    pairIndex.set(map, index);
  }
  return index.get(segment);
}

function resolve(doc: Document, node: unknown): unknown {
  return isAlias(node) ? node.resolve(doc) : node;
}

/**
 * Finds the YAML nodes at a path of keys: the value and the key that holds it
 * (problems about a whole entry point at its key, `checkout-api:`). Stops at
 * the deepest node that exists.
 */
function locate(doc: Document, path: string[]): { key: Node | undefined; value: Node | undefined } {
  let current = resolve(doc, doc.contents);
  let key: Node | undefined;
  for (const segment of path) {
    if (isMap(current)) {
      const pair = pairOf(current, segment);
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
  }
  const value = current as Node | undefined;
  return { key: key ?? value, value };
}

/** The keys of the map at `path` in file order (JS objects put integer-like keys first). */
function keysInOrder(doc: Document, path: string[], value: JsonObject): string[] {
  const node = locate(doc, path).value;
  const ordered = isMap(node) ? node.items.map((p) => keyText(p.key)) : [];
  const keys = Object.keys(value);
  const present = new Set(keys);
  return [...new Set([...ordered.filter((k) => present.has(k)), ...keys])];
}

/**
 * Positions in manifest text, for problems found after loading (the service's
 * declared bodies, src/manifest/validate.ts): the line and column of the key
 * or the value at a path of keys, and whether that path exists.
 */
export function manifestLocator(text: string): {
  at(path: string[], which: 'key' | 'value'): { line: number; col: number };
  has(path: string[]): boolean;
} {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: false });
  return {
    at(path, which) {
      const found = locate(doc, path);
      const node = which === 'key' ? found.key : found.value;
      const offset = node?.range?.[0];
      return offset === undefined ? { line: 1, col: 1 } : lineCounter.linePos(offset);
    },
    has(path) {
      let current = resolve(doc, doc.contents);
      for (const segment of path) {
        if (!isMap(current)) return false;
        const pair = pairOf(current, segment);
        if (!pair) return false;
        current = resolve(doc, pair.value);
      }
      return true;
    },
  };
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

function describe(error: ErrorObject, doc: Document): { node: Node | undefined; message: string } | undefined {
  const path = decodePointer(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const custom = (error.parentSchema as { errorMessage?: string } | undefined)?.errorMessage;
  // A propertyNames failure comes twice: the wrapper, and the rule the name broke (with propertyName set).
  if (error.keyword === 'propertyNames') return undefined;
  const propertyName = (error as ErrorObject & { propertyName?: string }).propertyName;
  if (propertyName !== undefined) {
    return {
      node: locate(doc, [...path, propertyName]).key,
      message: `${showPath([...path, propertyName])}: ${custom ?? error.message ?? 'invalid key'}`,
    };
  }
  if (path.length === 0 && error.keyword === 'type') {
    return {
      node: doc.contents ?? undefined,
      message: 'the manifest must be a mapping with monitors: and/or channels:',
    };
  }
  const here = showPath(path);
  switch (error.keyword) {
    case 'required':
      return {
        node: locate(doc, path).key,
        message: `${here}: missing required field "${String(params.missingProperty)}"`,
      };
    case 'additionalProperties': {
      const field = String(params.additionalProperty);
      const expected = path.length === 0 ? ' (expected monitors, channels, custom_fields or $schema)' : '';
      return {
        node: locate(doc, [...path, field]).key,
        message: `${here ? `${here}: ` : ''}unknown field "${field}"${expected}`,
      };
    }
  }
  // A field that must not be there at all: point at its name.
  const node = error.keyword === 'not' ? locate(doc, path).key : locate(doc, path).value;
  if (custom) return { node, message: `${here} ${custom}` };
  switch (error.keyword) {
    case 'type': {
      const types = ([] as unknown[])
        .concat(params.type)
        .map(String)
        .filter((t) => t !== 'null');
      return { node, message: `${here} must be ${types.map((t) => TYPE_NAMES[t] ?? t).join(' or ')}` };
    }
    case 'minLength':
      return { node, message: params.limit === 1 ? `${here} must not be empty` : `${here} ${error.message}` };
    case 'minimum':
      return { node, message: `${here} must be at least ${String(params.limit)}` };
    case 'uniqueItems':
      return { node, message: `${here} must not list an item twice` };
    default:
      return { node, message: `${here} ${error.message ?? `fails ${error.keyword}`}` };
  }
}

/** Paths to numbers JSON cannot carry (YAML's .inf and .nan). */
function nonFinite(value: unknown, path: string[] = [], out: string[][] = []): string[][] {
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
