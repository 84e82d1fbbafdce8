import { UsageError } from '../errors.js';

/**
 * Validates an id before it becomes a path segment. The HTTP layer
 * percent-encodes it, but `.` and `..` encode to themselves and would climb
 * a level, and control characters have no business in an id.
 */
export function checkId(id: string, what = 'id'): string {
  if (id === '') throw new UsageError(`${what} must not be empty`);
  if (id === '.' || id === '..') throw new UsageError(`invalid ${what} "${id}"`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(id)) throw new UsageError(`invalid ${what}: it contains a control character`);
  return id;
}
