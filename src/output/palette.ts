// Colors for stdout, written as the few SGR codes cpk uses (what chalk level 1
// writes), so a table on a terminal costs no chalk import. Output decides
// whether a stream may be colored (decorate()); PLAIN is the answer off one.
export type Painter = (text: string) => string;

export interface Palette {
  key: Painter;
  dim: Painter;
  ok: Painter;
  bad: Painter;
  warn: Painter;
  changed: Painter;
  /** Magenta: the plan's notes (a monitor kept, a channel dropped). */
  note: Painter;
}

const sgr =
  (open: number, close: number): Painter =>
  (text) =>
    text === '' ? text : `\u001b[${open}m${text}\u001b[${close}m`;

export const PLAIN: Palette = {
  key: (t) => t,
  dim: (t) => t,
  ok: (t) => t,
  bad: (t) => t,
  warn: (t) => t,
  changed: (t) => t,
  note: (t) => t,
};

export const COLORS: Palette = {
  key: sgr(1, 22),
  dim: sgr(2, 22),
  ok: sgr(32, 39),
  bad: sgr(31, 39),
  warn: sgr(33, 39),
  changed: sgr(7, 27),
  note: sgr(35, 39),
};

/** The painter for a value of a status field (up green, down red, paused dim), or undefined. */
export function statusPainter(key: string, text: string, paint: Palette): Painter | undefined {
  const last = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  if (last !== 'status' && !last.endsWith('_status')) return undefined;
  if (/^(up|ok|active|healthy|passing)$/i.test(text)) return paint.ok;
  if (/^(down|failing|error|critical)$/i.test(text)) return paint.bad;
  if (/^paused$/i.test(text)) return paint.dim;
  if (/^(pending|degraded|warning)$/i.test(text)) return paint.warn;
  return undefined;
}
