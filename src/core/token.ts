// The service's bearer tokens: what cpk will send (the prefix the interface
// requires, nothing a header cannot carry) and how it shows one to a person.
import { AuthError, ExitCode } from './errors.js';

export const TOKEN_PREFIX = 'cpk_';

/** The prefix is the interface's (section 5); neither message repeats the token. */
export function checkTokenPrefix(token: string, source: string): void {
  if (!token.startsWith(TOKEN_PREFIX)) {
    throw new AuthError(`the token from ${source} does not start with "${TOKEN_PREFIX}"; it was not sent`);
  }
  if (/[^\x20-\x7e]/.test(token)) {
    // The person's input to fix, so a usage error (exit 2) rather than a network error after retries; still
    // an AuthError, so that commands needing no token run.
    throw new AuthError(
      `the token from ${source} holds a line break, a control character or a character outside ASCII, which no HTTP header can carry; it was not sent`,
      { hint: 'set it again, as the one line the service gave', exitCode: ExitCode.USAGE },
    );
  }
}

/** `cpk_…abcd`: enough to tell tokens apart, never enough to use one. */
export function maskToken(token: string): string {
  return `${TOKEN_PREFIX}…${token.length > TOKEN_PREFIX.length + 8 ? token.slice(-4) : ''}`;
}
