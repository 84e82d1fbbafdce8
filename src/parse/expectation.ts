// `cpk emulator requests --expect 'POST /monitors name=api'`: a request pattern written the way HTTPie writes a
// request (METHOD PATH, then items: `field=text` and `field:=json` for body fields, `name==value` for a query
// parameter, `Header:value` for a header), turned into the emulator's pattern for POST /__emulator/requests/find.
import { UsageError } from '../core/errors.js';

/** The emulator's request pattern (docs/emulator.md, "Verifying what a client sent"). */
export interface ExpectedRequest {
  method?: string;
  path?: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: Record<string, unknown>;
}

/** Words split on blanks; '...' and "..." keep blanks inside a word (the quotes go). */
function words(text: string, usage: (why: string) => UsageError): string[] {
  const out: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (const char of text) {
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      word ??= '';
    } else if (/\s/.test(char)) {
      if (word !== undefined) out.push(word);
      word = undefined;
    } else word = (word ?? '') + char;
  }
  if (quote !== undefined) throw usage(`a ${quote} is not closed`);
  if (word !== undefined) out.push(word);
  return out;
}

const SEPARATORS = ['==', ':=', '=', ':'] as const;

/** The first separator in an item, the longer one where two start at the same place (HTTPie's rule). */
function separatorOf(item: string): { at: number; sep: (typeof SEPARATORS)[number] } | undefined {
  let best: { at: number; sep: (typeof SEPARATORS)[number] } | undefined;
  for (const sep of SEPARATORS) {
    const at = item.indexOf(sep);
    if (at > 0 && (best === undefined || at < best.at)) best = { at, sep };
  }
  return best;
}

/**
 * Parses "METHOD PATH [ITEM...]". METHOD is a method name or `*` for any; PATH is under the base URL's path
 * (`basePath`, "/v1"), may end with `*` to match by prefix, and may carry `?name=value&...` (query items).
 */
export function parseExpectation(text: string, basePath: string): ExpectedRequest {
  const usage = (why: string) =>
    new UsageError(
      `--expect ${JSON.stringify(text)}: ${why}; expected METHOD PATH [field=text field:=json name==value Header:value ...]`,
    );
  const [method, path, ...items] = words(text, usage);
  if (method === undefined || path === undefined) throw usage('give a method and a path');
  if (!/^(?:[A-Za-z]+|\*)$/.test(method)) throw usage(`"${method}" is not a method (or * for any)`);
  if (!path.startsWith('/')) throw usage(`the path "${path}" does not start with /`);
  const out: ExpectedRequest = {};
  if (method !== '*') out.method = method.toUpperCase();
  const [bare = '', query] = path.split(/\?(.*)/s, 2);
  out.path = basePath.replace(/\/+$/, '') + bare;
  const put = (key: 'query' | 'headers' | 'body', name: string, value: unknown) => {
    const map = (out[key] ??= {}) as Record<string, unknown>;
    if (Object.hasOwn(map, name)) throw usage(`${name} is given twice`);
    map[name] = value;
  };
  if (query !== undefined) for (const [name, value] of new URLSearchParams(query)) put('query', name, value);
  for (const item of items) {
    const found = separatorOf(item);
    if (found === undefined) throw usage(`"${item}" is not an item`);
    const name = item.slice(0, found.at);
    const value = item.slice(found.at + found.sep.length);
    if (found.sep === '==') put('query', name, value);
    else if (found.sep === ':') put('headers', name.toLowerCase(), value);
    else if (found.sep === '=') put('body', name, value);
    else {
      let json: unknown;
      try {
        json = JSON.parse(value);
      } catch {
        throw usage(`the value of ${name}:= is not JSON: ${value}`);
      }
      put('body', name, json);
    }
  }
  return out;
}
