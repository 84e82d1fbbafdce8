import { UsageError } from '../core/errors.js';
import { readAll, readFileText, UnreadableFileError, whyUnreadable } from '../core/io.js';
import { describeJsonError, isPlainObject, parseUserJson, type JsonObject } from '../core/json.js';

/** `--data`: a JSON object literal, `@path` to read one from a file, or `-` for stdin. */
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
  const from = value === '-' ? '-' : value.startsWith('@') ? value.slice(1) : undefined;
  const text = from === undefined ? value : await readInput(from, stdin, '--data');
  const source = from === undefined ? 'argument' : from === '-' ? 'stdin' : `file "${from}"`;
  let parsed: unknown;
  try {
    parsed = parseUserJson(text);
  } catch (error) {
    // By line and column, never quoting the text: a file may hold a token.
    throw new UsageError(`--data ${source} ${describeJsonError(text, error)}`);
  }
  return { parsed, source };
}

export async function readInput(path: string, stdin: NodeJS.ReadableStream, flag: string): Promise<string> {
  // /dev/stdin is stdin by another name, and usually a pipe, which a named file may not be.
  if (path === '-' || path === '/dev/stdin') return readAll(stdin);
  try {
    return readFileText(path);
  } catch (error) {
    const stream = error instanceof UnreadableFileError && error.stream;
    throw new UsageError(`cannot read ${flag} file "${path}"${whyUnreadable(error)}`, {
      hint: stream ? `to read a stream, give ${flag} - and send it on stdin` : undefined,
    });
  }
}
