// JSON from the server. JSON.parse defines every key, "__proto__" included, as
// an own data property, so parsing alone never changes a prototype; reading a
// field through the prototype chain (`body.constructor` is always "there") or
// copying with assignment (which runs the `__proto__` setter) would. So server
// fields are read with ownField and copied with setOwn, never assigned.

export type ParsedJson = { ok: true; value: unknown } | { ok: false; error: Error };

/**
 * The deepest nesting cpk accepts in JSON it reads (responses, --data, --from,
 * --set, the config file): far beyond any real document, and far below what
 * would exhaust the stack of a renderer or of JSON.stringify.
 */
export const MAX_JSON_DEPTH = 1000;

export class JsonDepthError extends Error {
  constructor() {
    super(`nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
}

/** The deepest nesting of objects and arrays in JSON text (strings skipped). Linear, no recursion. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) max = Math.max(max, ++depth);
    else if (c === 125 || c === 93) depth--;
  }
  return max;
}

/**
 * A number from the server that a double cannot hold as written
 * (12345678901234567890, 9007199254740993, 1e400, 1.50): kept as its source
 * text, so `--json`, YAML and tables print exactly what the server sent.
 * Arithmetic sees the nearest double.
 */
export class ExactNumber {
  constructor(readonly source: string) {}
  valueOf(): number {
    return Number(this.source);
  }
  toString(): string {
    return this.source;
  }
  /** Where cpk itself writes JSON (state files): the nearest finite double, else the text. */
  toJSON(): number | string {
    const n = Number(this.source);
    return Number.isFinite(n) ? n : this.source;
  }
}

// A number that may not survive JSON.parse as written: 16 or more digits, an
// exponent, a trailing zero after the point, -0, or many leading zeros.
const MAYBE_INEXACT = /\d[\d.]{15}|\d[eE]|\.\d*0(?!\d)|-0(?![\d.])|0\.0{5}/;
const TOKENS = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * Parses JSON text as JSON.parse does, with every number that a double cannot
 * hold as written made an ExactNumber, and a bound on nesting. Fast path: one
 * JSON.parse when the text holds no such number (nearly always).
 */
export function parseJson(text: string): ParsedJson {
  if (text.length > MAX_JSON_DEPTH && jsonDepth(text) > MAX_JSON_DEPTH)
    return { ok: false, error: new JsonDepthError() };
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    return { ok: false, error: error as Error };
  }
  if (!MAYBE_INEXACT.test(text)) return { ok: true, value };
  // Inexact numbers (outside strings: the text is valid JSON, so strings and
  // numbers tokenize unambiguously) become strings no server can forge, which
  // a reviver turns back into ExactNumbers.
  const marker = `\u0000cpk-exact-${Math.random().toString(36).slice(2)}:`;
  let found = false;
  const marked = text.replace(TOKENS, (token) => {
    if (token.charCodeAt(0) === 34 || String(Number(token)) === token) return token;
    found = true;
    return JSON.stringify(marker + token);
  });
  if (!found) return { ok: true, value };
  return {
    ok: true,
    value: JSON.parse(marked, (_key, v: unknown) =>
      typeof v === 'string' && v.startsWith(marker) ? new ExactNumber(v.slice(marker.length)) : v,
    ) as unknown,
  };
}

/** JSON.parse for text cpk reads from a user (--data, --from, --set, config): bounded nesting, finite numbers. */
export function parseUserJson(text: string): unknown {
  if (text.length > MAX_JSON_DEPTH && jsonDepth(text) > MAX_JSON_DEPTH) throw new JsonDepthError();
  return JSON.parse(text, (_key, v: unknown) => {
    if (typeof v === 'number' && !Number.isFinite(v)) throw new NonFiniteNumberError();
    return v;
  }) as unknown;
}

/** A number in user JSON beyond a double's range (1e999): it would be sent as null. */
export class NonFiniteNumberError extends Error {
  constructor() {
    super('holds a number too large for JSON (it would be sent as null)');
  }
}

/** An own field of a parsed object, or undefined: never one inherited from a prototype. */
export function ownField(object: object, key: string): unknown {
  return Object.hasOwn(object, key) ? (object as Record<string, unknown>)[key] : undefined;
}

/** Describes a JSON syntax error by line and column, never quoting the file (it may hold a token). */
export function describeJsonError(text: string, error: unknown): string {
  if (text.trim() === '') return 'is empty, not a JSON object';
  if (error instanceof JsonDepthError) return `is ${error.message}`;
  if (error instanceof NonFiniteNumberError) return error.message;
  const message = error instanceof Error ? error.message : '';
  if (/end of JSON input/i.test(message)) return 'is not valid JSON (it ends too early)';
  // V8 names a position for some errors only ("Unexpected token 'x', "<the
  // text>" is not valid JSON" quotes instead): find it without quoting.
  const match = /at position (\d+)/.exec(message);
  const position = match ? Math.min(Number(match[1]), text.length) : jsonSyntaxErrorOffset(text);
  if (position === undefined) return 'is not valid JSON';
  if (!match && position >= text.length) return 'is not valid JSON (it ends too early)';
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = position - before.lastIndexOf('\n');
  return `is not valid JSON (line ${line}, column ${column})`;
}

const BLANK = /[ \t\n\r]*/y;
/** A string as far as it is valid: no raw control character, only JSON's escapes. */
const STRING = String.raw`"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9A-Fa-f]{4}))*`;
const STRING_PREFIX = new RegExp(STRING, 'y');
/** One token: punctuation, a string, a number or a literal. */
const TOKEN = new RegExp(
  String.raw`[{}[\]:,]|${STRING}"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null`,
  'y',
);

/**
 * The offset of the first character that makes `text` invalid JSON (its length
 * when it ends too early), or undefined when it is valid. Iterative: a deeply
 * nested text costs no stack.
 */
export function jsonSyntaxErrorOffset(text: string): number | undefined {
  const open: string[] = [];
  let want: 'value' | 'key' | ':' | 'after' = 'value';
  // Just after `{` or `[`: its closer may come at once.
  let opened = false;
  for (let i = 0; ; i = TOKEN.lastIndex) {
    BLANK.lastIndex = i;
    BLANK.test(text);
    i = BLANK.lastIndex;
    const top = open[open.length - 1];
    if (want === 'after' && top === undefined) return i < text.length ? i : undefined;
    TOKEN.lastIndex = i;
    const token = TOKEN.exec(text)?.[0];
    const close = top === '{' ? '}' : ']';
    const scalar = token !== undefined && !/^[{}[\]:,]$/.test(token);
    if (token !== undefined && (opened || want === 'after') && token === close) {
      open.pop();
      want = 'after';
    } else if (want === 'value' && (token === '{' || token === '[')) {
      open.push(token);
      want = token === '{' ? 'key' : 'value';
      opened = true;
      continue;
    } else if (want === 'value' && scalar) want = 'after';
    else if (want === 'key' && token?.startsWith('"')) want = ':';
    else if (want === ':' && token === ':') want = 'value';
    else if (want === 'after' && token === ',') want = top === '{' ? 'key' : 'value';
    else if (token === undefined && (want === 'value' || want === 'key') && text[i] === '"') {
      // A string that goes wrong: where it does.
      STRING_PREFIX.lastIndex = i;
      STRING_PREFIX.test(text);
      return STRING_PREFIX.lastIndex;
    } else return i;
    opened = false;
  }
}

export type JsonObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Sets an own property, so that a `__proto__` key (`--set __proto__.x=1`, server JSON) is data, never a prototype. */
export function setOwn(target: JsonObject, key: string, value: unknown): void {
  // Only "__proto__" is an accessor on Object.prototype; plain assignment is
  // far cheaper than defineProperty on an object of thousands of keys.
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
