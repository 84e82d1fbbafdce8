// `--from`: many objects to create, as one JSON array or as NDJSON (one JSON
// object per line). Each item keeps a label naming where it came from, so a
// failure can be traced back: "line 3" for NDJSON (1-based, blank lines
// counted, as an editor shows them), "element [2]" for a JSON array (0-based,
// as jq's `.[2]` addresses it).
import { UsageError } from '../core/errors.js';
import { describeJsonError, isPlainObject, parseUserJson, type JsonObject } from '../core/json.js';

export interface SourcedRecord {
  label: string;
  /** The NDJSON line number, or the array index. */
  position: number;
  value: JsonObject;
}

/** Parses the whole input first: one bad item refuses all of it, before anything is sent. */
export function parseRecords(text: string, source: string): SourcedRecord[] {
  const body = text.replace(/^\uFEFF/, '');
  if (body.trimStart().startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = parseUserJson(body);
    } catch (error) {
      // By line and column, never quoting the text: a file may hold a secret.
      throw new UsageError(`${source} ${describeJsonError(body, error)}; nothing was sent`);
    }
    if (!Array.isArray(parsed)) throw new UsageError(`${source} must be a JSON array or NDJSON; nothing was sent`);
    return parsed.map((value, index) => {
      const label = `element [${index}]`;
      if (!isPlainObject(value)) throw new UsageError(`${source} ${label} is not a JSON object; nothing was sent`);
      return { label, position: index, value };
    });
  }
  const records: SourcedRecord[] = [];
  body.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    const label = `line ${index + 1}`;
    let value: unknown;
    try {
      value = parseUserJson(line);
    } catch (error) {
      // The column, never the text: a file may hold a secret.
      const column = /at position (\d+)/.exec((error as Error).message)?.[1];
      const where = column === undefined ? '' : ` (column ${Number(column) + 1})`;
      const problem = error instanceof SyntaxError ? `is not valid JSON${where}` : describeJsonError(line, error);
      throw new UsageError(`${source} ${label} ${problem}; nothing was sent`);
    }
    if (!isPlainObject(value)) throw new UsageError(`${source} ${label} is not a JSON object; nothing was sent`);
    records.push({ label, position: index + 1, value });
  });
  return records;
}
