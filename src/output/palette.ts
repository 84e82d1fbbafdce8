// Colors for stdout. Output decides whether a stream may be colored, and at
// what level (colorLevel()); PLAIN is the answer off one.
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

const same: Painter = (text) => text;
export const PLAIN: Palette = { key: same, dim: same, ok: same, bad: same, warn: same, changed: same, note: same };

/** cpk's colors, by chalk at `level` (Output decides it from its IO, so a test's fake terminal is colored too). */
export async function colorPalette(level: ColorLevel | 'detect'): Promise<Palette> {
  const { Chalk, supportsColor } = await import('chalk');
  // 'detect': Output found a color terminal; chalk tells how many colors it has (at least 16).
  const c = new Chalk({
    level: level === 'detect' ? (Math.max(1, supportsColor ? supportsColor.level : 0) as ColorLevel) : level,
  });
  return { key: c.bold, dim: c.dim, ok: c.green, bad: c.red, warn: c.yellow, changed: c.inverse, note: c.magenta };
}

export type ColorLevel = 1 | 2 | 3;

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
