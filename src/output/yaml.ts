// YAML for stdout (`-o yaml`): the same value as the JSON, block style.
// Hand-written rather than the yaml package because (1) numbers must be
// emitted exactly as the server wrote them (an exact number's source text
// goes out as is, where a YAML library would print a double), (2) it is
// linear in the size of the document and needs no import at start-up, and
// (3) JSON data needs only a small part of YAML: a string that could be read
// back as anything else is written as a JSON string, which is also a valid
// YAML double-quoted scalar. test/unit/formats.test.ts parses the output back
// with the yaml package and compares.
import { isPlainObject } from '../parse/fields.js';
import { numberSource } from './exact.js';

// Plain (unquoted) only for words a YAML 1.1 or 1.2 reader keeps as strings.
const PLAIN = /^[A-Za-z_/][A-Za-z0-9_./@:+-]*(?: [A-Za-z0-9_./@:+-]+)*$/;
const RESERVED = /^(?:true|false|yes|no|on|off|y|n|null|~)$/i;
const UNSAFE = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;

function quote(text: string): string {
  return JSON.stringify(text).replace(UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function yamlString(text: string): string {
  if (PLAIN.test(text) && !RESERVED.test(text) && !/:(?: |$)/.test(text)) return text;
  return quote(text);
}

function scalar(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return yamlString(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  const source = numberSource(value);
  if (source !== undefined) return source;
  if (Array.isArray(value)) return value.length === 0 ? '[]' : undefined;
  if (isPlainObject(value)) return Object.keys(value).length === 0 ? '{}' : undefined;
  return quote(String(value));
}

function entries(value: unknown): Array<[string, unknown]> {
  return Object.entries(value as Record<string, unknown>);
}

/** Appends the lines of `value` at `indent`; `first` is the text that starts its first line (`- ` or `key: `). */
function emit(value: unknown, indent: string, out: string[]): void {
  if (Array.isArray(value)) {
    for (const item of value) {
      const s = scalar(item);
      if (s !== undefined) out.push(`${indent}- ${s}`);
      else {
        const start = out.length;
        emit(item, `${indent}  `, out);
        // The item's first line moves up beside its dash.
        out[start] = `${indent}- ${(out[start] as string).slice(indent.length + 2)}`;
      }
    }
    return;
  }
  for (const [key, child] of entries(value)) {
    const k = yamlString(key);
    const s = scalar(child);
    if (s !== undefined) out.push(`${indent}${k}: ${s}`);
    else {
      out.push(`${indent}${k}:`);
      emit(child, Array.isArray(child) ? indent : `${indent}  `, out);
    }
  }
}

/** The lines of `value` as a YAML document (no trailing newline on each). */
export function yamlLines(value: unknown): string[] {
  const s = scalar(value);
  if (s !== undefined) return [s];
  const out: string[] = [];
  emit(value, '', out);
  return out;
}

export function toYaml(value: unknown): string {
  return `${yamlLines(value).join('\n')}\n`;
}
