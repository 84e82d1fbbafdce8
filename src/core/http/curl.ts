// A request description as a runnable curl command line (for --dry-run).
// Everything is single-quoted for a POSIX shell, except the authorization
// header, which is double-quoted so that the shell fills in $CPK_TOKEN: the
// command runs as printed and the token itself is never printed.
import { TOKEN_PLACEHOLDER, type RequestDescription } from './client.js';

/** Quotes a word for a POSIX shell (sh, bash, zsh): single quotes, with ' written as '\''. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_\-./:@%+,]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

function headerName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_m, dash: string, ch: string) => dash + ch.toUpperCase());
}

export function toCurl(request: RequestDescription): string {
  const words = ['curl'];
  if (request.method !== 'GET' || request.body !== undefined) words.push('-X', request.method);
  words.push(shellQuote(request.url));
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === 'authorization' && value === `Bearer ${TOKEN_PLACEHOLDER}`) {
      words.push('-H', `"Authorization: Bearer ${TOKEN_PLACEHOLDER}"`);
    } else {
      words.push('-H', shellQuote(`${headerName(name)}: ${value}`));
    }
  }
  if (request.body !== undefined) words.push('--data-raw', shellQuote(request.body));
  return words.join(' ');
}
