// The detail view on a terminal (`monitors get ID`), drawn by cli-table3: the
// fields in a bordered two-column table, each list of objects in a sub-table.
// Values are wrapped first (./text.ts): cli-table3 cuts a word longer than its column.
//
// cli-table3 lays a table out in time quadratic in its rows (5,000 rows take
// seconds; docs/architecture.md has the numbers), so an object with more than
// MAX_ROWS rows is left to the linear writer (detailLines in ./render.ts),
// as every list is.
import {
  columnWidths,
  entriesOf,
  fieldLines,
  keyColumn,
  objectRows,
  seriesLines,
  wideColumns,
  type Entry,
  type View,
} from './render.js';
import { sanitizeLine } from '../core/sanitize.js';
import { wrapText } from './text.js';

/** The most rows (fields, and rows of sub-tables) drawn with cli-table3. */
const MAX_ROWS = 500;

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
  const draw = (head: string[], rows: string[][]) => {
    // No colors of cli-table3's own: cpk paints the cells (the palette decides).
    // A line between rows only where a row spans several lines, to tell them apart.
    const compact = !rows.some((r) => r.some((c) => c.includes('\n')));
    const table = new Table({ head, style: { head: [], border: [], compact } });
    table.push(...rows);
    for (const line of table.toString().split('\n')) out.push(line);
  };
  // A field as a row of two cells: its key wrapped to `keyWidth`, its value to what is left of the width
  // (two borders and two paddings of one each side of a column, and the border between them).
  const fieldRow = (e: Extract<Entry, { kind: 'field' }>, keyWidth: number) => {
    const { key, lines } = fieldLines(e, view, Math.max(12, width - keyWidth - 7));
    return [
      wrapText(key, keyWidth)
        .map((line) => view.paint.key(line))
        .join('\n'),
      lines.join('\n'),
    ];
  };
  const keyWidth = keyColumn(entries);
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
      // Drawn only where every column fits at its natural width, so no cell of it is ever wrapped.
      const natural = columnWidths(cells).reduce((a, b) => a + b, 0) + 3 * count + 1;
      if (natural > width) {
        // Too wide for the terminal: each item as its own field table (numbered), so
        // that no value is broken across lines, a timestamp least of all.
        for (const [n, item] of e.items.entries()) {
          const inner = entriesOf(item, false);
          const innerKey = keyColumn(inner);
          draw(
            [`#${n + 1}`, ''],
            inner.flatMap((x) => (x.kind === 'field' ? [fieldRow(x, innerKey)] : [])),
          );
        }
        continue;
      }
      const drawn = cells.map((row) =>
        row.map((cell) => (cell.paint && cell.text !== '' ? cell.paint(cell.text) : cell.text)),
      );
      draw(drawn[0] ?? [], drawn.slice(1));
    } else for (const line of seriesLines(e, view)) out.push(line);
  }
  endFields();
  return out;
}
