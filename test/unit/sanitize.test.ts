// What reaches a terminal from a server (src/core/sanitize.ts): no escape
// sequence and no control character survives, whole sequences go (not just
// their ESC), and cpk's own colors survive only where cpk painted them.
import { describe, expect, it } from 'vitest';
import { sanitize, sanitizeKeepingColor, sanitizeLine } from '../../src/core/sanitize.js';

const ESC = '\u001b';

describe('sanitize', () => {
  it.each([
    // Two-byte escapes go whole: a full reset (ESC c), save cursor (ESC 7), keypad mode (ESC =).
    [`a${ESC}cb`, 'ab'],
    [`a${ESC}7b${ESC}=c`, 'abc'],
    // CSI: clear screen, cursor moves, colors; the 8-bit CSI too.
    [`x${ESC}[2Jy`, 'xy'],
    [`x${ESC}[10;20Hy`, 'xy'],
    [`x${ESC}[31mred${ESC}[0m`, 'xred'],
    [`x\u009b2Jy`, 'xy'],
    // OSC: a window title ended by BEL or by ST, a hyperlink.
    [`t${ESC}]0;owned\u0007u`, 'tu'],
    [`t${ESC}]0;owned${ESC}\\u`, 'tu'],
    [`t${ESC}]8;;https://evil.example${ESC}\\link${ESC}]8;;${ESC}\\`, 'tlink'],
    // Controls but newline and tab; DEL; bidi overrides.
    ['a\u0000b\u0007c\u0008d\rz', 'abcdz'],
    ['keep\nnew\tlines', 'keep\nnew\tlines'],
    ['a\u007fb', 'ab'],
    ['evil\u202egnp.exe', 'evilgnp.exe'],
    ['plain text, ünïcode and emoji 🎉', 'plain text, ünïcode and emoji 🎉'],
    // Sequences cut short by the end of the text go whole too, parameters and all.
    [`a${ESC}[12;3`, 'a'],
    [`a${ESC}]0;owned title`, 'a'],
    [`a${ESC}`, 'a'],
  ])('%j -> %j', (input, expected) => {
    expect(sanitize(input)).toBe(expected);
  });
});

describe('sanitizeLine', () => {
  it('folds each run of line breaks and tabs to one space', () => {
    expect(sanitizeLine('first\r\nsecond\n\n\tthird')).toBe('first second third');
    expect(sanitizeLine(`a${ESC}[2J\nb`)).toBe('a b');
  });
});

describe('sanitizeKeepingColor', () => {
  it("keeps cpk's own color codes and removes everything else", () => {
    const painted = `${ESC}[31mdown${ESC}[39m ${ESC}[1mbold${ESC}[22m`;
    expect(sanitizeKeepingColor(painted)).toBe(painted);
    expect(sanitizeKeepingColor(`${ESC}[32mok${ESC}[39m${ESC}[2J${ESC}[8mhidden${ESC}]0;t\u0007`)).toBe(
      `${ESC}[32mok${ESC}[39mhidden`,
    );
  });
});
