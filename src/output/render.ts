// Turns data into the lines of a table (kubectl's printers): rows for several
// items, `describe`-style sections for one. Pure: what the terminal allows
// (width, color, ages, sparklines) comes in through View. Every function here
// is linear in the size of the document.
import { ExactNumber, isPlainObject } from '../core/json.js';
import { toJson } from './json.js';
import { PLAIN, statusPainter, type Painter, type Palette } from './palette.js';
import { sanitizeLine } from '../core/sanitize.js';
import { bar, sparkline } from './sparkline.js';
import { padEnd, textWidth, truncate, wrapText } from './text.js';

export interface View {
  /** A terminal: timestamps show their age, series show as sparklines, percentages as bars. */
  tty: boolean;
  /** Wrap long values to this many cells; undefined: never wrap. */
  width: number | undefined;
  /** Now, in ms since the epoch (for ages). */
  now: number;
  paint: Palette;
  /** Keys (dotted) changed since the last display, with the old value's text ('' when new): `reports get --watch`. */
  changed?: ReadonlyMap<string, string> | undefined;
}

export const PLAIN_VIEW: View = { tty: false, width: undefined, now: 0, paint: PLAIN };

const GAP = '  ';
/** A value column is never made narrower than this to fit the terminal. */
const MIN_COLUMN = 12;

// ------------------------------------------------------------------ values

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

export function isTimestamp(value: unknown): value is string {
  return typeof value === 'string' && ISO_TIME.test(value) && !Number.isNaN(Date.parse(value));
}

/** An object of the document; an exact number (src/core/json.ts) is a value, not an object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return isPlainObject(value) && !(value instanceof ExactNumber);
}

function isNumber(value: unknown): boolean {
  return (typeof value === 'number' && Number.isFinite(value)) || value instanceof ExactNumber;
}

function isScalar(value: unknown): boolean {
  return !Array.isArray(value) && !isObject(value);
}

/** `45s ago`, `59m ago`, `1h45m ago`, `18h ago`, `3d ago`, `in 5s`: rounded down; hours alone up to 2 days. */
export function age(ms: number): string {
  const future = ms < 0;
  const s = Math.floor(Math.abs(ms) / 1000);
  let text: string;
  if (s < 60) text = `${s}s`;
  else if (s < 3600) text = `${Math.floor(s / 60)}m`;
  else if (s < 48 * 3600) {
    // Minutes matter beside a few hours (1h45m), not beside many (18h).
    const minutes = s < 10 * 3600 ? Math.floor((s % 3600) / 60) : 0;
    text = `${Math.floor(s / 3600)}h${minutes === 0 ? '' : `${minutes}m`}`;
  } else text = `${Math.floor(s / 86400)}d`;
  return future ? `in ${text}` : `${text} ago`;
}

/** A key that holds a number of seconds: `interval_seconds`, `duration_seconds`, `last_check.timeout_seconds`. */
const SECONDS_KEY = /(?:^|[._])(?:[a-z0-9]+_)*seconds$/i;

/** `1m`, `1h6m`, `1d2h`, `45s`, `0s`: seconds as a person reads them, largest units first, zero units left out. */
export function durationText(seconds: number): string {
  const parts: string[] = [];
  let rest = seconds;
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) parts.push(`${n}${unit}`);
  }
  return parts.length === 0 ? '0s' : parts.join('');
}

/** A number of seconds shown as a duration on a terminal: a whole, non-negative number under a `*_seconds` key. */
function isSeconds(key: string, value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && SECONDS_KEY.test(key);
}

/** A column's header: upper case, and on a terminal without a `_seconds` its values no longer need (INTERVAL, `1m`). */
function headerText(column: string, view: View): string {
  const shown = view.tty ? column.replace(/(.)_seconds$/i, '$1') : column;
  return sanitizeLine(shown.toUpperCase());
}

/** `2026-11-22 19:02 UTC (3m ago)` on a terminal; the text as sent off one. */
function timeText(value: string, view: View): string {
  if (!view.tty) return value;
  const t = Date.parse(value);
  const iso = new Date(t).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC (${age(view.now - t)})`;
}

/** A string item of a list, quoted when it could be mistaken for the list's punctuation or for another value. */
function listItem(value: unknown): string {
  if (typeof value !== 'string') return cellText(value);
  if (value === '' || /[,"]/.test(value) || value !== value.trim() || value === 'null') return JSON.stringify(value);
  return value;
}

/**
 * A value in one cell: null as `-`, [] and {} as themselves, a list of
 * scalars with its boundaries kept (`"a,b", c`), anything deeper as JSON.
 */
export function cellText(value: unknown): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every((item) => isScalar(item))) return value.map(listItem).join(', ');
    return toJson(value, 0);
  }
  if (isObject(value)) return Object.keys(value).length === 0 ? '{}' : toJson(value, 0);
  // An exact number's text is the server's.
  return value === null || value === undefined ? '-' : String(value);
}

const PERCENT_KEY = /(?:^|[._])(?:[a-z0-9]+_)*(?:percent|percentage|pct)$/i;

function isPercent(key: string, value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && value <= 100 && PERCENT_KEY.test(key);
}

/** Dotted paths of an object's leaves (nested objects opened, arrays kept whole), in first-seen order. */
export function leafPaths(value: unknown, prefix = '', out: Map<string, true> = new Map()): Map<string, true> {
  if (isObject(value) && (Object.keys(value).length > 0 || prefix === '')) {
    for (const [key, child] of Object.entries(value)) leafPaths(child, prefix ? `${prefix}.${key}` : key, out);
  } else if (prefix) {
    out.set(prefix, true);
  }
  return out;
}

/** The value at a dotted path (`last_check.latency_ms`); a key that itself holds a dot is found too. */
export function pathValue(value: unknown, path: string): unknown {
  if (!isObject(value)) return undefined;
  if (Object.hasOwn(value, path)) return value[path];
  for (let cut = path.indexOf('.'); cut >= 0; cut = path.indexOf('.', cut + 1)) {
    const head = path.slice(0, cut);
    const found = Object.hasOwn(value, head) ? pathValue(value[head], path.slice(cut + 1)) : undefined;
    if (found !== undefined) return found;
  }
  return undefined;
}

// ------------------------------------------------------------------ tables

export interface Cell {
  text: string;
  paint?: Painter | undefined;
}

/**
 * Lines of a borderless table: columns two spaces apart, each as wide as its
 * widest cell. With a width, the widest columns give way until the table
 * fits, and their cells wrap inside their own column.
 */
export function tableLines(
  rows: Cell[][],
  options: { indent?: string; width?: number | undefined; min?: readonly number[] } = {},
): string[] {
  const indent = options.indent ?? '';
  const widths = columnWidths(rows);
  const { width } = options;
  if (width !== undefined) {
    // No column goes below MIN_COLUMN, or its header (the first row) when that is wider, so headers never
    // wrap; a column already narrower keeps its width.
    const headers = headerWidths(rows);
    const floors = widths.map((w, i) => Math.min(w, Math.max(MIN_COLUMN, headers[i] ?? 0)));
    narrow(widths, floors, width - indent.length - GAP.length * (widths.length - 1));
  }
  // Columns at least as wide as asked (a live board keeps its columns where earlier frames had them).
  for (const [i, w] of (options.min ?? []).entries()) if (w > (widths[i] as number)) widths[i] = w;
  const out: string[] = [];
  for (const row of rows) {
    // Only a width can make a column narrower than its widest cell.
    const wrapped = row.map((cell, i) =>
      width === undefined ? [cell.text] : wrapText(cell.text, widths[i] as number),
    );
    const height = wrapped.reduce((n, lines) => Math.max(n, lines.length), 1);
    for (let l = 0; l < height; l++) {
      let line = indent;
      for (let i = 0; i < row.length; i++) {
        const text = wrapped[i]?.[l] ?? '';
        const paint = row[i]?.paint;
        const last = i === row.length - 1;
        const shown = paint && text !== '' ? paint(text) : text;
        line += last ? shown : shown + ' '.repeat(Math.max(0, (widths[i] as number) - textWidth(text))) + GAP;
      }
      out.push(line.trimEnd());
    }
  }
  return out;
}

export function columnWidths(rows: Cell[][]): number[] {
  const widths: number[] = [];
  for (const row of rows)
    for (let i = 0; i < row.length; i++) widths[i] = Math.max(widths[i] ?? 0, textWidth(row[i]!.text));
  return widths;
}

/**
 * Column widths that fit `room` cells: the widest give way first, none below MIN_COLUMN (or its header
 * when wider, so a header never wraps); a column already narrower keeps its width.
 */
export function fittedWidths(rows: Cell[][], room: number): number[] {
  const widths = columnWidths(rows);
  const headers = headerWidths(rows);
  narrow(
    widths,
    widths.map((w, i) => Math.min(w, Math.max(MIN_COLUMN, headers[i] ?? 0))),
    room,
  );
  return widths;
}

function headerWidths(rows: Cell[][]): number[] {
  return (rows[0] ?? []).map((cell) => textWidth(cell.text));
}

/** Narrows the widest columns until their sum fits `room`; no column goes below its floor. */
function narrow(widths: number[], floors: readonly number[], room: number): void {
  let total = widths.reduce((a, b) => a + b, 0);
  while (total > room) {
    // The widest column that can still give way, and the next widest width.
    let widest = -1;
    let second = 0;
    for (const [i, w] of widths.entries()) {
      if (w <= (floors[i] as number)) continue;
      if (widest < 0 || w > (widths[widest] as number)) {
        if (widest >= 0) second = Math.max(second, widths[widest] as number);
        widest = i;
      } else second = Math.max(second, w);
    }
    if (widest < 0) return;
    const w = widths[widest] as number;
    const cut = Math.max(1, Math.min(total - room, w - Math.max(second, floors[widest] as number)));
    widths[widest] = w - cut;
    total -= cut;
  }
}

// ------------------------------------------------------------------ rows

/** The columns shown by default for a list: these, where the items have them. */
const DEFAULT_COLUMNS = [/^id$/, /^name$/, /^status$/, /^type$/, /^target$/, /^interval/];
/** With fewer than this many of those, the columns are filled up to MAX_DEFAULT with other scalar fields. */
const FEW_DEFAULT = 4;
const MAX_DEFAULT = 6;

/** Default columns: DEFAULT_COLUMNS where present; with few (channels, reports), `*_status` and percentages first. */
export function defaultColumns(items: unknown[]): string[] {
  const keys = new Map<string, true>();
  for (const item of items) if (isObject(item)) for (const key of Object.keys(item)) keys.set(key, true);
  const picked: string[] = [];
  for (const pattern of DEFAULT_COLUMNS)
    for (const key of keys.keys()) if (pattern.test(key) && !picked.includes(key)) picked.push(key);
  if (picked.length < FEW_DEFAULT) {
    const scalar = [...keys.keys()].filter(
      (k) => !picked.includes(k) && items.some((item) => isObject(item) && isScalar(item[k])),
    );
    const rank = (k: string) => (/(?:^|_)status$/.test(k) ? 0 : PERCENT_KEY.test(k) ? 1 : 2);
    // sort() is stable: keys of one rank keep the items' order.
    for (const key of scalar.sort((a, b) => rank(a) - rank(b)).slice(0, MAX_DEFAULT - picked.length)) picked.push(key);
  }
  return picked;
}

/**
 * Every leaf field of the items (`-o wide`), nested objects as dotted paths. A field that is an object in
 * one item and null in another (`last_check` before the first check) is its dotted paths alone: a column
 * of the whole object beside them would show it twice.
 */
export function wideColumns(items: unknown[]): string[] {
  const paths = new Map<string, true>();
  for (const item of items) leafPaths(item, '', paths);
  const all = [...paths.keys()];
  const shown = new Set<string>();
  const out: string[] = [];
  for (const path of all) {
    if (shown.has(path)) continue;
    // The paths under this one, where it stood (first seen); none: the path itself.
    const under = all.filter((p) => p.startsWith(`${path}.`));
    for (const p of under.length > 0 ? under : [path]) {
      if (shown.has(p)) continue;
      shown.add(p);
      out.push(p);
    }
  }
  return out;
}

/** A header of `columns` (dotted paths), then a row per item (`wideColumns` for a sub-table of a detail object). */
export function objectRows(items: readonly unknown[], columns: string[], view: View): Cell[][] {
  const rows: Cell[][] = [columns.map((c) => ({ text: headerText(c, view), paint: view.paint.key }))];
  for (const item of items)
    rows.push(
      columns.map((key) => {
        const value = pathValue(item, key);
        let text = isTimestamp(value)
          ? timeText(value, view)
          : view.tty && isSeconds(key, value)
            ? durationText(value)
            : sanitizeLine(cellText(value));
        // The bar first: bars of one width line up down the column, whatever the width of the numbers after them.
        if (view.tty && isPercent(key, value)) text = `${bar(value, 10)} ${text}`;
        return { text, paint: statusPainter(key, text, view.paint) };
      }),
    );
  return rows;
}

/** One row per item under a header; `fit`: a terminal's width, to fit as gh and kubectl print (fitColumns). */
export function rowLines(items: unknown[], columns: string[], view: View, fit?: number): string[] {
  return pagedRows(columns, view, fit)(items);
}

/**
 * A table printed page by page, as kubectl prints a list it reads in chunks: the first page's rows set
 * the columns' widths (and, on a terminal, which columns fit and how wide), the header comes once, and
 * later pages keep those widths, so a list of any length holds one page at a time. A later cell wider than
 * its column widens it for that page (off a terminal nothing is cut) or is cut to it on a terminal; an id
 * is never cut.
 */
export function pagedRows(columns: string[], view: View, fit?: number): (items: unknown[]) => string[] {
  let layout: { keep: number[]; shown: number[]; kinds: ColumnKind[] } | undefined;
  return (items) => {
    const rows = objectRows(items, columns, view);
    if (layout) rows.shift();
    else if (fit === undefined) layout = { keep: columns.map((_, i) => i), shown: columnWidths(rows), kinds: [] };
    else {
      const kinds = columns.map((c) => columnKind(c, items));
      // No column is shown narrower than its header, so a header is never cut.
      layout = { ...fitColumns(kinds, columnWidths(rows), fit, headerWidths(rows)), kinds };
    }
    const { keep, shown, kinds } = layout;
    const fitted =
      fit === undefined
        ? rows
        : rows.map((row) =>
            keep.map((i, k) => (kinds[i] === 'id' ? row[i]! : { ...row[i], text: truncate(row[i]!.text, shown[k]!) })),
          );
    return tableLines(fitted, { min: shown });
  };
}

/**
 * Rows off a terminal, as gh's table printer writes them for a script: the fields of each row separated
 * by a tab, nothing padded or cut (so a long name does not widen every line), and no header (`cut -f2`
 * and `while read` get data only). A value's own tabs and newlines are spaces already (sanitizeLine).
 */
export function tsvRows(columns: string[], view: View): (items: unknown[]) => string[] {
  return (items) => tsvLines(objectRows(items, columns, view).slice(1));
}

export function tsvLines(rows: readonly Cell[][]): string[] {
  return rows.map((row) =>
    row.map((cell) => (cell.paint && cell.text !== '' ? cell.paint(cell.text) : cell.text)).join('\t'),
  );
}

/**
 * How a list column gives way to a narrow terminal: `id` is never cut nor
 * dropped (it is what one copies); `cut` (a name, a target, free text) is cut
 * with `…` down to MIN_CUT cells; `whole` (a status, a number, a timestamp)
 * is shown whole or dropped.
 */
export type ColumnKind = 'id' | 'cut' | 'whole';

/** Cut columns keep at least this many cells (or their header, if wider). */
const MIN_CUT = 10;

function columnKind(column: string, items: unknown[]): ColumnKind {
  const name = column.slice(column.lastIndexOf('.') + 1);
  if (/^id$|_id$/i.test(name)) return 'id';
  if (/(?:^|_)status$|^type$/i.test(name)) return 'whole';
  // A column of text when a value is text (not a timestamp, a number or a flag).
  const text = (value: unknown) =>
    value !== null && value !== undefined && typeof value !== 'boolean' && !isNumber(value) && !isTimestamp(value);
  return items.some((item) => text(pathValue(item, column))) ? 'cut' : 'whole';
}

/**
 * Which columns to show and how wide, to fit `room` cells: cut columns give way first (the widest
 * first), then columns other than ids are dropped from the right. What is kept is in the given order.
 */
export function fitColumns(
  kinds: readonly ColumnKind[],
  widths: readonly number[],
  room: number,
  headers: readonly number[] = [],
): { keep: number[]; shown: number[] } {
  const floorOf = (i: number) =>
    kinds[i] === 'cut' ? Math.min(widths[i] as number, Math.max(MIN_CUT, headers[i] ?? 0)) : (widths[i] as number);
  let keep = widths.map((_, i) => i);
  for (;;) {
    const shown = keep.map((i) => widths[i] as number);
    const floors = keep.map((i) => floorOf(i));
    const cells = room - GAP.length * Math.max(0, keep.length - 1);
    if (floors.reduce((a, b) => a + b, 0) <= cells || keep.every((i) => kinds[i] === 'id')) {
      narrow(shown, floors, cells);
      return { keep, shown };
    }
    // Drop the rightmost column that is not an id; the first of them (the name, usually) goes last.
    const drop = keep.filter((i) => kinds[i] !== 'id').at(-1);
    keep = keep.filter((i) => i !== drop);
  }
}

// ------------------------------------------------------------------ detail

export type Entry =
  | { kind: 'field'; key: string; value: unknown }
  | { kind: 'table'; key: string; items: Record<string, unknown>[] }
  | { kind: 'series'; key: string; items: Record<string, unknown>[]; time: string; fields: string[] };

/**
 * The entries of a detail object: fields (nested objects as dotted keys), lists
 * of objects as tables, and (when `series` is set) lists that are series over
 * time as series.
 */
export function entriesOf(value: unknown, series: boolean, prefix = '', out: Entry[] = []): Entry[] {
  if (!isObject(value)) {
    out.push({ kind: 'field', key: prefix || 'value', value });
    return out;
  }
  const keys = Object.keys(value);
  if (keys.length === 0 && prefix) out.push({ kind: 'field', key: prefix, value });
  for (const key of keys) {
    const child = value[key];
    const path = prefix ? `${prefix}.${key}` : key;
    if (isObject(child) && Object.keys(child).length > 0) entriesOf(child, series, path, out);
    else if (Array.isArray(child) && child.length > 0 && child.every((item) => isObject(item))) {
      const items = child as Record<string, unknown>[];
      const shape = series ? seriesShape(items) : undefined;
      out.push(shape ? { kind: 'series', key: path, items, ...shape } : { kind: 'table', key: path, items });
    } else out.push({ kind: 'field', key: path, value: child });
  }
  return out;
}

/** A series over time: every item has the same timestamp field, and every other field is a number (or null). */
function seriesShape(items: Record<string, unknown>[]): { time: string; fields: string[] } | undefined {
  if (items.length < 2) return undefined;
  const first = items[0] as Record<string, unknown>;
  const time = Object.keys(first).find((k) => isTimestamp(first[k]));
  if (time === undefined) return undefined;
  const fields = new Map<string, true>();
  for (const item of items) {
    if (!isTimestamp(item[time])) return undefined;
    for (const [k, v] of Object.entries(item)) {
      if (k === time) continue;
      if (v !== null && !isNumber(v)) return undefined;
      fields.set(k, true);
    }
  }
  return fields.size === 0 ? undefined : { time, fields: [...fields.keys()] };
}

/** A number as a double (an exact one too), null for none. */
function toNumber(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

export function seriesValues(e: Extract<Entry, { kind: 'series' }>, field: string): (number | null)[] {
  return e.items.map((item) => toNumber(item[field]));
}

export function fieldText(key: string, value: unknown, view: View): string {
  if (isTimestamp(value)) return timeText(value, view);
  if (view.tty && isSeconds(key, value)) return durationText(value);
  if (view.tty && Array.isArray(value) && value.length > 1 && value.every(isNumber)) {
    const numbers = value.map(toNumber);
    return `${fitSpark(numbers, (view.width ?? 80) - 40)}  ${rangeText(numbers)}`;
  }
  const text = cellText(value);
  if (view.tty && isPercent(key, value)) return `${text}  ${bar(value, 20)}`;
  return text;
}

export function rangeText(values: (number | null)[]): string {
  const finite = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (finite.length === 0) return 'no values';
  const min = finite.reduce((a, b) => Math.min(a, b));
  const max = finite.reduce((a, b) => Math.max(a, b));
  return `min ${min}  max ${max}  last ${finite[finite.length - 1]}`;
}

/** A sparkline of at most `room` cells (8 at least): longer series are averaged into buckets. */
export function fitSpark(values: (number | null)[], room: number): string {
  const cells = Math.max(8, room);
  if (values.length <= cells) return sparkline(values);
  const buckets: (number | null)[] = [];
  for (let b = 0; b < cells; b++) {
    const bucket = values
      .slice(Math.floor((b * values.length) / cells), Math.floor(((b + 1) * values.length) / cells))
      .filter((v): v is number => v !== null && Number.isFinite(v));
    buckets.push(bucket.length === 0 ? null : bucket.reduce((sum, v) => sum + v, 0) / bucket.length);
  }
  return sparkline(buckets);
}

/** A field of a detail object: its key (sanitized) and its value's lines, wrapped to `valueWidth` and painted. */
export function fieldLines(
  e: Extract<Entry, { kind: 'field' }>,
  view: View,
  valueWidth: number | undefined,
): { key: string; lines: string[] } {
  let text = fieldText(e.key, e.value, view);
  const old = view.changed?.get(e.key);
  const paintStatus = statusPainter(e.key, sanitizeLine(text), view.paint);
  const painter: Painter | undefined = old !== undefined && view.paint !== PLAIN ? view.paint.changed : paintStatus;
  if (old !== undefined && view.paint === PLAIN) text += `  (${old === '' ? 'new' : `was ${old}`})`;
  const lines: string[] = [];
  for (const raw of text.split('\n')) {
    const line = sanitizeLine(raw);
    if (valueWidth === undefined) lines.push(line);
    // Not push(...): a long value wraps into more lines than a call takes arguments.
    else for (const part of wrapText(line, valueWidth)) lines.push(part);
  }
  return { key: sanitizeLine(e.key), lines: lines.map((line) => (painter && line !== '' ? painter(line) : line)) };
}

/** The width of a detail view's key column: its widest key, up to 40 cells (a longer key wraps, or overflows). */
export function keyColumn(entries: readonly Entry[]): number {
  let width = 0;
  for (const e of entries) if (e.kind === 'field') width = Math.max(width, textWidth(sanitizeLine(e.key)));
  return Math.min(width, 40);
}

/** A series over time on a terminal: a line saying its span, then one sparkline per field. */
export function seriesLines(e: Extract<Entry, { kind: 'series' }>, view: View): string[] {
  const key = sanitizeLine(e.key);
  const first = e.items[0]?.[e.time] as string;
  const last = e.items[e.items.length - 1]?.[e.time] as string;
  const head = `${key}:  ${e.items.length} from ${timeText(first, view)}`;
  const to = `to ${timeText(last, view)}`;
  const painted = `${view.paint.key(key)}${head.slice(key.length)}`;
  // The span on two lines where one does not fit: a timestamp is never broken.
  const out =
    view.width !== undefined && textWidth(head) + 1 + textWidth(to) > view.width
      ? [painted, `${' '.repeat(Math.max(0, textWidth(head) - textWidth(timeText(first, view)) - 5))}${to}`]
      : [`${painted} ${to}`];
  const nameWidth = e.fields.reduce((n, f) => Math.max(n, textWidth(sanitizeLine(f))), 0);
  for (const field of e.fields) {
    const values = seriesValues(e, field);
    const spark = fitSpark(values, (view.width ?? 80) - nameWidth - 4 - 30);
    out.push(`  ${padEnd(sanitizeLine(field), nameWidth)}  ${spark}  ${rangeText(values)}`);
  }
  return out;
}

/** An object as `describe`-style lines, off a terminal and for an object too big for cli-table3 (./bordered.ts). */
export function detailLines(value: unknown, view: View): string[] {
  const entries = entriesOf(value, view.tty);
  if (entries.length === 0) return ['(empty)'];
  const keyWidth = keyColumn(entries);
  const valueWidth = view.width === undefined ? undefined : Math.max(MIN_COLUMN, view.width - keyWidth - GAP.length);
  const out: string[] = [];
  const pad = ' '.repeat(keyWidth + GAP.length);
  for (const e of entries) {
    if (e.kind === 'field') {
      const { key, lines } = fieldLines(e, view, valueWidth);
      const head = view.paint.key(key) + ' '.repeat(Math.max(0, keyWidth - textWidth(key))) + GAP;
      for (const [i, line] of lines.entries()) out.push(`${i === 0 ? head : pad}${line}`.trimEnd());
    } else if (e.kind === 'table') {
      out.push(`${view.paint.key(sanitizeLine(e.key))}:`);
      for (const line of tableLines(objectRows(e.items, wideColumns(e.items), view), {
        indent: '  ',
        width: view.width,
      }))
        out.push(line);
    } else for (const line of seriesLines(e, view)) out.push(line);
  }
  return out;
}
