// Server text reaches a terminal only through here: a monitor name must not be
// able to clear the screen, set the window title or hide text (the model is
// go-gh's asciisanitizer).

// ESC-introduced sequences: CSI (ESC [ ... final), OSC/DCS/PM/APC/SOS (ESC ] ...
// terminated by BEL or ST), and two-byte escapes. Their 8-bit C1 forms too.
const ESCAPE_SEQUENCE =
  // eslint-disable-next-line no-control-regex
  /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?|(?:\u001b[\]P^_X]|[\u0090\u009d\u009e\u009f\u0098])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[\u0020-\u007e]?/g;
// Every other C0 control but tab and newline, DEL, C1 controls, and the bidi
// overrides that can reorder what a reader sees.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Removes escape sequences and control characters but newline and tab. */
export function sanitize(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '').replace(CONTROL, '');
}

/** As sanitize, and folds newlines and tabs to spaces: for one-line messages. */
export function sanitizeLine(text: string): string {
  return sanitize(text).replace(/[\r\n\t]+/g, ' ');
}

// The SGR codes of cpk's own palettes (src/output/palette.ts, as chalk draws
// them at any level): bold, dim, inverse, red, green, yellow, magenta and
// their resets. Nothing else (no conceal, no cursor movement) survives
// sanitizeKeepingColor.
// eslint-disable-next-line no-control-regex
const OWN_SGR = /(\u001b\[(?:1|2|7|22|27|31|32|33|35|39)m)/;

/** As sanitize, but keeps the color codes cpk's palettes write: for text cpk rendered and painted itself. */
export function sanitizeKeepingColor(text: string): string {
  // Split on a capturing pattern: the codes are the odd parts.
  return text
    .split(OWN_SGR)
    .map((part, i) => (i % 2 === 1 ? part : sanitize(part)))
    .join('');
}
