// Options that several commands share, declared once: the body flags (--set,
// --set-string, --data), --dry-run and --concurrency. A command adds them where
// they belong in its help, with its own wording where it differs.
import { Option } from 'commander';
import { parseDataFlag } from '../parse/data.js';
import { fieldsFromFlags, mergeInto } from '../parse/fields.js';
import { type JsonObject } from '../core/json.js';
import { collect, type RawOptions } from './action.js';

export function setOption(
  description = 'set a field; the value is parsed as JSON when it is JSON (repeatable; dotted keys nest)',
): Option {
  return new Option('--set <key=value>', description).argParser(collect);
}

export function setStringOption(description = 'set a field to a string, always (repeatable)'): Option {
  return new Option('--set-string <key=value>', description).argParser(collect);
}

export function dataOption(
  description = 'fields as a JSON object, @file, or - for stdin (flags are merged over it)',
): Option {
  return new Option('--data <json>', description);
}

export function dryRunOption(description = 'print the request as a curl command and send nothing'): Option {
  return new Option('--dry-run', description);
}

/** `--concurrency N` (parsed by parseConcurrency: 1 to 64). */
export function concurrencyOption(description: string): Option {
  return new Option('--concurrency <n>', description);
}

export function bodyFlags(raw: RawOptions) {
  return {
    set: raw.set as string[] | undefined,
    setString: raw.setString as string[] | undefined,
    data: typeof raw.data === 'string' ? raw.data : undefined,
  };
}

/** --data (an object), then --set and --set-string merged over it. */
export async function fieldsFromBodyFlags(raw: RawOptions, stdin: NodeJS.ReadableStream): Promise<JsonObject> {
  const flags = bodyFlags(raw);
  const body: JsonObject = flags.data !== undefined ? await parseDataFlag(flags.data, stdin) : {};
  mergeInto(body, fieldsFromFlags(flags));
  return body;
}
