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

/**
 * `--only`: the items of --from to send, by the numbers their labels carry (NDJSON line numbers, array
 * indexes), as a list of numbers and ranges: "2,5-7". A failed run prints the list of what it did not create.
 */
export function parseOnly(text: string): Array<[number, number]> {
  return text.split(',').map((part) => {
    const range = /^\s*(\d{1,9})\s*(?:-\s*(\d{1,9})\s*)?$/.exec(part);
    const first = Number(range?.[1]);
    const last = range?.[2] === undefined ? first : Number(range[2]);
    if (!range || last < first)
      throw new UsageError(`--only takes line numbers or indexes and ranges, e.g. 2,5-7; not ${JSON.stringify(text)}`);
    return [first, last];
  });
}

/** Positions as --only reads them, in order, runs as ranges: [2, 5, 6, 7] is "2,5-7". */
export function onlyText(positions: readonly number[]): string {
  const sorted = [...new Set(positions)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const first = sorted[i] as number;
    let last = first;
    while (sorted[i + 1] === last + 1) last = sorted[++i] as number;
    parts.push(last === first ? `${first}` : last === first + 1 ? `${first},${last}` : `${first}-${last}`);
  }
  return parts.join(',');
}

/** The records --only names, in input order; a number that names no item (a blank line, past the end) is refused. */
export function selectRecords(records: SourcedRecord[], only: Array<[number, number]>, source: string) {
  const held = new Set(records.map((r) => r.position));
  const end = records.reduce((max, r) => Math.max(max, r.position), -1);
  const missing: number[] = [];
  for (const [first, last] of only) {
    // Walked no further than the input goes: a range past its end is refused by its first number beyond it.
    for (let n = first; n <= Math.min(last, end) && missing.length < 20; n++) if (!held.has(n)) missing.push(n);
    if (last > end && missing.length < 20) missing.push(Math.max(first, end + 1));
  }
  if (missing.length > 0) {
    const what = records[0]?.label.startsWith('element') ? 'element' : 'line';
    const named = missing.length === 1 ? `${what} ${missing[0]}` : `${what}s ${onlyText(missing)}`;
    throw new UsageError(`--only names ${named}, where ${source} holds no item; nothing was sent`);
  }
  return records.filter((r) => only.some(([first, last]) => r.position >= first && r.position <= last));
}
