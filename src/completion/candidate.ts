// Which dynamic completion candidates a shell may be given. Monitor and report
// ids come from a service's responses and `--type` values from its document:
// text a server wrote. A candidate is offered only when it is a plain word that
// means the same thing, unquoted, in bash, zsh, fish and PowerShell; any other
// is left out rather than quoted, because each shell (and each way it inserts a
// match: the whole word, the common prefix of several, after a quote the user
// opened) would need its own quoting, and one miss runs the text as a command.
// Real ids and enum values are plain words, so nothing a user needs is lost;
// such an id can still be typed or pasted.

/** Characters a candidate may start with: never "-" (cpk would read an option), "@" or "." . */
export const FIRST_CHARACTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_';
/** Characters allowed after the first: none has a meaning in any of the four shells inside a word. */
export const WORD_CHARACTERS = `${FIRST_CHARACTERS}.+@/-`;
// Candidates longer than 200 characters are left out too: no real id is this
// long, and a shell's line editor need not hold one.
const PLAIN = new RegExp(`^[${FIRST_CHARACTERS}][${WORD_CHARACTERS}]{0,199}$`);

export function isPlainCandidate(value: string): boolean {
  return PLAIN.test(value);
}
