// JSON for stdout: pretty-printed and stable, with the characters that
// JSON.stringify leaves raw but a terminal may act on (DEL, C1 controls, and
// the JS line separators) written as \u escapes. The output is still exactly
// the same JSON value.

const UNSAFE = /[\u007f-\u009f\u2028\u2029]/g;

export function toJson(value: unknown, indent = 2): string {
  const text = JSON.stringify(value, null, indent) ?? 'null';
  return text.replace(UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
