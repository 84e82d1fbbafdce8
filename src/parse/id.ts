import { UsageError } from '../core/errors.js';
import { segmentProblem } from '../core/http/path.js';

/**
 * `.` and `..` percent-encode to themselves and would climb a level. The path rule lives in the HTTP layer
 * (src/core/http/path.ts); here it names the argument, before anything is read or sent.
 */
export function checkId(id: string, what = 'id'): string {
  const problem = segmentProblem(id);
  if (problem === 'empty') throw new UsageError(`${what} must not be empty`);
  if (problem === 'dot') throw new UsageError(`invalid ${what} "${id}"`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(id)) throw new UsageError(`invalid ${what}: it contains a control character`);
  return id;
}
