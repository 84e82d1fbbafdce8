// Checks manifest entries against the create and update bodies the service's
// own document declares, through ajv (docs/monitors-as-code.md says what is
// checked, and when an undeclared field is taken for a typo). A declared
// `pattern` is left to the service, which checks it when the entry is sent:
// matching the service's own text, such as `^(a+)+$`, can take exponential time.
// What is checked is the body that would be sent; what is reported is the place
// the user wrote, file:line:column, every problem at once.
import type { ErrorObject } from 'ajv';
import type { DeclaredBody, SpecInfo } from '../core/api/spec.js';
import { isPlainObject, nearestDoubles, stringifyJson, type JsonObject } from '../core/json.js';
import { closest } from '../core/closest.js';
import {
  decodePointer,
  showPath,
  TYPE_NAMES,
  uniqueBy,
  type Locator,
  type Manifest,
  type Problem,
} from './positions.js';

export interface ValidationProblem extends Problem {
  file: string;
  /** The entry it is about, ['monitors', key] or ['channels', id], when it is about one. */
  entry?: string[];
}

/** Manifest aliases: the field as written in a manifest, and the field of the body it is sent as. */
const ALIASES: Record<string, string> = { interval_seconds: 'interval' };

/** A problem found in a body: at a path in it ([] for the entry as a whole), about a field's name or its value. */
interface Found {
  at: string[];
  which: 'key' | 'value';
  /** The message after the path, e.g. "must be at least 30". */
  message: string;
}

/** The checker of one sort of entry, against every body it may be sent as. */
async function checkerOf(
  bodies: Array<DeclaredBody | undefined>,
  customFields: readonly string[],
  aliases: Record<string, string>,
  /** Report an undeclared field spelled like a declared one even where the document accepts others (a manifest). */
  nearMisses = true,
): Promise<(body: JsonObject) => Found[]> {
  const kinds = bodies.filter((b) => b !== undefined);
  // One schema for both bodies (compiling is most of the cost, and they share their $refs):
  // every rule of either applies, as an entry may be created or updated.
  const [first] = kinds;
  if (!first) return () => [];
  // validateSchema off: checking the document against the meta-schema took ~30 ms of every plan, and
  // ajv still refuses a keyword whose value has the wrong type as it compiles.
  const options = {
    allErrors: true,
    strict: false,
    validateFormats: false,
    allowUnionTypes: true,
    validateSchema: false,
  } as const;
  const ajv =
    first.schema.dialect === '2020-12'
      ? new (await import('ajv/dist/2020.js')).Ajv2020(options)
      : new (await import('ajv')).Ajv(options);
  // Patterns are the service's to check (see the top of this file).
  ajv.removeKeyword('pattern');
  const check = ajv.compile({
    ...first.schema.schema,
    allOf: kinds.flatMap((b) => (b.schema.schema.allOf as unknown[]) ?? []),
  });
  const declared = [...new Set(kinds.flatMap((b) => b.fields.map((f) => f.name)))];
  const readOnly = new Set(kinds.flatMap((b) => b.readOnly));
  const refusesOthers = kinds.some((b) => !b.additional);
  const custom = new Set(customFields);
  // Misspellings are looked for among the declared fields and the aliases of those the manifest writes otherwise.
  const spellings = [...declared, ...declared.flatMap((f) => (aliases[f] ? [aliases[f]] : []))];
  const declaredSet = new Set(declared);
  // The same custom field comes back in entry after entry: its verdict is worked out once.
  const near = new Map<string, string | undefined>();
  const nearOf = (field: string) => {
    if (!near.has(field)) near.set(field, suggestion(field, spellings));
    return near.get(field);
  };

  return (body) => {
    const problems: Found[] = [];
    const add = (at: string[], which: 'key' | 'value', message: string) => problems.push({ at, which, message });
    for (const field of Object.keys(body)) {
      if (readOnly.has(field)) add([field], 'key', 'is set by the service (read-only in its document)');
      else if (declaredSet.has(field) || custom.has(field) || declared.length === 0) continue;
      else if (refusesOthers) add([field], 'key', `is not a field the service accepts${nearOf(field) ?? ''}`);
      else if (nearMisses) {
        const near = nearOf(field);
        if (near)
          add(
            [field],
            'key',
            `is not a field the service declares${near} (to send it as it is, list it under custom_fields:)`,
          );
      }
    }
    // Types and ranges are checked on each exact number's nearest double; the body sent keeps it as written.
    if (!check(nearestDoubles(body))) {
      for (const error of check.errors ?? []) {
        const problem = describe(error, body, readOnly);
        if (problem) problems.push(problem);
      }
    }
    return uniqueBy(problems, (p) => `${p.at.join('\0')}\0${p.message}`);
  };
}

function suggestion(field: string, candidates: readonly string[]): string | undefined {
  // A single letter is one edit away from every other: nothing to suggest.
  if (field.length < 2) return undefined;
  const near = closest(field, candidates);
  return near !== undefined && near !== field ? `; did you mean "${near}"?` : undefined;
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : stringifyJson(value);
}

/** One ajv error as a problem at a body path, in words; undefined for errors another one already says. */
function describe(error: ErrorObject, body: JsonObject, readOnly: ReadonlySet<string>): Found | undefined {
  const at = decodePointer(error.instancePath);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required')
    return { at: [], which: 'key', message: `missing required field "${String(params.missingProperty)}"` };
  if (error.keyword === 'additionalProperties') {
    // The top level's unknown fields are reported with a suggestion above.
    if (at.length === 0) return undefined;
    return {
      at: [...at, String(params.additionalProperty)],
      which: 'key',
      message: 'is not a field the service accepts',
    };
  }
  // An update body's "at least one field": an entry always has its name.
  if (error.keyword === 'minProperties') return undefined;
  // The usual form of "these fields are read-only" (not: {anyOf: [{required: [id]}, ...]}): said above, by field.
  if (error.keyword === 'not' && at.length === 0 && Object.keys(body).some((f) => readOnly.has(f))) return undefined;
  return { at, which: 'value', message: mustBe(error, params, valueAt(body, at)) };
}

/** What a value that breaks one rule must be, in words. */
function mustBe(error: ErrorObject, params: Record<string, unknown>, value: unknown): string {
  const limit = String(params.limit);
  switch (error.keyword) {
    case 'not':
      return "does not match the service's declared body";
    case 'anyOf':
    case 'oneOf':
    case 'if':
      return 'does not match any of the forms the service declares';
    case 'type':
      return `must be ${([] as unknown[])
        .concat(params.type)
        .map((t) => TYPE_NAMES[String(t)] ?? String(t))
        .join(' or ')}`;
    case 'enum': {
      const allowed = (params.allowedValues as unknown[] | undefined) ?? [];
      const strings = allowed.filter((v): v is string => typeof v === 'string');
      const near = typeof value === 'string' ? suggestion(value, strings) : undefined;
      return `must be one of ${allowed.map(show).join(', ')}${near ?? ''}`;
    }
    case 'const':
      return `must be ${show(params.allowedValue)}`;
    case 'minimum':
      return `must be at least ${limit}`;
    case 'maximum':
      return `must be at most ${limit}`;
    case 'exclusiveMinimum':
      return `must be more than ${limit}`;
    case 'exclusiveMaximum':
      return `must be less than ${limit}`;
    case 'minLength':
      return params.limit === 1 ? 'must not be empty' : `must be at least ${limit} characters`;
    case 'maxLength':
      return `must be at most ${limit} characters`;
    default:
      return error.message ?? `fails the service's "${error.keyword}" rule`;
  }
}

function valueAt(body: JsonObject, at: string[]): unknown {
  let current: unknown = body;
  for (const segment of at) current = isPlainObject(current) ? current[segment] : undefined;
  return current;
}

/** A problem where the user wrote it: one about `interval_seconds` is at `interval` where the entry gives that. */
function placed(p: Found, file: string, entry: string[], body: JsonObject, locator: Locator): ValidationProblem {
  let at = p.at;
  let note = '';
  const [first, ...rest] = at;
  const alias = first !== undefined && entry[0] === 'monitors' ? ALIASES[first] : undefined;
  if (alias && !locator.has([...entry, first as string]) && locator.has([...entry, alias])) {
    at = [alias, ...rest];
    if (p.which === 'value') note = ` (sent as ${first}: ${show(valueAt(body, p.at))})`;
  }
  const path = [...entry, ...at];
  const place = locator.at(p.at.length === 0 ? entry : path, p.which);
  const separator = p.at.length === 0 ? ': ' : ' ';
  return { file, ...place, message: `${showPath(path)}${separator}${p.message}${note}`, entry };
}

/** Every entry of the manifest checked against what the document declares, each problem with its place. */
export async function validateEntries(
  manifest: Manifest,
  spec: SpecInfo,
  debug: (line: string) => void = () => {},
): Promise<{
  problems: ValidationProblem[];
  /** The bodies checked against ("monitor create and update, channel update"), or undefined. */
  checked: string | undefined;
  /** Why nothing was checked, when nothing was. */
  unchecked?: string | undefined;
}> {
  const nothing = (why: string) => {
    debug(`validation: ${why}; entries are not checked`);
    return { problems: [], checked: undefined, unchecked: why };
  };
  const [create, update, channel] = (['create', 'update', 'channel-update'] as const).map((k) => spec.body(k));
  if (!create && !update && !channel)
    return nothing(
      `the service's document ${spec.present ? 'declares no monitor or channel body' : 'is missing, unreachable or not an OpenAPI document'}`,
    );
  const { monitors, channels, customFields } = manifest;
  // A body no entry is sent as is not compiled (compiling is the cost): its checker checks nothing.
  let monitorCheck: (body: JsonObject) => Found[], channelCheck: typeof monitorCheck;
  try {
    monitorCheck = await checkerOf(monitors.length > 0 ? [create, update] : [], customFields, ALIASES);
    channelCheck = await checkerOf(channels.length > 0 ? [channel] : [], customFields, {});
  } catch (error) {
    return nothing(`the document's body schemas cannot be used (${(error as Error).message})`);
  }
  const monitor = [create ? 'create' : '', update ? 'update' : ''].filter(Boolean).join(' and ');
  const checked = [monitor ? `monitor ${monitor}` : '', channel ? 'channel update' : ''].filter(Boolean).join(', ');
  const problems: ValidationProblem[] = [];
  // Each file's rank, by its first entry (monitors first), looked up: a directory may hold thousands of files.
  const rank = new Map<string, number>();
  const check = (file: string, entry: string[], body: JsonObject, checker: typeof monitorCheck) => {
    if (!rank.has(file)) rank.set(file, rank.size);
    const found = checker(body);
    if (found.length === 0) return;
    const locator = manifest.places.get(file);
    if (!locator) throw new Error(`internal error: no positions for ${file}`);
    for (const p of found) problems.push(placed(p, file, entry, body, locator));
  };
  for (const m of monitors) check(m.file ?? manifest.path, ['monitors', m.key], m.body, monitorCheck);
  for (const c of channels) check(c.file ?? manifest.path, ['channels', c.id], c.settings, channelCheck);
  const count = monitors.length + channels.length;
  debug(
    `validation: ${count} entr${count === 1 ? 'y' : 'ies'} checked against the declared bodies (${checked}): ${problems.length} problem${problems.length === 1 ? '' : 's'}`,
  );
  const rankOf = (file: string) => rank.get(file) ?? 0;
  problems.sort((a, b) => rankOf(a.file) - rankOf(b.file) || a.line - b.line || a.col - b.col);
  return { problems, checked };
}

/**
 * Bodies sent as they are written (`monitors create --from`) against one body the document declares, by the
 * same checker as manifest entries: each body's problems, as "interval_seconds must be at least 30". Where
 * the document accepts other fields, a field it does not declare is the service's to judge, however spelled.
 * Undefined when nothing can be checked (no such body declared, or a schema ajv cannot compile).
 */
export async function bodyProblems(
  declared: DeclaredBody | undefined,
  bodies: readonly JsonObject[],
): Promise<string[][] | undefined> {
  if (!declared) return undefined;
  let check: (body: JsonObject) => Found[];
  try {
    check = await checkerOf([declared], [], {}, false);
  } catch {
    return undefined;
  }
  return bodies.map((body) =>
    check(body).map((p) => (p.at.length === 0 ? p.message : `${showPath(p.at)} ${p.message}`)),
  );
}

/** `file:line:col: message`, the way compilers and editors read them. */
export function problemLine(p: ValidationProblem): string {
  return `${p.file}:${p.line}:${p.col}: ${p.message}`;
}
