// `-o markdown`: a result as a Markdown document to paste into an incident
// note or a pull request.
import {
  cellText,
  entriesOf,
  fitSpark,
  isObject,
  pathValue,
  rangeText,
  seriesValues,
  wideColumns,
  type Entry,
} from './render.js';
import { sanitizeLine } from '../core/sanitize.js';

function mdCell(text: string): string {
  return sanitizeLine(text).replace(/\\/g, '\\\\').replace(/\|/g, '\\|') || ' ';
}

function mdTable(head: string[], rows: string[][]): string[] {
  return [
    `| ${head.map(mdCell).join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.map(mdCell).join(' | ')} |`),
  ];
}

function objectsTable(items: Record<string, unknown>[]): string[] {
  const columns = wideColumns(items);
  return mdTable(
    columns,
    items.map((item) => columns.map((c) => cellText(pathValue(item, c)))),
  );
}

/**
 * A list as a Markdown table page by page: the first page's fields are the columns, its header comes
 * once. A page that is not all objects is written as markdownLines writes it.
 */
export function pagedMarkdown(): (items: unknown[]) => string[] {
  let columns: string[] | undefined;
  return (items) => {
    if (!items.every((item) => isObject(item))) return markdownLines(items);
    const first = columns === undefined;
    columns ??= wideColumns(items);
    const lines = mdTable(
      columns,
      items.map((item) => columns!.map((c) => cellText(pathValue(item, c)))),
    );
    return first ? lines : lines.slice(2);
  };
}

/**
 * A Markdown document: a title, the fields as a two-column table, and each
 * list of objects as a table under its own heading; a series over time (a
 * list of objects with a timestamp and numbers) first gets a sparkline per
 * field, then its table.
 */
export function markdownLines(value: unknown, title?: string): string[] {
  if (Array.isArray(value) && value.length > 0 && value.every((item) => isObject(item)))
    return objectsTable(value as Record<string, unknown>[]);
  const entries = entriesOf(value, true);
  const out: string[] = [];
  const id = isObject(value) && typeof value.id === 'string' ? value.id : undefined;
  const heading = [title, id].filter((t) => t !== undefined).join(' ');
  if (heading) out.push(`# ${sanitizeLine(heading)}`, '');
  const fields = entries.filter((e): e is Extract<Entry, { kind: 'field' }> => e.kind === 'field');
  if (fields.length > 0)
    out.push(
      ...mdTable(
        ['field', 'value'],
        fields.map((e) => [e.key, cellText(e.value)]),
      ),
    );
  for (const e of entries) {
    if (e.kind === 'field') continue;
    out.push('', `## ${sanitizeLine(e.key)}`, '');
    if (e.kind === 'series') {
      for (const field of e.fields) {
        const values = seriesValues(e, field);
        out.push(`- ${mdCell(field)}: \`${fitSpark(values, 60)}\` ${rangeText(values)}`);
      }
      out.push('');
    }
    for (const line of objectsTable(e.items)) out.push(line);
  }
  return out;
}
