// The next step cpk suggests for a failure whose fix depends on where the command's base URL and token came
// from, which only the command's Context knows; the error itself carries a general hint at most.
import { ApiError, CpkError, NetworkError } from '../core/errors.js';
import { DEFAULT_BASE_URL } from '../core/base-url.js';

/** Where a command's requests went: its base URL, and where its token came from ("CPK_TOKEN", `profile "x"`). */
export interface Target {
  baseUrl: string;
  tokenSource: string | undefined;
}

/**
 * The next step for an error sent to `target` (a 401 names the token's source); it replaces the error's own,
 * more general, hint: one next step, not two.
 */
export function guidanceFor(error: unknown, target: Target): string | undefined {
  if (!(error instanceof CpkError)) return undefined;
  const local = emulatorHint(error, target.baseUrl);
  if (local) return local;
  if (error.hint) return undefined;
  if (error instanceof ApiError && error.status === 401) {
    const source = target.tokenSource ?? 'nowhere';
    if (source === 'CPK_TOKEN') return 'the token came from CPK_TOKEN: set a valid one, or unset it to use a profile';
    const name = /^profile "(.*)"$/.exec(source)?.[1];
    if (name !== undefined)
      return `the token came from ${source}: sign in again with \`cpk auth login${name !== 'default' ? ` --profile ${name}` : ''}\``;
    return `the token came from ${source}`;
  }
  return undefined;
}

/** A refused connection to the default address: the local emulator is not running (README, "Quick start"). */
export function emulatorHint(error: unknown, baseUrl: string): string | undefined {
  if (error instanceof NetworkError && /ECONNREFUSED/.test(error.message) && baseUrl === DEFAULT_BASE_URL)
    return 'nothing listens at the default address, the local emulator: start it with `cpk emulator` in another terminal, or point cpk at your service with --base-url or CPK_BASE_URL';
  return undefined;
}
