import { describeJsonError, parseUserJson } from '../core/json.js';
import { UsageError } from '../core/errors.js';
import { readAll } from '../core/io.js';
import { isPlainObject, type JsonObject } from '../core/json.js';

/**
 * `--data`: a JSON object literal, `@path` to read one from a file, or `-` for
 * stdin. Anything but a JSON object is a usage error.
 */
export async function parseDataFlag(value: string, stdin: NodeJS.ReadableStream): Promise<JsonObject> {
  const { parsed, source } = await parseJsonFlag(value, stdin);
  if (!isPlainObject(parsed)) throw new UsageError(`--data ${source} must be a JSON object`);
  return parsed;
}

/** `--data` as any JSON value (for `cpk api`, whose body may be an array or a scalar). */
export async function parseJsonFlag(
  value: string,
  stdin: NodeJS.ReadableStream,
): Promise<{ parsed: unknown; source: string }> {
  let text: string;
  let source: string;
  if (value === '-') {
    text = await readAll(stdin);
    source = 'stdin';
  } else if (value.startsWith('@')) {
    const path = value.slice(1);
    try {
      // Imported here: node:fs/promises costs ~2 ms on every start otherwise.
      const { readFile } = await import('node:fs/promises');
      text = await readFile(path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(`cannot read --data file "${path}"${code ? ` (${code})` : ''}`);
    }
    source = `file "${path}"`;
  } else {
    text = value;
    source = 'argument';
  }
  let parsed: unknown;
  try {
    parsed = parseUserJson(text);
  } catch (error) {
    // By line and column, never quoting the text: a file may hold a token.
    throw new UsageError(`--data ${source} ${describeJsonError(text, error)}`);
  }
  return { parsed, source };
}
