// Where the renderers learn a number's text as the server wrote it. JSON
// parsed from a response may hold exact numbers (integers past 2^53, more
// digits than a double keeps); a renderer prints their source text.

import { ExactNumber } from '../core/json.js';

/** The source text of an exact number, or undefined for any other value. */
export function numberSource(value: unknown): string | undefined {
  if (value instanceof ExactNumber) return value.source;
  if (typeof value === 'bigint') return value.toString();
  return undefined;
}
