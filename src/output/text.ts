// Text measured in terminal cells, and wrapped to a width: for the linear
// writer of lists and big objects (./render.ts), and to wrap values before
// cli-table3 draws them (./bordered.ts), since cli-table3 cuts a word longer
// than its column. Every function is linear in the length of its text.
import { eastAsianWidth } from 'get-east-asian-width';

// Nonspacing and enclosing marks, and what Unicode says to ignore (zero-width
// spaces and joiners, variation selectors, BOM): no cell of their own.
const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Default_Ignorable_Code_Point}]/u;

/** Cells of one code point: two for East Asian wide and fullwidth ones (by Unicode's data: CJK, Hangul, emoji). */
function cellWidth(ch: string): number {
  const c = ch.codePointAt(0) as number;
  if (c < 0x20) return 0;
  if (c < 0x7f) return 1;
  return ZERO_WIDTH.test(ch) ? 0 : eastAsianWidth(c);
}

const PRINTABLE_ASCII = /^[\u0020-\u007e]*$/;

/**
 * What a terminal draws as one character: a grapheme cluster (Intl.Segmenter, built into Node). A family
 * emoji is several emoji joined by zero-width joiners, drawn in two cells, not two for each; an accented
 * letter may be a letter and a combining mark. Text is measured, cut and wrapped by these, never inside one.
 */
let segmenter: Intl.Segmenter | undefined;

function graphemes(text: string): Iterable<string> {
  // Printable ASCII is one cluster a character: segmenting megabytes of it is slow for nothing.
  if (PRINTABLE_ASCII.test(text)) return text;
  // Made on first use: making one costs about 13 ms, which a command that prints JSON never needs to pay.
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const clusters = segmenter;
  return (function* () {
    for (const { segment } of clusters.segment(text)) yield segment;
  })();
}

/** Cells of one grapheme cluster: its widest code point's (a joined emoji sequence is as wide as one emoji). */
function clusterWidth(cluster: string): number {
  if (cluster.length === 1) return cellWidth(cluster);
  let width = 0;
  for (const ch of cluster) width = Math.max(width, cellWidth(ch));
  return width;
}

/** Width of (already sanitized, uncolored) text in terminal cells. */
export function textWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  for (const cluster of graphemes(text)) width += clusterWidth(cluster);
  return width;
}

/** Pads `text` with spaces to `width` cells. */
export function padEnd(text: string, width: number): string {
  const w = textWidth(text);
  return w >= width ? text : text + ' '.repeat(width - w);
}

/** Splits one line into lines of at most `width` cells: at spaces where it can, else inside a word; never none. */
export function wrapText(text: string, width: number): string[] {
  if (width < 1) width = 1;
  if (textWidth(text) <= width) return [text];
  const lines: string[] = [];
  let line = '';
  let used = 0;
  const flush = () => {
    lines.push(line.trimEnd());
    line = '';
    used = 0;
  };
  // Words with the spaces that follow them, so the text is kept as written.
  for (const word of text.split(/(?<= )/)) {
    const bare = textWidth(word.trimEnd());
    if (used + bare > width && line !== '') flush();
    if (used + bare <= width) {
      line += word;
      used += textWidth(word);
      continue;
    }
    // A word longer than the width: cut it.
    for (const ch of graphemes(word)) {
      const w = clusterWidth(ch);
      if (used + w > width && line.trimEnd() !== '') flush();
      line += ch;
      used += w;
    }
  }
  if (line.trimEnd() !== '' || lines.length === 0) lines.push(line.trimEnd());
  return lines;
}

/** `text` cut to `width` cells, an ellipsis marking the cut. */
export function truncate(text: string, width: number): string {
  if (textWidth(text) <= width) return text;
  if (width <= 0) return '';
  let out = '';
  let used = 0;
  for (const ch of graphemes(text)) {
    const w = clusterWidth(ch);
    if (used + w > width - 1) break;
    out += ch;
    used += w;
  }
  return `${out}…`;
}
