// Checks that the service accepts a token, with one harmless authenticated
// request: GET /monitors/cpk-auth-probe. The interface (sections 4 and 5)
// checks the token before the resource, so a 404 for this probe id (with the
// service's JSON error object) proves the token was accepted; 401 and 403 say
// what they say. A 404 that is not the service's JSON (a wrong base URL that
// answers every path with an HTML page) proves nothing and is reported.
import { ApiError, CpkError } from '../errors.js';
import type { Api } from './client.js';
import type { HttpResponse } from '../http/client.js';

const PROBE_MONITOR_ID = 'cpk-auth-probe';

/** The request and the status that proved the token accepted: 404 (the usual case) or 2xx. */
type ProbeResult = Pick<HttpResponse, 'status' | 'method' | 'url'>;

/** What a failed verification means, and what happens next (`consequence`, e.g. "nothing was stored"). */
export function explainProbeFailure(error: unknown, consequence: string, hint?: string): unknown {
  if (!(error instanceof CpkError)) return error;
  if (error instanceof ApiError) {
    // 401: the token is no good, and storing it anyway would not help; 403: a
    // real token the service refuses here (suspended account, missing scope).
    const refused = error.status === 401 || error.status === 403;
    const message = refused ? `the service refused the token (${error.status}: ${error.message})` : error.message;
    return new ApiError(`${message}; ${consequence}`, error, {
      cause: error,
      exitCode: error.exitCode,
      hint: error.hint ?? (error.status === 401 ? undefined : hint),
    });
  }
  return new CpkError(`${error.message}; ${consequence}`, error.exitCode, { cause: error, hint: error.hint ?? hint });
}

export async function probeToken(api: Api): Promise<ProbeResult> {
  try {
    return await api.probeMonitor(PROBE_MONITOR_ID);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      if (error.contentType?.toLowerCase().includes('json'))
        return { status: 404, method: error.method, url: error.url };
      throw new ApiError(
        `cannot tell whether the token works: ${error.method} ${error.url} answered 404 with ${error.contentType ?? 'no content type'}, not the service's JSON error`,
        error,
        { cause: error, hint: 'check the base URL (it usually ends in /v1)' },
      );
    }
    throw error;
  }
}
