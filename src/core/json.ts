// JSON from the server. JSON.parse defines every key, "__proto__" included, as
// an own data property, so parsing alone never changes a prototype; reading a
// field through the prototype chain (`body.constructor` is always "there") or
// copying with assignment (which runs the `__proto__` setter) would. So server
// fields are read with ownField and copied with setOwn, never assigned.

/**
 * `error`: JSON.parse's SyntaxError when the text is not JSON; otherwise a plain Error for a limit of cpk's
 * (too deep, a number too large), whose message is a predicate that follows a subject ("is nested deeper
 * than 1000 levels"). Callers tell the two apart by SyntaxError alone.
 */
export type ParsedJson = { ok: true; value: unknown } | { ok: false; error: Error };

/**
 * The deepest nesting cpk accepts in JSON it reads (responses, --data, --from,
 * --set, the config file): far beyond any real document, and far below what
 * would exhaust the stack of a renderer or of JSON.stringify.
 */
export const MAX_JSON_DEPTH = 1000;

/** The deepest nesting of objects and arrays in JSON text (strings skipped). Linear, no recursion. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) max = Math.max(max, ++depth);
    else if (c === 125 || c === 93) depth--;
  }
  return max;
}

/**
 * A number that a double cannot hold as written (12345678901234567890,
 * 9007199254740993, 1.50, -0), from the server or from the user: kept as its
 * source text, so that cpk prints and sends exactly what was written
 * (stringifyJson). Arithmetic sees the nearest double.
 */
export class ExactNumber {
  constructor(readonly source: string) {}
  valueOf(): number {
    return Number(this.source);
  }
  toString(): string {
    return this.source;
  }
  /**
   * Only for a JSON.stringify that is not cpk's own (a library's): the nearest
   * finite double, else the text. cpk writes JSON with stringifyJson.
   */
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
 * JSON.parse when the text holds no such number (nearly always). `finite`:
 * a number beyond a double's range (1e999) is refused (it would be sent as
 * null), where it would otherwise be kept as text.
 */
export function parseJson(text: string, options: { finite?: boolean } = {}): ParsedJson {
  if (text.length > MAX_JSON_DEPTH && jsonDepth(text) > MAX_JSON_DEPTH)
    return { ok: false, error: new Error(`is nested deeper than ${MAX_JSON_DEPTH} levels`) };
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
  let infinite = false;
  const marked = text.replace(TOKENS, (token) => {
    if (token.charCodeAt(0) === 34 || String(Number(token)) === token) return token;
    found = true;
    if (!Number.isFinite(Number(token))) infinite = true;
    return JSON.stringify(marker + token);
  });
  if (infinite && options.finite)
    return { ok: false, error: new Error('holds a number too large for JSON (it would be sent as null)') };
  if (!found) return { ok: true, value };
  return {
    ok: true,
    value: JSON.parse(marked, (_key, v: unknown) =>
      typeof v === 'string' && v.startsWith(marker) ? new ExactNumber(v.slice(marker.length)) : v,
    ) as unknown,
  };
}

/**
 * JSON that a user gives cpk (--data, --from, --set, saved plans, the state
 * file, the config): numbers kept exactly as written (ExactNumber), nesting
 * bounded, and a number beyond a double's range refused, as it could not be
 * sent as written.
 */
export function parseUserJson(text: string): unknown {
  const parsed = parseJson(text, { finite: true });
  if (!parsed.ok) throw parsed.error;
  return parsed.value;
}

/**
 * JSON.stringify, with every ExactNumber written as its source text: what cpk
 * sends, saves (state, plans) and prints. A marker no input can forge stands
 * in for each one, then its text replaces the marker. The holder's own value
 * is checked, as toJSON runs before a replacer.
 */
export function stringifyJson(value: unknown, indent?: number): string {
  const sources: string[] = [];
  const marker = `cpk-exact-${Math.random().toString(36).slice(2)}-`;
  const text =
    JSON.stringify(
      value,
      function (this: Record<string, unknown>, key: string, v: unknown) {
        const own = this[key];
        if (own instanceof ExactNumber) return `${marker}${sources.push(own.source) - 1}`;
        return v;
      },
      indent,
    ) ?? 'null';
  if (sources.length === 0) return text;
  return text.replace(new RegExp(`"${marker}(\\d+)"`, 'g'), (_m, i: string) => sources[Number(i)]!);
}

/** A deep copy of a JSON value (structuredClone would make each ExactNumber a plain object; they are immutable, so shared). */
export function copyJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyJson) as T;
  if (!isPlainObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(value)) setOwn(out, key, copyJson(v));
  return out as T;
}

/** `value` with every ExactNumber made its nearest double: for checks of type and range (JSON Schema), never for sending. */
export function nearestDoubles(value: unknown): unknown {
  if (value instanceof ExactNumber) return Number(value.source);
  if (Array.isArray(value)) return value.some(holdsExact) ? value.map(nearestDoubles) : value;
  if (!isPlainObject(value) || !holdsExact(value)) return value;
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(value)) setOwn(out, key, nearestDoubles(v));
  return out;
}

function holdsExact(value: unknown): boolean {
  if (value instanceof ExactNumber) return true;
  if (Array.isArray(value)) return value.some(holdsExact);
  return isPlainObject(value) && Object.values(value).some(holdsExact);
}

const DECIMAL = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * A number's exact value as one canonical text (digits without leading or
 * trailing zeros, and a power of ten), so that two spellings of one value
 * compare equal (1.0 and 1, 1e2 and 100, -0 and 0) and two values a double
 * cannot tell apart do not. BigInt holds the exponent: no double is involved.
 */
function canonicalNumber(n: number | ExactNumber): string {
  const text = typeof n === 'number' ? String(n) : n.source;
  const match = DECIMAL.exec(text);
  if (!match) return text;
  const [, sign, whole = '', fraction = '', exponent = '0'] = match;
  let digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '') return '0';
  const trailing = digits.length - digits.replace(/0+$/, '').length;
  digits = digits.slice(0, digits.length - trailing);
  return `${sign}${digits}e${BigInt(exponent) - BigInt(fraction.length) + BigInt(trailing)}`;
}

function isNumeric(value: unknown): value is number | ExactNumber {
  return typeof value === 'number' || value instanceof ExactNumber;
}

/**
 * Whether two JSON values are the same: numbers by their exact value
 * (canonicalNumber), objects by their own keys whatever their order, arrays
 * item by item.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isNumeric(a) || isNumeric(b)) return isNumeric(a) && isNumeric(b) && canonicalNumber(a) === canonicalNumber(b);
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]))
  );
}

/** An own field of a parsed object, or undefined: never one inherited from a prototype. */
export function ownField(object: object, key: string): unknown {
  return Object.hasOwn(object, key) ? (object as Record<string, unknown>)[key] : undefined;
}

/** Describes a JSON syntax error by line and column, never quoting the file (it may hold a token). */
export function describeJsonError(text: string, error: unknown): string {
  if (text.trim() === '') return 'is empty, not a JSON object';
  // A limit of parseJson's is worded already; only a syntax error is placed by line and column.
  if (error instanceof Error && !(error instanceof SyntaxError)) return error.message;
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

/** An object of JSON: not an array, nor an ExactNumber (a number, though held in an object). */
export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof ExactNumber);
}

/** Sets an own property, so that a `__proto__` key (`--set __proto__.x=1`, server JSON) is data, never a prototype. */
export function setOwn(target: JsonObject, key: string, value: unknown): void {
  // Only "__proto__" is an accessor on Object.prototype; plain assignment is
  // far cheaper than defineProperty on an object of thousands of keys.
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
