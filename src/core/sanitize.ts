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

// GitHub Actions reads workflow commands out of every line a step writes, on
// stdout and stderr alike, in two forms (actions/runner, ActionCommand.cs):
// a line that starts with `::` once the runner has trimmed its leading white
// space (`::warning::text`), and the legacy `##[warning]text` ANYWHERE in a
// line. So foreign text (a service's error, a monitor's name, a manifest's
// key) printed under Actions could raise annotations on a pull request, mask
// log text (`add-mask`) or silence cpk's own annotations (`stop-commands`).
// The runner splits lines at CR and LF, and its trim takes .NET's white
// space (the Unicode spaces, U+0085, the line and paragraph separators; the
// C0 separators U+001C-U+001F too, which older .NET counted).
const LEGACY_COMMAND = '##[';
const LINE_START_COMMAND =
  // eslint-disable-next-line no-control-regex -- the white space the runner trims holds C0 separators
  /(^|[\r\n])([\t\v\f\u001c-\u001f \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*):(?=:)/g;
/** Not white space to the runner, so its trim keeps it; invisible in the log, so the text reads as written. */
const ZERO_WIDTH_SPACE = '\u200b';

/**
 * Text the runner reads as data: a zero-width space put into each `##[` (`##\u200b[`) and between the two
 * colons of a `::` that starts a line. Only under GitHub Actions (Output and writeError decide).
 */
export function defuseWorkflowCommands(text: string): string {
  return text
    .replaceAll(LEGACY_COMMAND, `##${ZERO_WIDTH_SPACE}[`)
    .replace(LINE_START_COMMAND, `$1$2:${ZERO_WIDTH_SPACE}`);
}

/**
 * JSON or YAML text the runner reads as data, the value unchanged: `[` after `##` written as the escape
 * `\u005b`, which both read back as `[`. No line of either can start with `::` (JSON escapes line breaks,
 * and toYaml double-quotes a string that could start one), and in both `##[` occurs only inside a
 * double-quoted string, where the escape is valid.
 */
export function defuseWorkflowCommandsEncoded(text: string): string {
  return text.replaceAll(LEGACY_COMMAND, '##\\u005b');
}
