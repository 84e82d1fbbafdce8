// Id lists for bulk commands: ids given as arguments, and `-` for ids read
// from stdin, one per line (blank lines and `#` comment lines skipped).
import { UsageError } from '../core/errors.js';
import { readAll } from '../core/io.js';
import { checkId } from './id.js';

export function parseIdLines(text: string, what = 'id'): string[] {
  const ids: string[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    try {
      ids.push(checkId(line, what));
    } catch (error) {
      throw new UsageError(`stdin line ${index + 1}: ${(error as Error).message}; nothing was sent`);
    }
  });
  return ids;
}

export async function readIdList(args: string[], stdin: NodeJS.ReadableStream, what = 'id') {
  const dashes = args.filter((a) => a === '-').length;
  if (dashes > 1) throw new UsageError('- (read ids from stdin) may be given only once');
  const ids: string[] = [];
  for (const arg of args) {
    // One push per id: spreading stdin's ids into push() passes each as an
    // argument, and some 125,000 of them overflow the stack.
    if (arg === '-') for (const id of parseIdLines(await readAll(stdin), what)) ids.push(id);
    else ids.push(checkId(arg, what));
  }
  // single: exactly one id given as an argument, for which commands keep their single-object output.
  return { ids, single: args.length === 1 && dashes === 0 };
}
