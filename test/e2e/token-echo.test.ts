// A service that echoes the token it was sent, and a proxy that echoes its
// credentials: the token in use never leaves cpk, on stdout or stderr,
// whatever the command (`cpk auth token` alone prints it, on purpose). In
// error messages (401, 403, 500) shown by `auth status` in its table and in
// --json's check field, in a 2xx body (`monitors get --json`, `cpk api -i`),
// and in --debug traces through a proxy that echoes Proxy-Authorization.
// Runs on both transports.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';

/** Tokens of several shapes: a cpk token, a short one, one with punctuation a JSON string escapes. */
const TOKENS = ['cpk_echoedTokenValue_1234', 'cpk_sh0rt', 'cpk_q"u\\ote!tok'];

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  const server = createServer(handler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function portOf(server: Server): number {
  return (server.address() as AddressInfo).port;
}

/** The token a request carried (after "Bearer "). */
function tokenOf(req: IncomingMessage): string {
  return (req.headers.authorization ?? '').replace(/^Bearer\s+/, '');
}

let service: Server;
let proxy: Server;
let baseUrl: string;
/** The Proxy-Authorization values the proxy received. */
const proxySaw: string[] = [];

beforeAll(async () => {
  service = await listen((req, res) => {
    const token = tokenOf(req);
    const url = req.url ?? '';
    // The base URL's last segment picks the probe's answer: /s401/v1, /s403/v1, /s500/v1.
    const status = Number(/^\/s(\d{3})\//.exec(url)?.[1] ?? 200);
    const echo = { 'x-echoed-token': token, 'x-echoed-authorization': req.headers.authorization ?? '' };
    if (url.includes('/monitors/cpk-auth-probe') && status !== 200) {
      res.writeHead(status, { 'content-type': 'application/json', ...echo });
      res.end(JSON.stringify({ error: `token ${token} is not valid here (Bearer ${token})`, request_id: 'req_1' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', ...echo });
    res.end(
      JSON.stringify({
        id: 'mon_1',
        name: 'echo',
        description: `created with ${token}`,
        note: `Authorization: Bearer ${token}`,
        kept: 'cpk_monitor_named_like_a_token',
      }),
    );
  });
  // A forward proxy for plain-http targets that answers itself and echoes what it was sent.
  proxy = await listen((req, res) => {
    const seen = req.headers['proxy-authorization'] ?? '';
    proxySaw.push(seen);
    res.writeHead(200, {
      'content-type': 'application/json',
      'x-proxy-echo': seen,
      'x-echo-proxy-authorization': seen,
      'x-echo-authorization': req.headers.authorization ?? '',
    });
    res.end(JSON.stringify({ id: 'mon_1', proxy_saw: seen, service_token: tokenOf(req) }));
  });
  baseUrl = `http://127.0.0.1:${portOf(service)}`;
});
afterAll(async () => {
  await Promise.all([service, proxy].map((s) => new Promise((resolve) => s.close(resolve))));
});

function expectNoToken(r: CliResult, token: string) {
  const both = r.stdout + r.stderr;
  expect(both).not.toContain(token);
  // As a JSON string holds it (a quote or a backslash escaped).
  expect(both).not.toContain(JSON.stringify(token).slice(1, -1));
}

describe.concurrent('a token the service echoes is never printed', () => {
  for (const token of TOKENS) {
    for (const [status, code] of [
      [401, 4],
      [403, 5],
      [500, 1],
    ] as const) {
      it(`auth status, ${status} echoing ${token}: table and --json`, async () => {
        const env = { CPK_BASE_URL: `${baseUrl}/s${status}/v1`, CPK_TOKEN: token, CPK_MAX_ATTEMPTS: '1' };
        const [table, json] = await Promise.all([
          runCli(['auth', 'status'], { env }),
          runCli(['auth', 'status', '--json'], { env }),
        ]);
        for (const r of [table, json]) {
          expect(r.code).toBe(code);
          expectNoToken(r, token);
        }
        expect(table.stdout).toContain('[REDACTED]');
        const report = JSON.parse(json.stdout);
        expect(report.check).toContain('[REDACTED]');
        expect(report.check).not.toContain(token);
      });
    }

    it(`a 2xx body echoing ${token}: monitors get --json (valid JSON) and api -i`, async () => {
      const env = { CPK_BASE_URL: `${baseUrl}/v1`, CPK_TOKEN: token };
      const [get, api] = await Promise.all([
        runCli(['monitors', 'get', 'mon_1', '--json'], { env }),
        runCli(['api', '-i', 'GET', '/monitors/mon_1'], { env }),
      ]);
      for (const r of [get, api]) {
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
        expectNoToken(r, token);
      }
      const body = JSON.parse(get.stdout);
      expect(body.description).toBe('created with cpk_[REDACTED]');
      expect(body.note).toBe('Authorization: Bearer cpk_[REDACTED]');
      // Data shaped like a token but not the one in use is data: left alone.
      expect(body.kept).toBe('cpk_monitor_named_like_a_token');
      expect(api.stdout).toContain('x-echoed-token: cpk_[REDACTED]\n');
    });
  }

  it('cpk auth token still prints it: the one exemption', async () => {
    const r = await runCli(['auth', 'token'], { env: { CPK_BASE_URL: `${baseUrl}/v1`, CPK_TOKEN: TOKENS[2] } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${TOKENS[2]}\n`);
  });

  it('--debug through a proxy echoing Proxy-Authorization: no credential of the proxy or the service', async () => {
    const token = TOKENS[0]!;
    const password = 'hunter2-proxy-pass';
    const basic = Buffer.from(`bob:${password}`).toString('base64');
    const r = await runCli(['monitors', 'get', 'mon_1', '--debug', '--json'], {
      env: {
        // A closed port: the proxy answers for it (NO_PROXY is empty, so loopback goes through the proxy too).
        CPK_BASE_URL: 'http://127.0.0.1:9/v1',
        CPK_TOKEN: token,
        HTTP_PROXY: `http://bob:${password}@127.0.0.1:${portOf(proxy)}`,
      },
    });
    expect(r.code).toBe(0);
    // The proxy did receive the credentials (else the test proves nothing).
    expect(proxySaw).toContain(`Basic ${basic}`);
    for (const secret of [token, password, basic]) expect(r.stderr).not.toContain(secret);
    // The Basic value is never data: masked on stdout too, and the JSON stays valid.
    expect(JSON.parse(r.stdout)).toEqual({
      id: 'mon_1',
      proxy_saw: 'Basic [REDACTED]',
      service_token: 'cpk_[REDACTED]',
    });
    expectNoToken(r, token);
    expect(r.stderr).toContain('x-echo-proxy-authorization: Basic [REDACTED]');
    expect(r.stderr).toContain('x-proxy-echo: Basic [REDACTED]');
  });
});
