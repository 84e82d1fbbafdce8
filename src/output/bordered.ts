// The detail view on a terminal (`monitors get ID`), drawn by cli-table3: the
// fields in a bordered two-column table, each list of objects in a sub-table.
// Values are wrapped first (./text.ts): cli-table3 cuts a word longer than its column.
//
// cli-table3 lays a table out in time quadratic in its rows (5,000 rows take
// seconds; docs/architecture.md has the numbers), so an object with more than
// MAX_ROWS rows is left to the linear writer (detailLines in ./render.ts),
// as every list is.
import {
  entriesOf,
  fieldLines,
  fieldText,
  fittedWidths,
  keyColumn,
  objectRows,
  seriesLines,
  wideColumns,
  type Entry,
  type View,
} from './render.js';
import { sanitizeLine } from '../core/sanitize.js';
import { textWidth, wrapText } from './text.js';

/** The most rows (fields, and rows of sub-tables) drawn with cli-table3. */
const MAX_ROWS = 500;

/**
 * The key column's width: its widest key, narrowed where a value that cannot wrap (a URL, an id: one word)
 * would otherwise be cut in two, down to the longest part of a dotted key (`last_check.` / `checked_at`) or
 * 12 cells. A key wraps at its dots more readily than a URL at any character.
 */
function fittedKeyColumn(entries: readonly Entry[], view: View, width: number): number {
  const widest = keyColumn(entries);
  let word = 0;
  let part = 0;
  for (const e of entries) {
    if (e.kind !== 'field') continue;
    for (const w of sanitizeLine(fieldText(e.key, e.value, view)).split(' ')) word = Math.max(word, textWidth(w));
    for (const p of sanitizeLine(e.key).split(/(?<=\.)/)) part = Math.max(part, textWidth(p));
  }
  const room = width - 7 - word;
  // A word too long even beside the narrowest key is cut anyway: the keys then keep their width.
  return room >= widest || room < Math.max(part, 12) ? widest : room;
}

/** A key in lines of `width` cells, broken after its dots where it can, else as any text. */
function wrapKey(key: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const part of key.split(/(?<=\.)/)) {
    if (line !== '' && textWidth(line + part) > width) {
      lines.push(line);
      line = '';
    }
    line += part;
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines.flatMap((l) => wrapText(l, width));
}

/** The detail view drawn with borders, or undefined for an object too big for cli-table3. */
export async function borderedDetailLines(value: unknown, view: View): Promise<string[] | undefined> {
  const entries = entriesOf(value, view.tty);
  let rows = 0;
  for (const e of entries) rows += e.kind === 'table' ? e.items.length + 1 : 1;
  if (rows > MAX_ROWS) return undefined;
  if (entries.length === 0) return ['(empty)'];
  const { default: Table } = await import('cli-table3');
  const width = view.width ?? 80;
  const out: string[] = [];
  const draw = (head: string[], rows: string[][], options: { rowLines?: boolean } = {}) => {
    // No colors of cli-table3's own: cpk paints the cells (the palette decides). No line between rows, even
    // where a value wraps: its key, alone on the row's first line, tells the rows apart, and a line under
    // every row would push the first rows (the id, the name) off a 24-line terminal.
    // A sub-table's rows are items of several columns: where one spans lines, a line between rows tells them apart.
    const compact = !(options.rowLines === true && rows.some((r) => r.some((c) => c.includes('\n'))));
    const table = new Table({ head, style: { head: [], border: [], compact } });
    table.push(...rows);
    for (const line of table.toString().split('\n')) out.push(line);
  };
  // A field as a row of two cells: its key wrapped to `keyWidth`, its value to what is left of the width
  // (two borders and two paddings of one each side of a column, and the border between them).
  const fieldRow = (e: Extract<Entry, { kind: 'field' }>, keyWidth: number) => {
    const { key, lines } = fieldLines(e, view, Math.max(12, width - keyWidth - 7));
    return [
      wrapKey(key, keyWidth)
        .map((line) => view.paint.key(line))
        .join('\n'),
      lines.join('\n'),
    ];
  };
  const keyWidth = fittedKeyColumn(entries, view, width);
  let fields: string[][] = [];
  const endFields = () => {
    if (fields.length > 0) draw([], fields);
    fields = [];
  };
  for (const e of entries) {
    if (e.kind === 'field') {
      fields.push(fieldRow(e, keyWidth));
      continue;
    }
    endFields();
    if (e.kind === 'table') {
      out.push(`${view.paint.key(sanitizeLine(e.key))}:`);
      const cells = objectRows(e.items, wideColumns(e.items), view);
      const count = cells[0]?.length ?? 0;
      // One row per item (incidents, checks), as a list is read: where the columns are too wide for the
      // terminal they give way, the widest first, and their cells wrap at spaces (a timestamp before its age).
      const widths = fittedWidths(cells, width - 3 * count - 1);
      const drawn = cells.map((row) =>
        row.map((cell, i) =>
          wrapText(cell.text, widths[i] as number)
            .map((line) => (cell.paint && line !== '' ? cell.paint(line) : line))
            .join('\n'),
        ),
      );
      draw(drawn[0] ?? [], drawn.slice(1), { rowLines: true });
    } else for (const line of seriesLines(e, view)) out.push(line);
  }
  endFields();
  return out;
}
