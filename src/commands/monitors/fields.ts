// Builds a monitor request body from flags: --data first, then --set and
// --set-string, then the named flags on top ("flags are merged over --data").
import { parseDuration } from '../../parse/duration.js';
import { parseDataFlag } from '../../parse/data.js';
import { fieldsFromFlags, mergeInto, setOwn, type JsonObject } from '../../parse/fields.js';
import type { RawOptions } from '../action.js';

export async function bodyFromFlags(opts: RawOptions, stdin: NodeJS.ReadableStream): Promise<JsonObject> {
  const body: JsonObject = typeof opts.data === 'string' ? await parseDataFlag(opts.data, stdin) : {};
  mergeInto(
    body,
    fieldsFromFlags({ set: opts.set as string[] | undefined, setString: opts.setString as string[] | undefined }),
  );
  for (const key of ['name', 'type', 'target'] as const) {
    if (typeof opts[key] === 'string') setOwn(body, key, opts[key]);
  }
  if (typeof opts.interval === 'string') setOwn(body, 'interval_seconds', parseDuration(opts.interval));
  return body;
}
