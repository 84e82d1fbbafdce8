// Route matching for the /v1 API. Matching works on the raw path split on "/"
// *before* percent-decoding, and each {id} segment is decoded exactly once
// afterwards: "/v1/monitors/a%2Fb" is the monitor "a/b" (which cannot exist),
// never the path "/v1/monitors/a/b". No dot-segment or slash normalisation.
import { API_PREFIX, type OperationId } from './model.js';

export type Route =
  /** `id` is null when the segment is not valid percent-encoding (it then exists nowhere). */
  | { kind: 'operation'; operation: OperationId; id: string | null }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'not-found' };

interface RouteDef {
  /** Literal segments, with ":id" for the one path parameter. */
  pattern: readonly string[];
  methods: Readonly<Record<string, OperationId>>;
}

export const ROUTES: readonly RouteDef[] = [
  { pattern: ['monitors'], methods: { GET: 'listMonitors', POST: 'createMonitor' } },
  { pattern: ['monitors', ':id'], methods: { GET: 'getMonitor', PATCH: 'updateMonitor', DELETE: 'deleteMonitor' } },
  { pattern: ['channels'], methods: { GET: 'listChannels' } },
  { pattern: ['channels', ':id'], methods: { PATCH: 'updateChannel' } },
  { pattern: ['reports'], methods: { GET: 'listReports' } },
  { pattern: ['reports', ':id'], methods: { GET: 'getReport' } },
];

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** Matches a path under /v1 (query already removed) against the API routes. */
export function matchRoute(method: string, path: string): Route {
  if (!path.startsWith(`${API_PREFIX}/`)) return { kind: 'not-found' };
  const segments = path.slice(API_PREFIX.length + 1).split('/');
  for (const def of ROUTES) {
    if (def.pattern.length !== segments.length) continue;
    let id: string | null | undefined;
    const matches = def.pattern.every((part, i) => {
      const segment = segments[i] ?? '';
      if (part !== ':id') return part === segment;
      if (segment === '') return false;
      id = decodeSegment(segment);
      return true;
    });
    if (!matches) continue;
    // HEAD is GET without the body (Node's response drops the body of a HEAD answer).
    const verb = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
    const operation = def.methods[verb];
    if (operation === undefined) return { kind: 'method-not-allowed', allow: Object.keys(def.methods) };
    return { kind: 'operation', operation, id: id ?? null };
  }
  return { kind: 'not-found' };
}
