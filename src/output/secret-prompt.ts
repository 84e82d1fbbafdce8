// Asks for a secret on a terminal without echoing it. readline in terminal
// mode puts the terminal in raw mode (so the terminal itself echoes nothing)
// and its own echo goes to a sink; the question and the final newline go to
// stderr, so stdout stays data. Ctrl-C is exit 130, Ctrl-D a usage error, and
// the terminal is restored either way (readline leaves raw mode on close).
import { InterruptedError, UsageError } from '../core/errors.js';
import type { IO } from '../core/io.js';

export async function promptSecret(io: IO, question: string, signal?: AbortSignal): Promise<string> {
  const [{ createInterface }, { Writable }] = await Promise.all([import('node:readline'), import('node:stream')]);
  const sink = new Writable({
    write(_chunk, _encoding, callback) {
      callback();
    },
  });
  // Raw mode first, then the question: a token typed or pasted the moment the
  // question shows must not be echoed by the terminal.
  const rl = createInterface({ input: io.stdin, output: sink, terminal: true });
  io.stderr.write(question);
  return new Promise<string>((resolve, reject) => {
    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      rl.close();
      io.stderr.write('\n');
      settle();
    };
    const onAbort = () => finish(() => reject(new InterruptedError()));
    rl.on('line', (line) => finish(() => resolve(line)));
    rl.on('SIGINT', () => finish(() => reject(new InterruptedError())));
    rl.on('close', () => finish(() => reject(new UsageError('no token entered; nothing was stored'))));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}
