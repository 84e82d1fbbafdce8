// Builds a monitor request body from flags: --data first, then --set and
// --set-string, then the named flags on top ("flags are merged over --data").
import { parseDuration } from '../../parse/duration.js';
import { setOwn, type JsonObject } from '../../core/json.js';
import type { RawOptions } from '../../cli/action.js';
import { fieldsFromBodyFlags } from '../../cli/options.js';

export async function bodyFromFlags(opts: RawOptions, stdin: NodeJS.ReadableStream): Promise<JsonObject> {
  const body = await fieldsFromBodyFlags(opts, stdin);
  for (const key of ['name', 'type', 'target'] as const) {
    if (typeof opts[key] === 'string') setOwn(body, key, opts[key]);
  }
  if (typeof opts.interval === 'string') setOwn(body, 'interval_seconds', parseDuration(opts.interval));
  return body;
}
