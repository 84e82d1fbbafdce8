// JSON for stdout: pretty-printed and stable, with the characters that
// JSON.stringify leaves raw but a terminal may act on (DEL, C1 controls, and
// the JS line separators, the bidi overrides that reorder what a reader sees)
// written as \u escapes. The output is still exactly
// the same JSON value.

import { ExactNumber } from '../core/json.js';

const UNSAFE = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function toJson(value: unknown, indent = 2): string {
  // An ExactNumber (src/core/json.ts) is written as the server wrote it: a
  // marker no server can forge stands in for it, then its text replaces the
  // marker. The holder's own value is checked, as toJSON runs before a replacer.
  const sources: string[] = [];
  const marker = `cpk-exact-${Math.random().toString(36).slice(2)}-`;
  let text =
    JSON.stringify(
      value,
      function (this: Record<string, unknown>, key: string, v: unknown) {
        const own = this[key];
        if (own instanceof ExactNumber) return `${marker}${sources.push(own.source) - 1}`;
        return v;
      },
      indent,
    ) ?? 'null';
  if (sources.length > 0)
    text = text.replace(new RegExp(`"${marker}(\\d+)"`, 'g'), (_m, i: string) => sources[Number(i)]!);
  return text.replace(UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
