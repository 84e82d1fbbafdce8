// Text measured in terminal cells, and wrapped to a width: for the linear
// writer of lists and big objects (./render.ts), and to wrap values before
// cli-table3 draws them (./bordered.ts), since cli-table3 cuts a word longer
// than its column. Every function is linear in the length of its text.

// East Asian wide and fullwidth ranges, and the common emoji blocks: two cells.
function isWide(c: number): boolean {
  return (
    (c >= 0x1100 && c <= 0x115f) ||
    (c >= 0x2e80 && c <= 0x303e) ||
    (c >= 0x3041 && c <= 0x33ff) ||
    (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0xa000 && c <= 0xa4cf) ||
    (c >= 0xac00 && c <= 0xd7a3) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xfe30 && c <= 0xfe4f) ||
    (c >= 0xff00 && c <= 0xff60) ||
    (c >= 0xffe0 && c <= 0xffe6) ||
    (c >= 0x1f300 && c <= 0x1f64f) ||
    (c >= 0x1f900 && c <= 0x1f9ff) ||
    (c >= 0x20000 && c <= 0x3fffd)
  );
}

function isZeroWidth(c: number): boolean {
  return (c >= 0x300 && c <= 0x36f) || (c >= 0x200b && c <= 0x200f) || (c >= 0xfe00 && c <= 0xfe0f) || c === 0xfeff;
}

function cellWidth(c: number): number {
  if (c < 0x20) return 0;
  if (c < 0x7f) return 1;
  if (isZeroWidth(c)) return 0;
  return isWide(c) ? 2 : 1;
}

const PRINTABLE_ASCII = /^[\u0020-\u007e]*$/;

/** Width of (already sanitized, uncolored) text in terminal cells. */
export function textWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  for (const ch of text) width += cellWidth(ch.codePointAt(0) as number);
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
    for (const ch of word) {
      const w = cellWidth(ch.codePointAt(0) as number);
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
  for (const ch of text) {
    const w = cellWidth(ch.codePointAt(0) as number);
    if (used + w > width - 1) break;
    out += ch;
    used += w;
  }
  return `${out}…`;
}
