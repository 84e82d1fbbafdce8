// A service that echoes the token it was sent in its 401, 403 and 500 error
// messages: `auth status` never prints the token in use, in its table or in
// --json's check field, whatever the token's shape; `cpk auth token` alone
// prints it, on purpose. Error messages are built above the transport, so
// this runs once; test/e2e/token-echo.test.ts has the 2xx bodies, headers and
// the proxy on both transports.
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCpk } from '../helpers/in-process.js';
import { expectNoToken, portOf, startEchoService, TOKENS } from '../helpers/echo.js';

let service: Server;
let baseUrl: string;

beforeAll(async () => {
  service = await startEchoService();
  baseUrl = `http://127.0.0.1:${portOf(service)}`;
});
afterAll(() => new Promise((resolve) => service.close(resolve)));

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
          runCpk(['auth', 'status'], { env }),
          runCpk(['auth', 'status', '--json'], { env }),
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
  }

  it('cpk auth token still prints it: the one exemption', async () => {
    const r = await runCpk(['auth', 'token'], { env: { CPK_BASE_URL: `${baseUrl}/v1`, CPK_TOKEN: TOKENS[2] } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${TOKENS[2]}\n`);
  });
});
