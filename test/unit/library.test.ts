// The programmatic entry (src/index.ts, README "From JavaScript"): createClient
// against the in-process emulator. The installed package's import is checked
// by test/release/package.test.ts.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthError,
  createClient,
  DEFAULT_BASE_URL,
  ExitCode,
  InterruptedError,
  NetworkError,
  UsageError,
  type Client,
} from '../../src/index.js';
import { startEmulator, type Emulator } from '../../src/emulator/server.js';

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(() => emu.close());

/** Requests that reached the emulator while `body` ran. */
async function sent<T>(
  body: () => Promise<T>,
): Promise<{ result: PromiseSettledResult<T>; requests: Emulator['requests'] }> {
  const start = emu.requests.length;
  const [result] = await Promise.allSettled([body()]);
  return { result: result!, requests: emu.requests.slice(start) };
}

async function using<T>(client: Client, body: (c: Client) => Promise<T>): Promise<T> {
  try {
    return await body(client);
  } finally {
    await client.close();
  }
}

describe('createClient', () => {
  it('creates, gets, updates and deletes with the typed API', async () => {
    await using(createClient({ baseUrl: emu.baseUrl, token: emu.token, env: {} }), async (cpk) => {
      const ref = await cpk.createMonitor({ name: 'lib', target: 'https://example.com/health' });
      expect(ref).toMatchObject({ id: expect.stringMatching(/^mon_/), status: 'pending' });
      expect(await cpk.getMonitor(ref.id)).toMatchObject({ id: ref.id, name: 'lib' });
      expect(await cpk.updateMonitor(ref.id, { name: 'lib 2' })).toMatchObject({ id: ref.id });
      expect(await cpk.deleteMonitor(ref.id)).toEqual({ body: undefined, status: 204 });
      expect(await cpk.updateChannel('ch_ops', { enabled: false })).toEqual({ ok: true });
    });
  });

  it('reads CPK_BASE_URL and CPK_TOKEN from env; options win over it', async () => {
    const { result, requests } = await sent(() =>
      using(createClient({ env: { CPK_BASE_URL: emu.baseUrl, CPK_TOKEN: emu.token } }), (cpk) =>
        cpk.getReport('rpt_summary'),
      ),
    );
    expect(result.status).toBe('fulfilled');
    expect(requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${emu.token}`]);

    const wins = await sent(() =>
      using(
        createClient({ token: 'cpk_test_other', env: { CPK_BASE_URL: emu.baseUrl, CPK_TOKEN: emu.token } }),
        (cpk) => cpk.getReport('rpt_summary'),
      ),
    );
    expect(wins.requests.map((r) => r.headers.authorization)).toEqual(['Bearer cpk_test_other']);
  });

  it('never reads a profile or config file: with env {} it points at the emulator default and has no token', async () => {
    const cpk = createClient({ env: {} });
    expect(cpk.baseUrl).toBe(DEFAULT_BASE_URL);
    const { result, requests } = await sent(() => using(cpk, (c) => c.getMonitor('mon_x')));
    expect(result.status === 'rejected' && result.reason).toBeInstanceOf(AuthError);
    expect((result as PromiseRejectedResult).reason.message).toBe(
      'no token: pass { token } to createClient or set CPK_TOKEN',
    );
    expect(requests).toEqual([]);
  });

  it('the public OpenAPI document needs no token', async () => {
    const { result, requests } = await sent(() =>
      using(createClient({ baseUrl: emu.baseUrl, env: {} }), (cpk) => cpk.getOpenApi()),
    );
    expect(result.status).toBe('fulfilled');
    expect(requests).toHaveLength(1);
    expect(requests[0]!.headers.authorization).toBeUndefined();
  });

  it.each([
    [{ token: 'abc' }, AuthError, 'the token from createClient({ token }) does not start with "cpk_"; it was not sent'],
    [
      { env: { CPK_TOKEN: 'ghp_x' } },
      AuthError,
      'the token from CPK_TOKEN does not start with "cpk_"; it was not sent',
    ],
    [
      { baseUrl: 'http://api.example.com', token: 'cpk_x' },
      UsageError,
      /^refusing plain http:\/\/ for api\.example\.com \(from createClient\(\{ baseUrl \}\)\)/,
    ],
    [{ retries: 11 }, UsageError, 'invalid retries 11: expected a whole number of retries from 0 to 10'],
    [{ retries: 1.5 }, UsageError, /^invalid retries 1\.5/],
    [
      { timeoutSeconds: 0 },
      UsageError,
      'invalid timeoutSeconds 0: expected a positive number of seconds, at most 86400',
    ],
    [{ env: { CPK_MAX_ATTEMPTS: 'many' } }, UsageError, /^invalid CPK_MAX_ATTEMPTS "many"/],
    [{ env: { CPK_TRANSPORT: 'curl' } }, UsageError, 'invalid CPK_TRANSPORT "curl": expected node or undici'],
  ] as const)('refuses bad options at once: %j', (options, type, message) => {
    const attempt = () => createClient({ env: {}, ...options });
    expect(attempt).toThrow(type);
    expect(attempt).toThrow(message);
  });

  it("retries as the CLI does: two 503s, then the answer; with retries: 0 the 503 is an ApiError (the CLI's exit 1)", async () => {
    const id = (
      await using(createClient({ baseUrl: emu.baseUrl, token: emu.token, env: {} }), (c) =>
        c.createMonitor({ name: 'retry' }),
      )
    ).id;
    const path = `/v1/monitors/${id}`;
    emu.injectFault({ method: 'GET', path, status: 503, times: 2 });
    const ok = await sent(() =>
      using(createClient({ baseUrl: emu.baseUrl, token: emu.token, env: {} }), (c) => c.getMonitor(id)),
    );
    expect(ok.result.status).toBe('fulfilled');
    expect(ok.requests).toHaveLength(3);

    emu.injectFault({ method: 'GET', path, status: 503, times: 1 });
    const once = await sent(() =>
      using(createClient({ baseUrl: emu.baseUrl, token: emu.token, retries: 0, env: {} }), (c) => c.getMonitor(id)),
    );
    expect(once.requests).toHaveLength(1);
    const error = (once.result as PromiseRejectedResult).reason as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, exitCode: ExitCode.FAILURE, requestId: expect.stringMatching(/^req_/) });
  });

  it('CPK_MAX_ATTEMPTS from env sets the attempts when retries is not given', async () => {
    emu.injectFault({ method: 'GET', path: '/v1/reports/rpt_summary', status: 503, times: 2 });
    const r = await sent(() =>
      using(createClient({ baseUrl: emu.baseUrl, token: emu.token, env: { CPK_MAX_ATTEMPTS: '2' } }), (c) =>
        c.getReport('rpt_summary'),
      ),
    );
    expect(r.requests).toHaveLength(2);
    expect((r.result as PromiseRejectedResult).reason).toBeInstanceOf(ApiError);
  });

  it('errors carry the status, request id and exit code of the CLI', async () => {
    const missing = await sent(() =>
      using(createClient({ baseUrl: emu.baseUrl, token: emu.token, env: {} }), (c) => c.getMonitor('mon_nope')),
    );
    expect((missing.result as PromiseRejectedResult).reason).toMatchObject({
      name: 'ApiError',
      status: 404,
      exitCode: ExitCode.NOT_FOUND,
      requestId: expect.stringMatching(/^req_/),
      url: `${emu.baseUrl}/monitors/mon_nope`,
    });
    const refused = await sent(() =>
      using(createClient({ baseUrl: 'http://127.0.0.1:9', token: emu.token, retries: 0, env: {} }), (c) =>
        c.getMonitor('mon_x'),
      ),
    );
    expect((refused.result as PromiseRejectedResult).reason).toBeInstanceOf(NetworkError);
    expect((refused.result as PromiseRejectedResult).reason.exitCode).toBe(ExitCode.NETWORK);
  });

  it('debug receives the trace with the token redacted', async () => {
    const lines: string[] = [];
    await using(createClient({ baseUrl: emu.baseUrl, token: emu.token, debug: (l) => lines.push(l), env: {} }), (cpk) =>
      cpk.getReport('rpt_summary'),
    );
    expect(lines).toContain(`> GET ${emu.baseUrl}/reports/rpt_summary (attempt 1/3)`);
    expect(lines).toContain('> authorization: Bearer [REDACTED]');
    expect(lines.join('\n')).not.toContain(emu.token);
  });

  it('debug masks a token of any shape that a server echoes in a header, and any Authorization value', async () => {
    const token = 'cpk_sh0rt!';
    const server = createServer((req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'x-echoed': `you sent ${(req.headers.authorization ?? '').slice(7)}`,
        'x-echo-proxy-authorization': 'Basic Ym9iOmh1bnRlcjI=',
      });
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const lines: string[] = [];
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      await using(createClient({ baseUrl, token, debug: (l) => lines.push(l), env: {} }), (cpk) =>
        cpk.getReport('rpt_summary'),
      );
      expect(lines).toContain('< x-echoed: you sent cpk_[REDACTED]');
      expect(lines).toContain('< x-echo-proxy-authorization: Basic [REDACTED]');
      expect(lines.join('\n')).not.toContain(token);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('by default (node:http) reads keep their connection and a write takes one of its own; keepAlive: true keeps every connection (undici); close() releases them', async () => {
    const run = (keepAlive: boolean) =>
      sent(() =>
        using(createClient({ baseUrl: emu.baseUrl, token: emu.token, keepAlive, env: {} }), async (cpk) => {
          const ref = await cpk.createMonitor({ name: 'connections' });
          await cpk.getReport('rpt_summary');
          await cpk.deleteMonitor(ref.id);
        }),
      );
    const plain = await run(false);
    expect(plain.result.status).toBe('fulfilled');
    expect(plain.requests.map((r) => `${r.method} ${r.headers.connection}`)).toEqual([
      'POST close',
      'GET keep-alive',
      'DELETE close',
    ]);
    const pooled = await run(true);
    expect(pooled.result.status).toBe('fulfilled');
    expect(pooled.requests.map((r) => r.headers.connection === 'close')).toEqual([false, false, false]);
  });

  it.each([false, true])(
    'an aborted signal rejects with InterruptedError and sends nothing (keepAlive: %s)',
    async (keepAlive) => {
      const controller = new AbortController();
      controller.abort();
      const r = await sent(() =>
        using(
          createClient({ baseUrl: emu.baseUrl, token: emu.token, signal: controller.signal, keepAlive, env: {} }),
          (c) => c.getMonitor('mon_x'),
        ),
      );
      expect((r.result as PromiseRejectedResult).reason).toBeInstanceOf(InterruptedError);
      expect(r.requests).toEqual([]);
    },
  );
});
