// Shapes drawn with text: a sparkline for a numeric series, a bar for a
// percentage. Pure: the caller decides whether the output is a terminal.
const TICKS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/** One character per value, scaled between the series' own min and max; null/NaN print as a space. */
export function sparkline(values: readonly (number | null | undefined)[]): string {
  const finite = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  if (finite.length === 0) return ' '.repeat(values.length);
  const min = finite.reduce((a, b) => Math.min(a, b));
  const max = finite.reduce((a, b) => Math.max(a, b));
  const span = max - min;
  let out = '';
  for (const v of values) {
    if (typeof v !== 'number' || !Number.isFinite(v)) out += ' ';
    else out += TICKS[span === 0 ? 3 : Math.round(((v - min) / span) * (TICKS.length - 1))];
  }
  return out;
}

/** A horizontal bar of `width` cells for a percentage (clamped to 0..100). */
export function bar(percent: number, width = 20): string {
  const p = Number.isFinite(percent) ? Math.min(100, Math.max(0, percent)) : 0;
  const eighths = Math.round((p / 100) * width * 8);
  const full = Math.floor(eighths / 8);
  const rest = eighths % 8;
  const partial = rest ? ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'][rest] : '';
  return ('█'.repeat(full) + partial).padEnd(width, '·');
}
