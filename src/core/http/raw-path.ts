// The PATH of `cpk api`, checked so that a request (and the token with it)
// can only go below the configured base URL: an absolute URL only under it (a
// Location header pasted back), no `.` or `..` segment (also percent-encoded)
// and no backslash. A path that already starts with the base URL's path
// (`/v1/monitors` under a base URL ending in /v1) is taken as that path, not
// doubled: the service names its resources that way (Location: /v1/monitors/mon_...).
import { UsageError } from '../errors.js';
import { decodeOrKeep, segmentProblem } from './path.js';

/** Returns the path (with query) relative to `baseUrl`, starting with `/`, percent-encoded where needed. */
export function resolveRawPath(baseUrl: string, input: string): string {
  const refuse = (why: string) => new UsageError(`invalid PATH "${input}": ${why}; nothing was sent`);
  if (input.trim() === '') throw refuse('it is empty');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f-\u009f]/.test(input))
    throw refuse('it contains a space or a control character (percent-encode it)');
  if (input.includes('\\')) throw refuse('it contains a backslash');
  if (input.includes('#')) throw refuse('a fragment (#) is never sent');
  const base = new URL(baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  let path = input;
  let absolute = false;
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(input) || input.startsWith('//')) {
    if (!URL.canParse(input, base.href)) throw refuse('not a valid URL');
    const url = new URL(input, base);
    if (url.origin !== base.origin || url.username || url.password) {
      throw refuse(`cpk api sends requests (and your token) only to the base URL ${base.origin}${basePath}`);
    }
    path = url.pathname + url.search;
    absolute = true;
  }
  if (!path.startsWith('/')) path = `/${path}`;
  const queryAt = path.indexOf('?');
  let pathname = queryAt === -1 ? path : path.slice(0, queryAt);
  const query = queryAt === -1 ? '' : path.slice(queryAt);
  if (pathname.split('/').some((segment) => segmentProblem(decodeOrKeep(segment)) === 'dot')) {
    throw refuse('"." and ".." segments are not allowed');
  }
  const underBase = pathname === basePath || pathname.startsWith(`${basePath}/`);
  if (underBase) pathname = pathname.slice(basePath.length);
  else if (absolute) throw refuse(`it is outside the base URL ${base.origin}${basePath}`);
  // Let the URL parser percent-encode what needs it, then check where it landed.
  const resolved = new URL(`${base.origin}${basePath}${pathname}${query}`);
  if (
    resolved.origin !== base.origin ||
    !(resolved.pathname === basePath || resolved.pathname.startsWith(`${basePath}/`))
  ) {
    throw refuse('it leaves the base URL');
  }
  return resolved.pathname.slice(basePath.length) + resolved.search;
}
