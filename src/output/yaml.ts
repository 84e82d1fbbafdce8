// YAML for stdout (`-o yaml`): the same value as the JSON, written by the
// yaml package (the one YAML library cpk uses, for manifests too).
//
// Loaded with require, when YAML is asked for: Output.printJson is
// synchronous, and no other command pays for the package.
import { createRequire } from 'node:module';
import type { Document, ScalarTag } from 'yaml';
import { ExactNumber } from '../core/json.js';

// Characters a terminal may act on, or that reorder what is shown (C1
// controls, bidi overrides), and the two line separators: written as escapes.
// An escape exists only inside a double-quoted scalar, so every string that
// holds one is given that style, and the escapes are made in the output text.
const UNSAFE = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');

// The one form of number YAML 1.2 reads that YAML 1.1 does not (so the 1.1
// schema below would leave it plain).
const OCTAL_12 = /^0o[0-7]+$/;

// An exact number (an integer past 2^53, more digits than a double keeps) goes
// out as written, where yaml would print a double; `default` keeps the tag out
// of the text, so it reads back as a plain number. Only for writing: its test
// matches nothing, so a document parsed with it reads every scalar as before
// (`!!float 1.5` included).
export const exactNumberTag: ScalarTag = {
  tag: 'tag:yaml.org,2002:float',
  default: true,
  test: /(?!)/,
  identify: (value) => value instanceof ExactNumber,
  resolve: (text) => text,
  stringify: (item) => (item.value as ExactNumber).source,
};

// What GitHub Actions could read as a workflow command (src/core/sanitize.ts): a
// `##[` anywhere, a `::` at the start of a line. Under Actions a string that
// holds either (any `::`, wherever it is: simpler, and only the style changes)
// is double-quoted, where a line break is an escape and `[` can be `\u005b`.
const COMMAND_FORM = /##\[|::/;

/**
 * `value` as a YAML document (block style, a list under its key as kubectl writes it). `ciLog`: under
 * GitHub Actions, where Output then writes each `##[` as `##\u005b`.
 */
export function toYaml(value: unknown, options: { ciLog?: boolean } = {}): string {
  const { Document, visit } = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  // YAML 1.1: strings such as `yes`, `no`, `on` and `0777` are quoted, so a 1.1 reader takes them as strings too.
  const doc: Document = new Document(value, { version: '1.1', customTags: [exactNumberTag] });
  visit(doc, {
    // Keys too: they are scalars of the document like any value.
    Scalar(_key, node) {
      if (
        typeof node.value === 'string' &&
        (UNSAFE.test(node.value) || OCTAL_12.test(node.value) || (options.ciLog && COMMAND_FORM.test(node.value)))
      )
        node.type = 'QUOTE_DOUBLE';
    },
  });
  const text = doc.toString({
    indentSeq: false,
    lineWidth: 0,
    // A long double-quoted string otherwise writes its line breaks as breaks, and a line could start with `::`.
    ...(options.ciLog ? { doubleQuotedMinMultiLineLength: Infinity } : {}),
  });
  return text.replace(UNSAFE_ALL, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
