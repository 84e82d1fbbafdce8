// The last guard before stderr: anything shaped like a cpk token (the prefix
// cpk_ and 8 or more token characters) or a bearer credential is masked in
// error lines, --debug traces, warnings and stack traces, whatever put it
// there (a server echoing a header, an error from a library). stdout is data
// and is never altered.

const TOKEN = /cpk_[A-Za-z0-9_\-.~+/=]{8,}/g;
const BEARER = /\b(Bearer\s+)(?!\[REDACTED\])[^\s"',;]+/gi;

/**
 * The secrets in use in this process (the resolved token), masked whatever
 * their shape: a configured token need not look like cpk_ + 8 characters
 * (`cpk_short`, punctuation) and is masked all the same when a server echoes it.
 */
const known = new Set<string>();

/** Registers a secret to mask from now on (src/context.ts, when a token is resolved). */
export function registerSecret(secret: string | undefined): void {
  // A secret of one or two characters would mask ordinary text; cpk refuses such tokens anyway.
  if (secret && secret.length >= 4) known.add(secret);
}

export function redactSecrets(text: string): string {
  let out = text;
  for (const secret of known)
    if (out.includes(secret)) out = out.split(secret).join(secret.startsWith('cpk_') ? 'cpk_[REDACTED]' : '[REDACTED]');
  return out.replace(TOKEN, 'cpk_[REDACTED]').replace(BEARER, '$1[REDACTED]');
}
