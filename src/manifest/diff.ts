// What differs between what the manifest asks for and what the service has:
// only what the manifest names is compared (docs/monitors-as-code.md).
import { isPlainObject, jsonEqual, setOwn, type JsonObject } from '../core/json.js';

export interface FieldChange {
  field: string;
  /** The current value; absent when the service (or the last apply) has no such field. */
  from?: unknown;
  to: unknown;
}

/** Whether `actual` already has everything `desired` names. */
export function covers(actual: unknown, desired: unknown): boolean {
  if (isPlainObject(desired)) {
    return (
      isPlainObject(actual) &&
      Object.keys(desired).every((key) => Object.hasOwn(actual, key) && covers(actual[key], desired[key]))
    );
  }
  // Numbers by their exact value: 1.0 is 1, and no two values a double cannot tell apart are equal.
  return jsonEqual(actual, desired);
}

/** The top-level fields of `desired` that `actual` does not cover, in the manifest's order. */
export function diffFields(actual: JsonObject, desired: JsonObject): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [field, to] of Object.entries(desired)) {
    if (Object.hasOwn(actual, field)) {
      if (!covers(actual[field], to)) changes.push({ field, from: actual[field], to });
    } else {
      changes.push({ field, to });
    }
  }
  return changes;
}

/** The PATCH body for a list of changes: each changed field with the manifest's whole value. */
export function patchOf(changes: FieldChange[]): JsonObject {
  const body: JsonObject = {};
  for (const change of changes) setOwn(body, change.field, change.to);
  return body;
}
