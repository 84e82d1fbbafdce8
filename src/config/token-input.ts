// Checks a token typed at the prompt or piped to `auth login --with-token`
// before anything is stored or sent. Messages never repeat the token.
import { AuthError, UsageError } from '../core/errors.js';
import { TOKEN_PREFIX } from '../core/token.js';

// Visible ASCII after the prefix: what the service's tokens are made of, and
// what can travel in an Authorization header.
const TOKEN_SHAPE = /^cpk_[\x21-\x7e]+$/;

/** Trims the input (a trailing newline from `echo`), and refuses what is not one cpk_ token. */
export function checkTokenInput(raw: string, source: string): string {
  const token = raw.trim();
  if (token === '')
    throw new UsageError(`no token on ${source}`, { hint: 'pipe one in: echo "$TOKEN" | cpk auth login --with-token' });
  if (!token.startsWith(TOKEN_PREFIX)) {
    throw new AuthError(
      `the token from ${source} does not start with "${TOKEN_PREFIX}": cpk API tokens do; nothing was stored`,
    );
  }
  if (!TOKEN_SHAPE.test(token)) {
    throw new AuthError(
      `the token from ${source} holds spaces, line breaks or other characters a token cannot have; nothing was stored`,
      {
        hint: 'give one token alone',
      },
    );
  }
  return token;
}
