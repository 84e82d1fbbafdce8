import { isPlainObject, ownField, parseUserJson, setOwn, type JsonObject } from '../core/json.js';
import { UsageError } from '../core/errors.js';

/**
 * The most segments a `--set` key may have (`a.b.c` has 3): as deep as the
 * emulator lets a body nest (64), and far from what would exhaust the stack
 * of whatever walks the body (merging, rendering, JSON.stringify).
 */
export const MAX_KEY_SEGMENTS = 64;

function parseAssignment(input: string, flag: string): { path: string[]; raw: string } {
  const eq = input.indexOf('=');
  if (eq <= 0) throw new UsageError(`invalid ${flag} "${input}": expected key=value`);
  const key = input.slice(0, eq);
  const path = key.split('.');
  if (path.length > MAX_KEY_SEGMENTS) {
    const shown = key.length > 40 ? `${key.slice(0, 40)}…` : key;
    throw new UsageError(
      `invalid ${flag} key "${shown}": ${path.length} segments, more than the ${MAX_KEY_SEGMENTS} a key may have`,
    );
  }
  if (path.some((segment) => segment === '')) {
    throw new UsageError(`invalid ${flag} "${input}": empty segment in key "${key}"`);
  }
  return { path, raw: input.slice(eq + 1) };
}

/** `--set`: a JSON literal when the value is one (true, 3, null, {"a":1}), else a string. */
export function parseSetValue(raw: string): unknown {
  try {
    JSON.parse(raw);
  } catch {
    return raw;
  }
  try {
    return parseUserJson(raw);
  } catch (error) {
    // 1e999 parses as Infinity, which JSON sends as null: that could clear a field.
    // JSON.parse took it, so it broke a limit of parseUserJson's, already worded.
    throw new UsageError(`--set value ${(error as Error).message}; use --set-string to send text`);
  }
}

function setPath(target: JsonObject, path: string[], value: unknown, flag: string): void {
  let node = target;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i] as string;
    const existing = ownField(node, key);
    if (existing === undefined) {
      const child: JsonObject = {};
      setOwn(node, key, child);
      node = child;
    } else if (isPlainObject(existing)) {
      node = existing;
    } else {
      throw new UsageError(
        `invalid ${flag}: "${path.slice(0, i + 1).join('.')}" is already set to a value that is not an object`,
      );
    }
  }
  setOwn(node, path[path.length - 1] as string, value);
}

/** Objects merge, everything else replaces. */
export function mergeInto(base: JsonObject, over: JsonObject): JsonObject {
  for (const [key, value] of Object.entries(over)) {
    const existing = ownField(base, key);
    if (isPlainObject(existing) && isPlainObject(value)) mergeInto(existing, value);
    else setOwn(base, key, value);
  }
  return base;
}

export function fieldsFromFlags(flags: { set?: string[] | undefined; setString?: string[] | undefined }): JsonObject {
  const out: JsonObject = {};
  for (const item of flags.set ?? []) {
    const { path, raw } = parseAssignment(item, '--set');
    setPath(out, path, parseSetValue(raw), '--set');
  }
  for (const item of flags.setString ?? []) {
    const { path, raw } = parseAssignment(item, '--set-string');
    setPath(out, path, raw, '--set-string');
  }
  return out;
}
