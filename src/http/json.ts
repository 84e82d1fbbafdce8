// JSON from the server. JSON.parse defines every key it reads, "__proto__"
// included, as an own data property (ECMA-262, JSON.parse uses
// CreateDataProperty), so parsing alone never changes a prototype. What can go
// wrong is what is done next: reading a field through the prototype chain
// (`body.constructor` is always "there"), or copying with assignment
// (Object.assign, `target[key] = value`), which runs the `__proto__` setter.
// So server fields are read with ownField, and copied with setOwn
// (src/parse/fields.ts), never assigned.

export type ParsedJson = { ok: true; value: unknown } | { ok: false; error: Error };

export function parseJson(text: string): ParsedJson {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: error as Error };
  }
}

/** An own field of a parsed object, or undefined: never one inherited from a prototype. */
export function ownField(object: object, key: string): unknown {
  return Object.hasOwn(object, key) ? (object as Record<string, unknown>)[key] : undefined;
}
