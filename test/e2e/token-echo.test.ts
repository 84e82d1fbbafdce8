// A service that echoes the token it was sent in 2xx bodies and headers, and
// a proxy that echoes its credentials: the token in use never leaves cpk, on
// stdout or stderr, in a 2xx body (`monitors get --json`, `cpk api -i`) and
// in --debug traces through a proxy that echoes Proxy-Authorization. Runs on
// both transports, which read the bodies and headers and speak to the proxy;
// the error messages of `auth status` and `cpk auth token`'s exemption are
// test/cli/token-echo.test.ts's.
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCpk } from '../helpers/in-process.js';
import { expectNoToken, listen, portOf, startEchoService, tokenOf, TOKENS } from '../helpers/echo.js';
import { onEachTransport } from '../helpers/transports.js';

onEachTransport(() => {
  let service: Server;
  let proxy: Server;
  let baseUrl: string;
  /** The Proxy-Authorization values the proxy received. */
  const proxySaw: string[] = [];

  beforeAll(async () => {
    service = await startEchoService();
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

  describe.concurrent('a token the service echoes is never printed', () => {
    for (const token of TOKENS) {
      it(`a 2xx body echoing ${token}: monitors get --json (valid JSON) and api -i`, async () => {
        const env = { CPK_BASE_URL: `${baseUrl}/v1`, CPK_TOKEN: token };
        const [get, api] = await Promise.all([
          runCpk(['monitors', 'get', 'mon_1', '--json'], { env }),
          runCpk(['api', '-i', 'GET', '/monitors/mon_1'], { env }),
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

    it('--debug through a proxy echoing Proxy-Authorization: no credential of the proxy or the service', async () => {
      const token = TOKENS[0]!;
      const password = 'hunter2-proxy-pass';
      const basic = Buffer.from(`bob:${password}`).toString('base64');
      const r = await runCpk(['monitors', 'get', 'mon_1', '--debug', '--json'], {
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
});
