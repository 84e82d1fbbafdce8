// Rules that live in the API and HTTP layers, once: a NetworkError
// says whether the request may have reached the server; Api keeps its HTTP
// client to itself; a channel update answered {"ok": false} is judged by
// Api.updateChannel, for the command, apply and the programmatic client alike.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api } from '../../src/core/api/client.js';
import { HttpClient } from '../../src/core/http/client.js';
import { TransportError, type Transport, type TransportResponse } from '../../src/core/http/transport.js';
import { ApiError, NetworkError } from '../../src/core/errors.js';
import { createClient } from '../../src/index.js';
import { run as updateChannel } from '../../src/commands/channels/update.js';
import { fakeContext, fakeIO } from '../helpers/fake-io.js';

function clientAnswering(steps: Array<TransportResponse | TransportError>): HttpClient {
  const transport: Transport = {
    async send() {
      const step = steps.shift();
      if (!step) throw new Error('no more scripted steps');
      if (step instanceof TransportError) throw step;
      return step;
    },
    async close() {},
  };
  return new HttpClient({
    baseUrl: 'https://api.example.com/v1',
    token: 'cpk_unit_secret_token_value',
    timeoutMs: 1000,
    attempts: 1,
    userAgent: 'cpk/test',
    transport: async () => transport,
  });
}

const okFalse = (): TransportResponse => ({
  status: 200,
  headers: { 'content-type': 'application/json', 'x-request-id': 'req_1' },
  body: Buffer.from('{"ok": false}'),
});

describe('NetworkError.mayHaveReachedServer', () => {
  it.each([
    ['connect', false],
    ['proxy', false],
    ['tls', false],
    ['timeout', true],
    ['reset', true],
  ] as const)('a POST failing with %s: %s', async (kind, expected) => {
    const http = clientAnswering([new TransportError(kind, `simulated ${kind}`, undefined)]);
    const error = await http.request({ method: 'POST', segments: ['monitors'], body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).mayHaveReachedServer).toBe(expected);
  });

  it('is true (the safe answer) when nothing says otherwise', () => {
    expect(new NetworkError('x').mayHaveReachedServer).toBe(true);
  });
});

describe('Api', () => {
  it('does not expose its HTTP client', () => {
    const api = new Api(clientAnswering([]));
    expect('http' in api).toBe(false);
    expect(Object.keys(api)).not.toContain('http');
    expect(api.baseUrl).toBe('https://api.example.com/v1');
    const client = createClient({ baseUrl: 'https://api.example.com', token: 'cpk_unit_secret_token_value', env: {} });
    expect('http' in client).toBe(false);
  });

  it('updateChannel: {"ok": false} is an ApiError, exit 1, naming the request', async () => {
    const api = new Api(clientAnswering([okFalse()]));
    const error = await api.updateChannel('ch_ops', { enabled: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      message: 'the server did not confirm the update of channel ch_ops (ok: false)',
      exitCode: 1,
      status: 200,
      method: 'PATCH',
      url: 'https://api.example.com/v1/channels/ch_ops',
      requestId: 'req_1',
    });
  });
});

describe('channels update answered {"ok": false}', () => {
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok": false}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('the command fails with the API layer error and prints nothing on stdout', async () => {
    const io = fakeIO({ env: { CPK_BASE_URL: baseUrl, CPK_TOKEN: 'cpk_unit_secret_token_value' } });
    const ctx = fakeContext(io, { json: true });
    const error = await updateChannel({ id: 'ch_ops', changes: { enabled: false }, dryRun: false }, ctx).catch(
      (e: unknown) => e,
    );
    await ctx.close();
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('the server did not confirm the update of channel ch_ops (ok: false)');
    expect((error as ApiError).exitCode).toBe(1);
    expect(io.out).toBe('');
  });
});
