import { isPlainObject } from '../core/json.js';

/**
 * Flattens a JSON object to dotted keys for key/value tables
 * (`last_check.latency_ms`). Arrays of scalars are joined; arrays holding
 * objects are shown as compact JSON. Unknown fields are rendered like known
 * ones: the service's detail shapes are not specified.
 */
export function flatten(value: unknown, prefix = '', out: Array<[string, string]> = []): Array<[string, string]> {
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0 && prefix) out.push([prefix, '{}']);
    for (const [key, child] of entries) flatten(child, prefix ? `${prefix}.${key}` : key, out);
  } else if (prefix) {
    out.push([prefix, scalarText(value)]);
  } else {
    out.push(['value', scalarText(value)]);
  }
  return out;
}

function scalarText(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (Array.isArray(value)) {
    if (value.every((item) => item === null || typeof item !== 'object'))
      return value.map((item) => String(item)).join(', ');
    return JSON.stringify(value);
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
