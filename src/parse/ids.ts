// Id lists for bulk commands: ids given as arguments, and `-` for ids read
// from stdin. Stdin may hold what cpk itself prints: ids one per line (`-o
// name`, `-q`, `--query` of one id; blank lines and `#` comment lines
// skipped), a JSON array of ids (`--query '[].id'`), or JSON lines of objects
// that carry an `id` (`-o jsonl`). A line that is JSON punctuation and none of
// these is refused: sent as an id, `[` or `"mon_1",` would be a request for a
// monitor that cannot exist, and the docs promise nothing is sent then.
import { UsageError } from '../core/errors.js';
import { readAll } from '../core/io.js';
import { checkId } from './id.js';

const FORMS = 'give ids one per line, a JSON array of ids, or JSON lines of objects with an "id"';

/** The id a JSON value stands for: a string, or an object's `id` string; undefined for anything else. */
function idOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const id = (value as Record<string, unknown>).id;
    if (typeof id === 'string') return id;
  }
  return undefined;
}

function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/** A JSON array of ids (or of objects with an `id`), read whole. */
function parseIdArray(text: string, what: string): string[] {
  const parsed = parseJson(text);
  if (!parsed || !Array.isArray(parsed.value))
    throw new UsageError(`stdin is not a JSON array of ids (${FORMS}); nothing was sent`);
  const ids: string[] = [];
  parsed.value.forEach((item: unknown, index) => {
    const id = idOf(item);
    try {
      if (id === undefined) throw new UsageError(`it is ${item === null ? 'null' : typeof item}, not an id`);
      ids.push(checkId(id, what));
    } catch (error) {
      throw new UsageError(`stdin item ${index + 1}: ${(error as Error).message}; nothing was sent`);
    }
  });
  return ids;
}

export function parseIdLines(text: string, what = 'id'): string[] {
  if (text.trimStart().startsWith('[')) return parseIdArray(text, what);
  const ids: string[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    try {
      ids.push(checkId(lineId(line), what));
    } catch (error) {
      throw new UsageError(`stdin line ${index + 1}: ${(error as Error).message}; nothing was sent`);
    }
  });
  return ids;
}

/** The id on one line: the line itself, or the id of the JSON string or object it holds. */
function lineId(line: string): string {
  if (!/^[[\]{}"]|,$/.test(line)) return line;
  const id = idOf(parseJson(line)?.value);
  if (id === undefined) {
    const shown = line.length > 40 ? `${line.slice(0, 39)}…` : line;
    throw new UsageError(`"${shown}" is not an id (${FORMS})`);
  }
  return id;
}

export async function readIdList(args: string[], io: { readonly stdin: NodeJS.ReadableStream }, what = 'id') {
  const dashes = args.filter((a) => a === '-').length;
  if (dashes > 1) throw new UsageError('- (read ids from stdin) may be given only once');
  const ids: string[] = [];
  for (const arg of args) {
    // One push per id: spreading stdin's ids into push() passes each as an
    // argument, and some 125,000 of them overflow the stack.
    // stdin is asked of the IO only for a `-`: opening it costs a command that reads none a few milliseconds.
    if (arg === '-') for (const id of parseIdLines(await readAll(io.stdin), what)) ids.push(id);
    else ids.push(checkId(arg, what));
  }
  // single: exactly one id given as an argument, for which commands keep their single-object output.
  return { ids, single: args.length === 1 && dashes === 0 };
}
