// The undici transport against small loopback servers: one timer bounds the
// whole attempt (headers and body), the body limit holds with or without a
// Content-Length, and proxy settings come from the IO's env.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { createUndiciTransport } from '../../src/core/http/undici-transport.js';
import { createNodeTransport } from '../../src/core/http/node-transport.js';
import { chooseTransport } from '../../src/core/http/select.js';
import { proxiedFor, proxySettings } from '../../src/core/http/proxy.js';
import { classify, runAttempt, TransportError } from '../../src/core/http/transport.js';

type Handler = (res: ServerResponse) => void;
const handlers = new Map<string, Handler>();
let server: Server;
let base: string;
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((req, res) => handlers.get(req.url ?? '')?.(res));
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  handlers.set('/stall', (res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    res.write('{"partial":'); // and nothing more
  });
  handlers.set('/drip', (res) => {
    // A byte every 50 ms: each chunk resets an idle timer, never the whole-attempt one.
    res.writeHead(200, { 'content-type': 'application/json' });
    const timer = setInterval(() => res.write(' '), 50);
    res.once('close', () => clearInterval(timer));
  });
  handlers.set('/chunked-big', (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(Buffer.alloc(4096, 0x20));
  });
  handlers.set('/declared-big', (res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '4096' });
    res.write('x'); // the declared length alone is enough to refuse it
  });
  handlers.set('/proto-header', (res) => {
    res.setHeader('__proto__', 'from the server');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
  handlers.set('/ok', (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function send(path: string, options: { timeoutMs?: number; maxBodyBytes?: number; signal?: AbortSignal } = {}) {
  const transport = createUndiciTransport(undefined, options.timeoutMs ?? 2000);
  try {
    return await transport.send({
      method: 'GET',
      url: base + path,
      headers: {},
      timeoutMs: options.timeoutMs ?? 2000,
      maxBodyBytes: options.maxBodyBytes ?? 1024,
      signal: options.signal,
    });
  } finally {
    await transport.close();
  }
}

async function failureOf(promise: Promise<unknown>): Promise<TransportError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof TransportError) return error;
    throw error;
  }
  throw new Error('expected a TransportError');
}

describe('undici transport', () => {
  it('reads a normal answer', async () => {
    const res = await send('/ok');
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('{"ok":true}');
  });

  it('a response header named __proto__ is kept as a header, never a prototype', async () => {
    const res = await send('/proto-header');
    expect(Object.getOwnPropertyDescriptor(res.headers, '__proto__')?.value).toBe('from the server');
    expect(Object.getPrototypeOf(res.headers)).toBe(Object.prototype);
  });

  it('a body that stalls mid-way ends as a timeout, keeping the status that arrived', async () => {
    const error = await failureOf(send('/stall', { timeoutMs: 200 }));
    expect(error.kind).toBe('timeout');
    expect(error.response).toEqual({
      status: 200,
      headers: expect.objectContaining({ 'content-type': 'application/json' }),
      receivedBytes: 11,
    });
  });

  it('a body that keeps dripping cannot stretch the attempt past its timeout', async () => {
    const error = await failureOf(send('/drip', { timeoutMs: 300, maxBodyBytes: 1 << 20 }));
    expect(error.kind).toBe('timeout');
    expect(error.response?.receivedBytes).toBeGreaterThan(0);
  });

  it('a body over the limit without Content-Length is refused while streaming', async () => {
    const error = await failureOf(send('/chunked-big', { maxBodyBytes: 1024 }));
    expect(error.kind).toBe('too-large');
    expect(error.response?.status).toBe(200);
  });

  it('a declared Content-Length over the limit is refused before reading', async () => {
    const error = await failureOf(send('/declared-big', { maxBodyBytes: 1024 }));
    expect(error.kind).toBe('too-large');
    expect(error.response?.headers['content-type']).toBe('text/plain');
  });

  it('the caller\'s abort is "aborted", not a timeout', async () => {
    const controller = new AbortController();
    const pending = failureOf(send('/stall', { timeoutMs: 10_000, signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    expect((await pending).kind).toBe('aborted');
  });
});

describe('a signal aborted before the send', () => {
  it.each([
    ['node:http', createNodeTransport],
    ['undici', () => createUndiciTransport(undefined, 2000)],
  ])('%s: fails as "aborted" with no stray error event, and sends nothing', async (_name, make) => {
    let arrived = 0;
    handlers.set('/count', (res) => {
      arrived++;
      res.end('{}');
    });
    const transport = make();
    const controller = new AbortController();
    controller.abort();
    try {
      const error = await failureOf(
        transport.send({
          method: 'GET',
          url: `${base}/count`,
          headers: {},
          timeoutMs: 2000,
          maxBodyBytes: 1024,
          signal: controller.signal,
        }),
      );
      expect(error.kind).toBe('aborted');
      // A request that had left would be answered before this later one.
      await send('/ok');
    } finally {
      await transport.close();
    }
    expect(arrived).toBe(0);
  });
});

describe('proxiedFor and the lazy proxy', () => {
  const env = { HTTPS_PROXY: 'http://proxy:3128', NO_PROXY: 'example.com, 127.0.0.1:4010,*.corp' };
  it.each([
    ['https://api.example.com/v1', false],
    ['https://example.com/v1', false],
    ['https://notexample.com/v1', true],
    ['http://127.0.0.1:4010/v1', false],
    ['http://127.0.0.1:4011/v1', false],
    ['https://127.0.0.1:4010/v1', false],
    ['https://127.0.0.1:443/v1', true],
    ['https://a.corp/v1', false],
  ])('%s proxied: %s', (url, proxied) => {
    // http://127.0.0.1:4011: no HTTP_PROXY, so no proxy for http:// at all.
    expect(proxiedFor(env, url)).toBe(proxied);
  });

  it('a bypassed host keeps the transport it would have without a proxy', () => {
    expect(chooseTransport(env, false, 'https://api.example.com/v1')).toBe('node');
    expect(chooseTransport(env, false, 'https://other.example.org/v1')).toBe('undici');
    expect(proxiedFor({ HTTP_PROXY: 'http://p:1', NO_PROXY: '*' }, 'http://x/v1')).toBe(false);
  });
});

describe('proxySettings', () => {
  it('is undefined without a proxy variable', () => {
    expect(proxySettings({ NO_PROXY: 'x' })).toBeUndefined();
  });

  it('reads lower case first, as undici and curl do, and passes NO_PROXY through', () => {
    expect(proxySettings({ http_proxy: 'http://low:1', HTTP_PROXY: 'http://up:2', NO_PROXY: '127.0.0.1' })).toEqual({
      httpProxy: 'http://low:1',
      httpsProxy: '',
      noProxy: '127.0.0.1',
    });
    expect(proxySettings({ HTTPS_PROXY: 'http://p:3', no_proxy: 'a', NO_PROXY: 'b' })).toEqual({
      httpProxy: '',
      httpsProxy: 'http://p:3',
      noProxy: 'a',
    });
  });

  it('names the proxy without its credentials', () => {
    const transport = createUndiciTransport(
      proxySettings({ HTTPS_PROXY: 'http://user:s3cret@proxy.internal:3128' }),
      2000,
    );
    expect(transport.proxy).toBe('HTTPS_PROXY=http://proxy.internal:3128');
    void transport.close();
  });
});

describe('classify', () => {
  it.each([
    ['ECONNREFUSED', 'connect', 'connect'],
    ['ENOTFOUND', 'connect', 'connect'],
    ['UND_ERR_CONNECT_TIMEOUT', 'connect', 'connect'],
    ['ECONNRESET', 'connect', 'connect'],
    ['ETIMEDOUT', 'connect', 'connect'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'connect', 'tls'],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'request', 'tls'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'request', 'tls'],
    ['CERT_HAS_EXPIRED', 'request', 'tls'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'request', 'tls'],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'request', 'tls'],
    ['UND_ERR_HEADERS_TIMEOUT', 'request', 'timeout'],
    ['ECONNRESET', 'request', 'reset'],
    ['UND_ERR_SOCKET', 'body', 'incomplete'],
  ] as const)('%s during %s is %s', (code, phase, kind) => {
    expect(classify(Object.assign(new Error('x'), { code }), phase).kind).toBe(kind);
  });

  it("undici's connect timeout is the attempt's own: not connected within --timeout, retried as such", async () => {
    // The connector and the attempt share one bound; under load either timer may fire first.
    const request = {
      method: 'POST',
      url: 'https://127.0.0.1:9/v1/monitors',
      headers: {},
      timeoutMs: 1000,
      maxBodyBytes: 1024,
    } as unknown as Parameters<typeof runAttempt>[0];
    const failure = await runAttempt(request, (attempt) => {
      attempt.fail(Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' }));
      return () => {};
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
    expect(failure).toMatchObject({ kind: 'connect', code: 'CONNECT_TIMEOUT', message: 'not connected within 1s' });
  });

  it('a proxy refusing the tunnel is "proxy", with its status', () => {
    const failure = classify(
      Object.assign(new Error('Proxy response (407) !== 200 when HTTP Tunneling'), { code: 'UND_ERR_ABORTED' }),
      'request',
    );
    expect(failure.kind).toBe('proxy');
    expect(failure.message).toBe('the proxy answered 407 to the tunnel request');
  });
});
