// Bearer-token authentication. Tokens are opaque strings looked up in a
// table; each belongs to an account and carries scopes. The checks run in the
// order of the interface's section 5 so that every 401/403 case has its own
// message (scripts can tell "expired" from "revoked" from "typo").
import { maskToken } from '../core/token.js';
import { DEV_ACCOUNT, SCOPES, type Scope } from './model.js';
import { publicDocument } from './openapi.js';
import { Refusal } from './respond.js';

export interface TokenInfo {
  account: string;
  scopes: ReadonlySet<Scope>;
  /** Why a token that exists is refused (401): "token expired", "token revoked". */
  refused?: string;
}

/** The test tokens every emulator has, as the document lists them (the first is the development token's entry). */
const SEEDED_TOKENS = (publicDocument['x-seeded-tokens'] as DeclaredToken[]).slice(1);
const REFUSED: Record<string, string> = { cpk_test_expired: 'token expired', cpk_test_revoked: 'token revoked' };

const REALM = 'Bearer realm="cpk"';
const TOKEN_SHAPE = /^cpk_[\x21-\x7e]+$/;

/** A token declared at start (`cpk emulator --token NAME:TOKEN[:SCOPES]`): its account and scopes. */
export interface DeclaredToken {
  account: string;
  token: string;
  scopes: readonly Scope[];
}

/** Builds the token table: the seeded test tokens, the development token and the declared ones. */
export function buildTokenTable(devToken: string, declared: readonly DeclaredToken[] = []): Map<string, TokenInfo> {
  if (!devToken.startsWith('cpk_')) throw new Error('emulator token must start with cpk_');
  if (!TOKEN_SHAPE.test(devToken))
    throw new Error('emulator token must be cpk_ followed by visible ASCII characters (no spaces)');
  if (SEEDED_TOKENS.some((t) => t.token === devToken))
    throw new Error(`emulator token ${devToken} collides with a seeded test token`);
  const table = new Map<string, TokenInfo>();
  for (const t of SEEDED_TOKENS)
    table.set(t.token, { account: t.account, scopes: new Set(t.scopes), refused: REFUSED[t.token] });
  table.set(devToken, { account: DEV_ACCOUNT, scopes: new Set(SCOPES) });
  for (const d of declared) {
    if (!TOKEN_SHAPE.test(d.token))
      throw new Error(`token ${d.token.slice(0, 4)}… must be cpk_ followed by visible ASCII characters`);
    if (table.has(d.token)) throw new Error(`token of ${d.account} is declared twice or collides with a seeded token`);
    table.set(d.token, { account: d.account, scopes: new Set(d.scopes) });
  }
  return table;
}

const invalid = (message: string) =>
  new Refusal(401, message, { 'WWW-Authenticate': `${REALM}, error="invalid_token", error_description="${message}"` });

/** The account and scopes of the Authorization headers sent, or a 401/403 Refusal; a suspension never hides a 401. */
export function authenticate(
  headers: readonly string[] | undefined,
  tokens: ReadonlyMap<string, TokenInfo>,
  isSuspended: (account: string) => boolean,
): TokenInfo {
  const header = headers?.[0];
  if (!header) throw new Refusal(401, 'missing Authorization header', { 'WWW-Authenticate': REALM });
  // Node keeps only the first of repeated Authorization headers; which one a gateway in front would use is
  // anyone's guess, so a request carrying two credentials is refused as malformed rather than judged by one.
  if (headers.length > 1) throw invalid('malformed Authorization header: sent more than once');
  // The scheme name is case-insensitive (RFC 9110 §11.1); exactly one token follows.
  const match = /^bearer +(\S+)$/i.exec(header);
  if (!match) throw invalid("malformed Authorization header: expected 'Bearer <token>'");
  const token = match[1] ?? '';
  if (!token.startsWith('cpk_')) throw invalid('malformed token: API tokens start with cpk_');
  const info = tokens.get(token);
  if (!info) throw invalid('invalid token');
  if (info.refused !== undefined) throw invalid(info.refused);
  if (isSuspended(info.account)) throw new Refusal(403, 'account suspended');
  return info;
}

export function scopeRefusal(scope: Scope): Refusal {
  const challenge = `${REALM}, error="insufficient_scope", scope="${scope}"`;
  return new Refusal(403, `token lacks required scope ${scope}`, { 'WWW-Authenticate': challenge });
}

/** "cpk_dev_emulator_token" -> "cpk_…oken" (as cpk shows a token); a secret of another shape keeps no prefix. */
function maskSecret(secret: string): string {
  // Short secrets would be mostly revealed by their last 4 characters.
  return secret.startsWith('cpk_') ? maskToken(secret) : `…${secret.length > 8 ? secret.slice(-4) : ''}`;
}

/** "Bearer cpk_dev_emulator_token" -> "Bearer cpk_…oken"; never reveals more than 4 characters. */
export function redactAuthorization(value: string): string {
  const match = /^(\S+)\s+(.*)$/.exec(value);
  const scheme = match ? `${match[1]} ` : '';
  return `${scheme}${maskSecret(match ? (match[2] ?? '') : value)}`;
}

// Anything token-shaped in free text: cpk_ and what follows up to a delimiter; "cpk_…oken" is not matched again.
// \u2026 in the pattern, not the character: esbuild keeps comments out of the bundle but copies a pattern as
// it is, and one non-ASCII character makes Node decode and hash the whole CLI bundle as two-byte text.
const TOKEN_SHAPE_IN_TEXT = /cpk_[^\s/?&#"'<>;,=\\()[\]{}\u2026]+/g;

/**
 * Masks every secret given (whatever its shape, as sent or percent-encoded) and anything shaped like a cpk token,
 * to its last 4 characters, or to nothing with `tail: false` (the emulator's log lines).
 */
export function redactTokens(text: string, secrets: Iterable<string> = [], options: { tail?: boolean } = {}): string {
  const mask = (secret: string) =>
    options.tail === false ? (secret.startsWith('cpk_') ? 'cpk_…' : '…') : maskSecret(secret);
  let out = text;
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    for (const form of new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]))
      if (out.includes(form)) out = out.split(form).join(mask(secret));
  }
  return out.replace(TOKEN_SHAPE_IN_TEXT, (token) => mask(token));
}
