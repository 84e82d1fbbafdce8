// The retry, redirect and error policy of the HTTP choke point, against a
// scripted transport: which failures are retried for which methods, how many
// attempts, which waits, and what the final error says.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { defaultSleep, HttpClient } from '../../src/core/http/client.js';
import {
  TransportError,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from '../../src/core/http/transport.js';
import { backoffMs, BACKOFF_BASE_MS, BACKOFF_CAP_MS, parseRetryAfter } from '../../src/core/http/retry.js';
import { ApiError, CpkError, InterruptedError, NetworkError } from '../../src/core/errors.js';
import { parseRetriesFlag, resolveAttempts } from '../../src/core/http/attempts.js';
import { parseGlobals, parseMaxTime } from '../../src/cli/globals.js';

type Step = TransportError | TransportResponse;

const TOKEN = 'cpk_unit_secret_token_value';

function json(status: number, body: unknown, headers: Record<string, string> = {}): TransportResponse {
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: Buffer.from(JSON.stringify(body)),
  };
}

function fail(kind: TransportError['kind'], response?: TransportError['response']): TransportError {
  return new TransportError(kind, `simulated ${kind}`, kind.toUpperCase(), { response });
}

/** A client whose transport plays `steps` in order and records what was sent and waited. */
function scripted(steps: Step[], options: { attempts?: number; signal?: AbortSignal; proxy?: string } = {}) {
  const sent: TransportRequest[] = [];
  const waits: number[] = [];
  const debug: string[] = [];
  const transport: Transport = {
    async send(req) {
      sent.push(req);
      const step = steps.shift();
      if (!step) throw new Error('no more scripted steps');
      if (step instanceof TransportError) throw step;
      return step;
    },
    async close() {},
    proxy: options.proxy,
  };
  const client = new HttpClient({
    baseUrl: 'https://api.example.com/v1',
    token: TOKEN,
    timeoutMs: 1000,
    attempts: options.attempts,
    userAgent: 'cpk/test',
    transport: async () => transport,
    debug: (line) => debug.push(line),
    signal: options.signal,
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => 0.5,
  });
  return { client, sent, waits, debug };
}

async function failure(promise: Promise<unknown>): Promise<CpkError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof CpkError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

describe('retries', () => {
  it('GET: 503, 503, 200 succeeds on the third attempt after two backoff waits', async () => {
    const { client, sent, waits } = scripted([
      json(503, { error: 'busy' }),
      json(503, { error: 'busy' }),
      json(200, { id: 'm' }),
    ]);
    const res = await client.request({ method: 'GET', segments: ['monitors', 'm'] });
    expect(res.body).toEqual({ id: 'm' });
    expect(sent).toHaveLength(3);
    expect(waits).toEqual([backoffMs(1, () => 0.5), backoffMs(2, () => 0.5)]);
  });

  it.each([408, 429, 500, 502, 503, 504])('GET is retried on %i', async (status) => {
    const { client, sent } = scripted([json(status, { error: 'x' }), json(200, {})]);
    await client.request({ method: 'GET', segments: ['x'] });
    expect(sent).toHaveLength(2);
  });

  it.each([400, 401, 403, 404, 409, 422, 501, 505])('GET is not retried on %i', async (status) => {
    const { client, sent } = scripted([json(status, { error: 'x' })]);
    await failure(client.request({ method: 'GET', segments: ['x'] }));
    expect(sent).toHaveLength(1);
  });

  it.each(['connect', 'proxy', 'timeout', 'reset', 'incomplete'] as const)(
    'GET and DELETE are retried after a %s failure',
    async (kind) => {
      for (const method of ['GET', 'DELETE']) {
        const { client, sent } = scripted([fail(kind), json(200, {})]);
        await client.request({ method, segments: ['x'] });
        expect(sent, method).toHaveLength(2);
      }
    },
  );

  it.each(['tls', 'too-large'] as const)('a %s failure is final, even for GET', async (kind) => {
    const { client, sent } = scripted([
      fail(kind, { status: 200, headers: { 'content-type': 'application/json' }, receivedBytes: 9 }),
    ]);
    const error = await failure(client.request({ method: 'GET', segments: ['x'] }));
    expect(sent).toHaveLength(1);
    expect(error.exitCode).toBe(kind === 'tls' ? 3 : 1);
  });

  it.each(['connect', 'proxy'] as const)('POST and PATCH are retried when nothing was sent (%s)', async (kind) => {
    for (const method of ['POST', 'PATCH']) {
      const { client, sent } = scripted([fail(kind), fail(kind), json(201, { id: 'm', status: 'pending' })]);
      await client.request({ method, segments: ['monitors'], body: { name: 'x' } });
      expect(sent, method).toHaveLength(3);
    }
  });

  it.each(['timeout', 'reset', 'incomplete'] as const)(
    'POST and PATCH are never retried once sent (%s)',
    async (kind) => {
      for (const method of ['POST', 'PATCH']) {
        const { client, sent } = scripted([fail(kind), json(201, {})]);
        const error = await failure(client.request({ method, segments: ['monitors'], body: { name: 'x' } }));
        expect(sent, method).toHaveLength(1);
        expect(error.message + (error.hint ?? ''), method).toContain(`${method} is not retried automatically`);
      }
    },
  );

  it.each([429, 500, 502, 503, 504])(
    "POST answered %i is not retried, and reported in the server's words",
    async (status) => {
      const { client, sent } = scripted([json(status, { error: 'overloaded' }), json(201, {})]);
      const error = await failure(client.request({ method: 'POST', segments: ['monitors'], body: { name: 'x' } }));
      expect(sent).toHaveLength(1);
      expect(error.exitCode).toBe(1);
      expect(error.message).toBe('overloaded');
      expect(error.hint).toBeUndefined();
    },
  );

  it('the attempts option bounds the tries (1 = no retry, 5 = four retries)', async () => {
    const one = scripted([json(503, {}), json(200, {})], { attempts: 1 });
    await failure(one.client.request({ method: 'GET', segments: ['x'] }));
    expect(one.sent).toHaveLength(1);
    const five = scripted(
      Array.from({ length: 6 }, () => json(503, {})),
      { attempts: 5 },
    );
    await failure(five.client.request({ method: 'GET', segments: ['x'] }));
    expect(five.sent).toHaveLength(5);
    expect(five.waits).toHaveLength(4);
  });

  it('honours Retry-After in seconds and as an HTTP date', async () => {
    const date = new Date(Date.now() + 20_000).toUTCString();
    const { client, waits } = scripted([
      json(429, {}, { 'retry-after': '3' }),
      json(503, {}, { 'retry-after': date }),
      json(200, {}),
    ]);
    await client.request({ method: 'GET', segments: ['x'] });
    expect(waits[0]).toBe(3000);
    expect(waits[1]).toBeGreaterThan(17_000);
    expect(waits[1]).toBeLessThanOrEqual(20_000);
  });

  it('a Retry-After over 30 s ends at once with exit 1, saying when to retry', async () => {
    const { client, sent, waits } = scripted([
      json(429, { error: 'slow down' }, { 'retry-after': '120' }),
      json(200, {}),
    ]);
    const error = await failure(client.request({ method: 'GET', segments: ['x'] }));
    expect(sent).toHaveLength(1);
    expect(waits).toEqual([]);
    expect(error.exitCode).toBe(1);
    expect(error.message).toMatch(
      /^slow down; the server asks to retry after 120s \(at \d{4}-\d\d-\d\dT[\d:.]+Z\), longer than cpk waits \(30s\): try again then$/,
    );
  });

  it('the last 429 names the Retry-After and exits 1, not 7', async () => {
    const { client } = scripted([json(429, { error: 'slow down' }, { 'retry-after': '1' })], { attempts: 1 });
    const error = await failure(client.request({ method: 'GET', segments: ['x'] }));
    expect(error.exitCode).toBe(1);
    expect(error.message).toMatch(/^slow down; the server asks to retry after 1s/);
  });
});

describe('responses', () => {
  it('a redirect is not followed: one request, the absolute target named, exit 1', async () => {
    const { client, sent } = scripted([
      { status: 307, headers: { location: 'https://elsewhere.example:8443/v1/x' }, body: Buffer.alloc(0) },
      json(200, {}),
    ]);
    const error = await failure(client.request({ method: 'GET', segments: ['x'] }));
    expect(sent).toHaveLength(1);
    expect(error.exitCode).toBe(1);
    expect(error.message).toBe(
      'the server redirected GET https://api.example.com/v1/x (307) to https://elsewhere.example:8443/v1/x, another origin; cpk does not follow redirects and sent nothing there: check the base URL',
    );
  });

  it('a same-origin relative redirect is not followed either, and is named absolute', async () => {
    const { client, sent } = scripted([{ status: 308, headers: { location: '/v2/x' }, body: Buffer.alloc(0) }]);
    const error = await failure(client.request({ method: 'GET', segments: ['x'] }));
    expect(sent).toHaveLength(1);
    expect(error.message).toContain('(308) to https://api.example.com/v2/x; cpk does not follow');
  });

  it('a truncated body names status, content type and bytes received, exit 1', async () => {
    const partial = { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, receivedBytes: 19 };
    const { client } = scripted([fail('incomplete', partial)], { attempts: 1 });
    const error = await failure(client.request({ method: 'GET', segments: ['x'] }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.exitCode).toBe(1);
    expect(error.message).toBe(
      'the response to GET https://api.example.com/v1/x was cut short (status 200, application/json, 19 bytes received)',
    );
  });

  it('a body that stalls past the timeout is exit 3, naming what arrived', async () => {
    const partial = { status: 200, headers: { 'content-type': 'application/json' }, receivedBytes: 19 };
    const { client } = scripted([fail('timeout', partial)], { attempts: 1 });
    const error = await failure(client.request({ method: 'GET', segments: ['x'] }));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toBe(
      'GET https://api.example.com/v1/x timed out after 1s (status 200, application/json arrived, then the body stalled)',
    );
  });

  it('a timeout after several attempts says how many, and how long they took in all', async () => {
    const { client, sent } = scripted([fail('timeout'), fail('timeout'), fail('timeout')], { attempts: 3 });
    const error = await failure(client.request({ method: 'GET', segments: ['x'] }));
    expect(sent).toHaveLength(3);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toMatch(
      /^GET https:\/\/api\.example\.com\/v1\/x timed out after 1s on each of 3 attempts \(\d+\.\ds in all\)$/,
    );
  });

  it('a body over the limit names status and content type, exit 1', async () => {
    const { client } = scripted([
      fail('too-large', { status: 200, headers: { 'content-type': 'text/plain' }, receivedBytes: 0 }),
    ]);
    const error = await failure(client.request({ method: 'GET', segments: ['x'] }));
    expect(error.exitCode).toBe(1);
    expect(error.message).toBe(
      'the response to GET https://api.example.com/v1/x (status 200, text/plain) is larger than 32 MiB, more than cpk accepts',
    );
  });

  it('a connection failure through a proxy points at the proxy', async () => {
    const { client } = scripted([fail('connect')], { attempts: 1, proxy: 'HTTPS_PROXY=http://proxy.internal:3128' });
    const error = await failure(client.request({ method: 'GET', segments: ['x'] }));
    expect(error.exitCode).toBe(3);
    expect(error.hint).toBe(
      'a proxy is set (HTTPS_PROXY=http://proxy.internal:3128): check it, or list the host in NO_PROXY',
    );
  });

  it('an error body with a __proto__ key neither pollutes nor supplies the message', async () => {
    const body = Buffer.from('{"__proto__":{"error":"from the prototype","polluted":true}}');
    const { client } = scripted([{ status: 400, headers: { 'content-type': 'application/json' }, body }]);
    const error = await failure(client.request({ method: 'GET', segments: ['x'] }));
    expect(error.message).toBe('the server answered 400 with application/json to GET https://api.example.com/v1/x');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('--debug trace and interruption', () => {
  it('shows each attempt and wait, never the token', async () => {
    const { client, debug } = scripted([json(503, {}), json(200, {})]);
    await client.request({ method: 'GET', segments: ['x'] });
    const text = debug.join('\n');
    expect(debug).toContain('> GET https://api.example.com/v1/x (attempt 1/3)');
    expect(debug).toContain('> GET https://api.example.com/v1/x (attempt 2/3)');
    expect(debug).toContain(`  waiting ${backoffMs(1, () => 0.5)}ms before attempt 2`);
    expect(debug).toContain('> authorization: Bearer [REDACTED]');
    expect(text).not.toContain(TOKEN);
  });

  it('an aborted signal ends with InterruptedError, not a retry', async () => {
    const controller = new AbortController();
    const { client, sent } = scripted([fail('aborted'), json(200, {})], { signal: controller.signal });
    // Aborted once the attempt has started: the transport reports it.
    const pending = client.request({ method: 'GET', segments: ['x'] });
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(InterruptedError);
    expect(sent).toHaveLength(1);
  });

  it('a signal aborted before the request: InterruptedError, and nothing is sent', async () => {
    const controller = new AbortController();
    const { client, sent } = scripted([json(200, {})], { signal: controller.signal });
    controller.abort();
    await expect(client.request({ method: 'GET', segments: ['x'] })).rejects.toBeInstanceOf(InterruptedError);
    expect(sent).toHaveLength(0);
  });

  it('defaultSleep waits at least the time asked, and stops on abort', async () => {
    const started = performance.now();
    await defaultSleep(30);
    expect(performance.now() - started).toBeGreaterThanOrEqual(30);
    const controller = new AbortController();
    const pending = defaultSleep(60_000, controller.signal);
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(InterruptedError);
  });
});

describe('policy numbers', () => {
  it('property: backoff is full jitter between 0 and min(5 s, 250 ms x 2^(n-1))', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, r) => {
          const ms = backoffMs(attempt, () => r);
          expect(ms).toBeGreaterThanOrEqual(0);
          expect(ms).toBeLessThan(Math.max(1, Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1))));
        },
      ),
    );
  });

  it('Retry-After: delta-seconds, HTTP dates, and nothing else', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Tue, 01 Jan 2030 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Mon, 31 Dec 2029 23:00:00 GMT', now)).toBe(0);
    for (const bad of ['1.5', '-1', 'soon', 'tomorrow', '', '2 s'])
      expect(parseRetryAfter(bad, now), bad).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it('--retries N counts retries; CPK_MAX_ATTEMPTS counts attempts; the flag wins', () => {
    expect(resolveAttempts(undefined, {})).toBe(3);
    expect(resolveAttempts(undefined, { CPK_MAX_ATTEMPTS: '' })).toBe(3);
    expect(resolveAttempts(0, {})).toBe(1);
    expect(resolveAttempts(4, { CPK_MAX_ATTEMPTS: '2' })).toBe(5);
    expect(resolveAttempts(undefined, { CPK_MAX_ATTEMPTS: '1' })).toBe(1);
    expect(resolveAttempts(undefined, { CPK_MAX_ATTEMPTS: '11' })).toBe(11);
    expect(parseRetriesFlag('0')).toBe(0);
    expect(parseRetriesFlag('10')).toBe(10);
    expect(parseGlobals({ retries: '2' }).retries).toBe(2);
    expect(parseGlobals({}).retries).toBeUndefined();
  });

  it.each(['-1', '11', '1.5', 'two', '', ' ', '1e1', '0x3'])('--retries %j is a usage error', (value) => {
    expect(() => parseRetriesFlag(value)).toThrow(
      /^invalid --retries ".*": expected a whole number of retries from 0 to 10$/,
    );
  });

  it.each(['0', '12', '-3', '2.5', 'lots'])('CPK_MAX_ATTEMPTS=%j is a usage error', (value) => {
    expect(() => resolveAttempts(undefined, { CPK_MAX_ATTEMPTS: value })).toThrow(/^invalid CPK_MAX_ATTEMPTS/);
  });

  it.each(['0', '-1', 'x', '86401', '1e10', '1m1m', '1h30m30m', '5s5s', '', '2.5m', '0x10', '1d1s'])(
    '--timeout %j is a usage error',
    (value) => {
      expect(() => parseGlobals({ timeout: value })).toThrow(/^invalid --timeout/);
    },
  );

  it('--timeout, --max-time and CPK_MAX_TIME read the one duration syntax, a repeated unit refused', () => {
    expect(() => parseGlobals({ timeout: '1m1m' })).toThrow(/^invalid --timeout "1m1m": unit "m" given twice$/);
    expect(() => parseGlobals({ maxTime: '1m1m' })).toThrow(/^invalid --max-time "1m1m": unit "m" given twice$/);
    expect(() => parseMaxTime({ CPK_MAX_TIME: '2s2s' })).toThrow(/^invalid CPK_MAX_TIME "2s2s": unit "s" given twice$/);
    const cases: Array<[string, number]> = [
      ['30', 30],
      ['2.5', 2.5],
      ['.5', 0.5],
      ['90s', 90],
      ['5m', 300],
      ['1h30m', 5400],
      ['1d', 86400],
      [' 20 ', 20],
    ];
    for (const [text, seconds] of cases) {
      expect(parseGlobals({ timeout: text }).timeoutSeconds, text).toBe(seconds);
      expect(parseGlobals({ maxTime: text }).maxTimeSeconds, text).toBe(seconds);
    }
  });
});
