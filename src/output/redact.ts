// The last guard before stderr: anything shaped like a cpk token (the prefix
// cpk_ and 8 or more token characters) or a bearer credential is masked in
// error lines, --debug traces, warnings and stack traces, whatever put it
// there (a server echoing a header, an error from a library). stdout is data
// and is never altered.

const TOKEN = /cpk_[A-Za-z0-9_\-.~+/=]{8,}/g;
const BEARER = /\b(Bearer\s+)(?!\[REDACTED\])[^\s"',;]+/gi;

export function redactSecrets(text: string): string {
  return text.replace(TOKEN, 'cpk_[REDACTED]').replace(BEARER, '$1[REDACTED]');
}
