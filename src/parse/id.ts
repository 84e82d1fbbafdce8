import { UsageError } from '../core/errors.js';
import { segmentProblem } from '../core/http/path.js';

/**
 * Validates an id before it becomes a path segment. The HTTP layer
 * percent-encodes it, but `.` and `..` encode to themselves and would climb
 * a level, and control characters have no business in an id.
 */
export function checkId(id: string, what = 'id'): string {
  // The path rule itself lives in the HTTP layer (src/core/http/path.ts); here it
  // only names the argument, before anything is read or sent.
  const problem = segmentProblem(id);
  if (problem === 'empty') throw new UsageError(`${what} must not be empty`);
  if (problem === 'dot') throw new UsageError(`invalid ${what} "${id}"`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(id)) throw new UsageError(`invalid ${what}: it contains a control character`);
  return id;
}
