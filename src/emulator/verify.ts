// Verification, as WireMock's verify API offers it: count and find the logged requests that match a pattern
// (POST /__emulator/requests/count and /find), so a test can assert what a client sent. A pattern is matched
// against the log as the admin routes show it, tokens redacted: a token never becomes something to guess at.
import { isPlainObject } from '../core/json.js';
import { Refusal } from './respond.js';

/** What a request must have to match; every part given must hold, an absent part matches anything. */
export interface RequestPattern {
  /** Upper-cased; absent (or "ANY") for any method. */
  method?: string;
  /** The raw path without the query, exactly, or as a prefix when it ends with "*" (as a fault's path). */
  path?: string;
  /** Each parameter must be present once with exactly this value; others may be there too. */
  query?: Record<string, string>;
  /** Each header (any case) must have exactly this value, as the log shows it (tokens redacted). */
  headers?: Record<string, string>;
  /** The body is a JSON object whose top-level fields include these, each equal as JSON (others may be there). */
  body?: Record<string, unknown>;
  /** The request id sent back in X-Request-Id. */
  request_id?: string;
  /** The status answered (null: none was sent, as after a reset or a hang). */
  status?: number | null;
}

/** A log entry as the admin routes show it. */
interface Logged {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  request_id: string;
  status: number | null;
}

const PATTERN_KEYS = ['method', 'path', 'query', 'headers', 'body', 'request_id', 'status'];

function need(ok: boolean, message: string): void {
  if (!ok) throw new Refusal(422, message);
}

const isStringMap = (value: unknown): value is Record<string, string> =>
  isPlainObject(value) && Object.values(value).every((v) => typeof v === 'string');

/** Checks a pattern (422 naming what is wrong); a method "ANY" is the same as none. */
export function normalizePattern(input: unknown): RequestPattern {
  need(isPlainObject(input), 'a request pattern must be a JSON object');
  const p = input as Record<string, unknown>;
  for (const key of Object.keys(p)) need(PATTERN_KEYS.includes(key), `unknown pattern field: ${key}`);
  need(
    p.method === undefined || (typeof p.method === 'string' && /^[A-Za-z]+$/.test(p.method)),
    'method must be an HTTP method name or ANY',
  );
  need(
    p.path === undefined || (typeof p.path === 'string' && p.path.startsWith('/')),
    'path must be a string starting with /',
  );
  need(p.query === undefined || isStringMap(p.query), 'query must be an object of strings');
  need(p.headers === undefined || isStringMap(p.headers), 'headers must be an object of strings');
  need(p.body === undefined || isPlainObject(p.body), 'body must be a JSON object of the fields to match');
  need(p.request_id === undefined || typeof p.request_id === 'string', 'request_id must be a string');
  need(
    p.status === undefined ||
      p.status === null ||
      (Number.isInteger(p.status) && (p.status as number) >= 100 && (p.status as number) <= 599),
    'status must be an integer from 100 to 599, or null',
  );
  const method = (p.method as string | undefined)?.toUpperCase();
  return { ...(p as RequestPattern), method: method === 'ANY' ? undefined : method };
}

/** Equal as JSON values: same type, same members (object members in any order). */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
}

/** Does a logged request (as the admin routes show it) match the pattern? */
export function matchesPattern(pattern: RequestPattern, r: Logged): boolean {
  if (pattern.method !== undefined && r.method.toUpperCase() !== pattern.method) return false;
  const [path = '', query = ''] = splitOnce(r.path, '?');
  if (pattern.path !== undefined) {
    const p = pattern.path;
    if (p.endsWith('*') ? !path.startsWith(p.slice(0, -1)) : path !== p) return false;
  }
  if (pattern.request_id !== undefined && r.request_id !== pattern.request_id) return false;
  if (pattern.status !== undefined && r.status !== pattern.status) return false;
  if (pattern.query !== undefined) {
    const params = new URLSearchParams(query);
    for (const [name, value] of Object.entries(pattern.query)) {
      const given = params.getAll(name);
      if (given.length !== 1 || given[0] !== value) return false;
    }
  }
  if (pattern.headers !== undefined)
    for (const [name, value] of Object.entries(pattern.headers)) {
      const given = r.headers[name.toLowerCase()];
      if (!(Array.isArray(given) ? given.includes(value) : given === value)) return false;
    }
  if (pattern.body !== undefined) {
    const fields = parseObject(r.body);
    if (fields === undefined) return false;
    for (const [name, value] of Object.entries(pattern.body))
      if (!Object.hasOwn(fields, name) || !jsonEqual(value, fields[name])) return false;
  }
  return true;
}

/** The body as a JSON object, or undefined (not JSON, not an object, or cut short in the log). */
function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined; // malformed, or nested deeper than the parser goes
  }
}

function splitOnce(text: string, separator: string): [string, string?] {
  const at = text.indexOf(separator);
  return at < 0 ? [text] : [text.slice(0, at), text.slice(at + 1)];
}
