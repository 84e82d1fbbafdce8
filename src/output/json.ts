// JSON for stdout: pretty-printed and stable, with the characters that
// JSON.stringify leaves raw but a terminal may act on (DEL, C1 controls, and
// the JS line separators, the bidi overrides that reorder what a reader sees)
// written as \u escapes. The output is still exactly
// the same JSON value, its numbers as written (stringifyJson).

import { stringifyJson } from '../core/json.js';

const UNSAFE = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function toJson(value: unknown, indent = 2): string {
  return stringifyJson(value, indent).replace(UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
