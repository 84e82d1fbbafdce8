// The keychain's deadline, apart from src/config/keychain.ts so that resolving
// a session (every command) does not load what the keychain itself needs.

const KEYCHAIN_TIMEOUT_MS = 3_000;

/** A slow or failing keychain call becomes an Error of one short line, which callers put in their own words. */
export async function withDeadline<T>(work: (signal: AbortSignal) => Promise<T>, ms = KEYCHAIN_TIMEOUT_MS): Promise<T> {
  const signal = AbortSignal.timeout(ms);
  const late = new Promise<never>((_, reject) =>
    signal.addEventListener('abort', () => reject(new Error(`no answer within ${ms / 1000} s`))),
  );
  try {
    return await Promise.race([(async () => work(signal))(), late]);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // The binding's messages can run over several lines; the first says it.
    throw new Error(message.split('\n')[0]!.replace(/\s+/g, ' ').trim().slice(0, 200) || 'unknown error');
  }
}
