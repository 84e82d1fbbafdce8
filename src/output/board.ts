// The live board of `cpk monitors watch`: one row per monitor, fitted to the
// terminal (truncated, never wrapped, so a frame redraws in place). The service
// does not show the monitor detail's shape (service-interface.md, "Fields of the
// monitor detail ... not shown"): fields are found by shape, never by name.
import { stripVTControlCharacters } from 'node:util';
import { isPlainObject } from '../core/json.js';
import type { Palette } from './palette.js';
import { statusPainter } from './palette.js';
import { age, isTimestamp, leafPaths, pathValue, tableLines, type Cell } from './render.js';
import { sanitizeLine } from '../core/sanitize.js';
import { sparkline } from './sparkline.js';
import { textWidth, truncate } from './text.js';

/** A numeric leaf named like a latency: `latency_ms`, `response_time`, `rtt_ms`, `duration_ms`. */
const LATENCY_KEY = /(^|_)(latency|response_time|rtt)(_|$)|^duration_ms$/i;

/** The first numeric leaf named like a latency, preferring one under a check (`last_check.latency_ms`), and its path. */
export function latencyOf(monitor: unknown): { value: number | null; path: string | undefined } {
  let found: { value: number; path: string } | undefined;
  for (const path of leafPaths(monitor).keys()) {
    const value = pathValue(monitor, path);
    if (typeof value !== 'number' || !Number.isFinite(value)) continue;
    if (!LATENCY_KEY.test(path.slice(path.lastIndexOf('.') + 1))) continue;
    if (/check/i.test(path)) return { value, path };
    found ??= { value, path };
  }
  return found ?? { value: null, path: undefined };
}

/** The first timestamp leaf whose path says check (`last_check.checked_at`, `last_checked_at`); null when none. */
export function lastCheckOf(monitor: unknown): string | null {
  for (const path of leafPaths(monitor).keys()) {
    const value = pathValue(monitor, path);
    if (/check/i.test(path) && isTimestamp(value)) return value;
  }
  return null;
}

/** A monitor as the board shows it: what no poll has read yet is absent. */
export interface BoardRow {
  id: string;
  name?: string | undefined;
  /** The last status read; `gone` once the service answered 404. */
  status?: string | undefined;
  /** The last transition: from, to, when (ms). */
  transition?: { from: string; to: string; at: number } | undefined;
  /** Whether the transition is recent enough to be highlighted. */
  fresh?: boolean;
  lastCheck: string | null;
  latency: number | null;
  /** The latency field's name (for its unit: `_ms`). */
  latencyPath?: string | undefined;
  /** Latencies of successive polls, oldest first. */
  history: readonly (number | null)[];
}

export interface BoardView {
  width: number;
  /** Lines the frame may take (the terminal's height); undefined: no bound. */
  height?: number | undefined;
  now: number;
  paint: Palette;
  /** Color allowed: a fresh transition is in inverse video; without, `down (was up)`. */
  color: boolean;
  /** The widths of the columns in earlier frames, widened here as values grow: columns stay put between frames. */
  widths?: number[] | undefined;
}

function clock(ms: number): string {
  return new Date(ms).toTimeString().slice(0, 8);
}

function latencyText(row: BoardRow): string {
  if (row.latency === null) return '-';
  return /_ms$/i.test(row.latencyPath ?? '') ? `${row.latency}ms` : String(row.latency);
}

const HEAD = ['ID', 'NAME', 'STATUS', 'CHANGED', 'LAST CHECK', 'LATENCY', 'TREND'];
const GAP = 2;
/** Notes listed under the board; more are counted on one line. */
const MAX_NOTES = 5;
const [ID, NAME, STATUS, CHANGED, LAST_CHECK, LATENCY, TREND] = [0, 1, 2, 3, 4, 5, 6];
/** A name is cut to this many cells before any column is dropped. */
const NAME_CUT = 12;
/** The narrowest a name is cut to before it is dropped. */
const NAME_MIN = 6;
/** The sparkline is shown with at least this many cells (or the polls seen, if fewer), else dropped. */
const TREND_MIN = 5;

/**
 * Which of the six text columns show, and how wide, for a terminal of `width`
 * cells: the name is cut first (to NAME_CUT), then the sparkline, LATENCY and
 * LAST CHECK drop, then the name is cut further and dropped, then CHANGED and
 * STATUS. The id is never cut nor dropped, a status or a change (its time with
 * it) never cut: what one acts on stays whole. Room left goes back to the name.
 */
function layout(natural: readonly number[], width: number): { keep: number[]; widths: number[] } {
  const widths = [...natural];
  let keep = [ID, NAME, STATUS, CHANGED, LAST_CHECK, LATENCY];
  const used = () => keep.reduce((n, i) => n + (widths[i] as number), 0) + GAP * (keep.length - 1);
  const cutName = (floor: number) => {
    const over = used() - width;
    if (over > 0 && keep.includes(NAME))
      widths[NAME] = Math.max(Math.min(floor, natural[NAME] as number), (widths[NAME] as number) - over);
  };
  cutName(NAME_CUT);
  for (const drop of [LATENCY, LAST_CHECK]) if (used() > width) keep = keep.filter((i) => i !== drop);
  cutName(NAME_MIN);
  for (const drop of [NAME, CHANGED, STATUS]) if (used() > width) keep = keep.filter((i) => i !== drop);
  if (keep.includes(NAME))
    widths[NAME] = Math.min(natural[NAME] as number, (widths[NAME] as number) + Math.max(0, width - used()));
  return { keep, widths };
}

/** The frame: a header, the table, notes (failed polls), how many rows the height left out; at most `height` lines. */
export function boardLines(
  header: string,
  rows: readonly BoardRow[],
  notes: readonly string[],
  view: BoardView,
): string[] {
  const { paint, width } = view;
  const listed = notes.length > MAX_NOTES ? notes.slice(0, MAX_NOTES - 1) : notes;
  const noteLines = listed.map((n) => paint.warn(truncate(sanitizeLine(n), width)));
  if (listed.length < notes.length)
    noteLines.push(paint.warn(`… and ${notes.length - listed.length} more polls failed`));
  // Only the rows the terminal's height leaves room for are rendered: a
  // board of thousands costs what the screen shows.
  const room = view.height === undefined ? Infinity : view.height - 1 - noteLines.length;
  let shown = rows;
  if (2 + rows.length > room) shown = rows.slice(0, Math.max(0, room - 3));
  const hidden = rows.length - shown.length;
  const texts = shown.map((row) => {
    const status = row.status ?? '-';
    const shownStatus = row.fresh && !view.color && row.transition ? `${status} (was ${row.transition.from})` : status;
    return [
      row.id,
      row.name ?? '-',
      shownStatus,
      row.transition ? `${row.transition.from}→${row.transition.to} ${clock(row.transition.at)}` : '-',
      row.lastCheck === null ? '-' : age(view.now - Date.parse(row.lastCheck)),
      latencyText(row),
    ].map((t) => sanitizeLine(t));
  });
  // Each column as wide as the widest value seen in any frame (view.widths keeps them), so columns stay put.
  const natural = HEAD.slice(0, 6).map((h, i) =>
    texts.reduce((w, t) => Math.max(w, textWidth(t[i] as string)), Math.max(h.length, view.widths?.[i] ?? 0)),
  );
  if (view.widths) for (const [i, w] of natural.entries()) view.widths[i] = w;
  const longest = shown.reduce((n, r) => Math.max(n, r.history.length), 0);
  // The sparkline only where every other column fits whole beside it: it drops first.
  const whole = natural.reduce((a, b) => a + b, 0) + GAP * natural.length;
  let trend = Math.min(longest, width - whole);
  if (trend < Math.min(TREND_MIN, longest)) {
    // Not beside the whole name: the name is cut first (to NAME_CUT), and the sparkline shares what that
    // frees with it, rather than dropping while a long name keeps every cell.
    const cut = whole - (natural[NAME] as number) + Math.min(natural[NAME] as number, NAME_CUT);
    trend = Math.min(longest, width - cut, Math.max(TREND_MIN, Math.floor((width - cut) / 2)));
  }
  const showTrend = longest > 0 && trend >= Math.min(TREND_MIN, longest);
  const { keep, widths } = layout(natural, showTrend ? width - trend - GAP : width);
  const headed = showTrend ? [...keep, TREND] : keep;
  const cells: Cell[][] = [headed.map((i) => ({ text: HEAD[i] as string, paint: paint.key }))];
  for (const [r, row] of shown.entries()) {
    const t = texts[r] as string[];
    const line: Cell[] = keep.map((i) => {
      const cell: Cell = { text: truncate(t[i] as string, widths[i] as number) };
      if (i === STATUS)
        cell.paint = row.fresh && view.color ? paint.changed : statusPainter('status', row.status ?? '', paint);
      if (i === CHANGED && row.transition && row.fresh) cell.paint = paint.key;
      return cell;
    });
    if (showTrend) line.push({ text: sparkline(row.history.slice(-trend)), paint: paint.ok });
    cells.push(line);
  }
  const out = [
    truncate(sanitizeLine(header), width),
    ...tableLines(cells, { min: keep.map((i) => widths[i] as number) }),
  ];
  if (hidden > 0) out.push(paint.dim(truncate(`… ${hidden} more (a taller terminal shows them)`, width)));
  // A terminal of a few lines: the header, the rest cut.
  if (out.length > room) out.length = Math.max(1, room);
  return [...out, ...noteLines].map((line) => {
    const bare = stripVTControlCharacters(line);
    return textWidth(bare) > width ? truncate(bare, width) : line;
  });
}

/** A monitor's `name` or `status` when it is a string (the interface declares `status` on create and update). */
export function textOf(monitor: unknown, key: 'name' | 'status'): string | undefined {
  const value = isPlainObject(monitor) ? monitor[key] : undefined;
  return typeof value === 'string' ? value : undefined;
}
