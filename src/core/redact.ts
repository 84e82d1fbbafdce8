// The last guard before text leaves cpk (src/output/output.ts and the error
// writers call it); what is masked where: docs/reliability-and-security.md, "Security".
//
// stdout (data) gets redactKnown, the secrets in use only: masking shapes there
// would alter data a script reads (a monitor named cpk_checkout_prod, a
// description mentioning "Bearer"). The mask is a plain string in place of the
// secret, so JSON stays valid. stderr gets redactSecrets, shapes included.

import { decodeOrKeep } from './http/path.js';

const TOKEN = /cpk_[A-Za-z0-9_\-.~+/=]{8,}/g;

/**
 * A credential after "Bearer", up to a space, a quote, a separator or a closing
 * bracket ("(Bearer cpk_x)" keeps its ")"); "Bearer cpk_[REDACTED]" becomes "Bearer [REDACTED]".
 */
const BEARER = /\b(Bearer\s+)(?!\[REDACTED\])(?:cpk_\[REDACTED\]|[^\s"',;()<>[\]{}]+)/gi;

/** "Basic" and base64 (RFC 7617: user:password); masked when it decodes to something with a colon. */
const BASIC = /\b(Basic\s+)([A-Za-z0-9+/]{4,}={0,2})(?![A-Za-z0-9+/=])/gi;

/** Schemes kept in front of a masked header value (RFC 9110's registry and common ones). */
const SCHEMES = 'Bearer|Basic|Digest|Negotiate|NTLM|Token|HOBA|Mutual|DPoP|GNAP|PrivateToken|ApiKey|AWS4-HMAC-SHA256';

/**
 * The value of any header whose name ends in "authorization" (Authorization,
 * Proxy-Authorization, X-Echoed-Authorization), masked keeping a known
 * scheme's name: as "name: value" in a trace or a message, to the end of the
 * line (a Digest value holds quotes and commas), and as "name":"value" in JSON
 * (escaped or not), to the closing quote.
 */
const NOT_MASKED = `(?!(?:(?:${SCHEMES})\\s+)?\\[REDACTED\\])(?:(${SCHEMES})(\\s+))?`;
const AUTH_LINE = new RegExp(`(authorization\\s*[:=]\\s*)${NOT_MASKED}\\S[^\\r\\n]*`, 'gi');
const AUTH_JSON = new RegExp(
  `(authorization\\\\?["']\\s*:\\s*\\\\?["']\\s*)${NOT_MASKED}[^\\s"'\\\\][^\\r\\n"'\\\\]*`,
  'gi',
);

function maskHeader(_whole: string, head: string, scheme: string | undefined, space: string | undefined): string {
  return scheme ? `${head}${scheme}${space}[REDACTED]` : `${head}[REDACTED]`;
}

/** The user information of a URL (scheme://user:password@host). */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)(?!\[REDACTED\]@)[^\s/?#@"'<>]+@/gi;

/** The secrets in use (the resolved token), whatever their shape (`cpk_short`), each also as inside a JSON string. */
const known = new Map<string, string>();
/** A proxy's password: on stderr only, where what a proxy says ends up; it may be an ordinary word in stdout's data. */
const knownForStderr = new Map<string, string>();

function maskFor(secret: string): string {
  return secret.startsWith('cpk_') ? 'cpk_[REDACTED]' : '[REDACTED]';
}

function remember(into: Map<string, string>, secret: string | undefined): void {
  // A secret of one to three characters would mask ordinary text; cpk refuses such tokens anyway.
  if (!secret || secret.length < 4) return;
  const mask = maskFor(secret);
  into.set(secret, mask);
  // As it appears inside a JSON string (a quote, a backslash or a control character escaped).
  const inJson = JSON.stringify(secret).slice(1, -1);
  if (inJson !== secret) into.set(inJson, mask);
}

/** Registers a secret to mask from now on, on stdout and stderr (src/cli/context.ts, when a token is resolved). */
export function registerSecret(secret: string | undefined): void {
  remember(known, secret);
}

/** Registers the credentials of a proxy URL (http://user:password@host): its password and the Basic value sent. */
export function registerUrlCredentials(url: string | undefined): void {
  if (!url || !URL.canParse(url)) return;
  const parsed = new URL(url);
  if (parsed.username === '' && parsed.password === '') return;
  const user = decodeOrKeep(parsed.username);
  const password = decodeOrKeep(parsed.password);
  remember(knownForStderr, password);
  // The Basic value sent is never data a script reads: masked on stdout too.
  remember(known, Buffer.from(`${user}:${password}`).toString('base64'));
}

/**
 * The registered secrets masked, exactly: for stdout. A secret cannot straddle
 * two writes: Output writes whole lines, and a token holding a line break is refused.
 */
export function redactKnown(text: string): string {
  return replaceAll(text, known);
}

function replaceAll(text: string, secrets: ReadonlyMap<string, string>): string {
  let out = text;
  for (const [secret, mask] of secrets) if (out.includes(secret)) out = out.split(secret).join(mask);
  return out;
}

function maskBasic(whole: string, scheme: string, value: string): string {
  const decoded = Buffer.from(value, 'base64').toString('latin1');
  return decoded.includes(':') ? `${scheme}[REDACTED]` : whole;
}

/** Everything credential-shaped masked, and the registered secrets: for stderr. */
export function redactSecrets(text: string): string {
  return replaceAll(redactKnown(text), knownForStderr)
    .replace(AUTH_JSON, maskHeader)
    .replace(AUTH_LINE, maskHeader)
    .replace(TOKEN, 'cpk_[REDACTED]')
    .replace(BEARER, '$1[REDACTED]')
    .replace(BASIC, maskBasic)
    .replace(USERINFO, '$1[REDACTED]@');
}

/** Forgets every registered secret (tests). */
export function forgetSecrets(): void {
  known.clear();
  knownForStderr.clear();
}
