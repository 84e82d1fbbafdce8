// The path rule, in one place: a path segment is sent only when it
// cannot climb. encodeURIComponent encodes `/`, `?`, `#` and `%`, but `.` and
// `..` encode to themselves and an empty segment collapses into `//`, so those
// are refused here, where the URL is built: the commands, manifests and the
// programmatic client (`createClient().deleteMonitor('..')`) all go through it.
import { UsageError } from '../errors.js';

/** Why `segment` cannot be a path segment (`.` and `..` are what a URL resolver climbs with), or undefined when it can. */
export function segmentProblem(segment: string): 'empty' | 'dot' | undefined {
  if (segment === '') return 'empty';
  if (segment === '.' || segment === '..') return 'dot';
  return undefined;
}

/** One segment, percent-encoded; a segment that would climb or collapse is refused. */
export function encodeSegment(segment: string): string {
  const problem = segmentProblem(segment);
  if (problem !== undefined) {
    const why = problem === 'empty' ? 'an empty path segment' : `a "${segment}" path segment`;
    throw new UsageError(`refusing to send a request with ${why} (it would change the path); nothing was sent`);
  }
  return encodeURIComponent(segment);
}

/** decodeURIComponent, or the text as it is when it is not valid percent-encoding ("%E0", "100%"). */
export function decodeOrKeep(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
