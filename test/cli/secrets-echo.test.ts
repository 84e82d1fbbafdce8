// A server that echoes the token everywhere (X-Request-Id, request_id, the
// error message) never gets it printed: whatever the token's shape, in plain
// errors, --json errors, bulk failure lines and --debug traces (issue 12 items 6, 7).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCpk } from '../helpers/in-process.js';

let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    res.writeHead(404, { 'content-type': 'application/json', 'x-request-id': `req-${token}` });
    res.end(JSON.stringify({ error: `no monitor for ${token}`, request_id: `body-${token}` }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('a token echoed by the server is never printed', () => {
  // Shapes the old mask missed: short, and with punctuation.
  it.each(['cpk_sh0rt', 'cpk_a!b@c#d$e%f^g'])('token %s', async (token) => {
    const env = { CPK_BASE_URL: baseUrl, CPK_TOKEN: token };
    const runs = await Promise.all([
      runCpk(['monitors', 'get', 'mon_1'], { env }),
      runCpk(['monitors', 'get', 'mon_1', '--json'], { env }),
      runCpk(['monitors', 'get', 'mon_1', 'mon_2'], { env }),
      runCpk(['monitors', 'get', 'mon_1', '--debug'], { env }),
    ]);
    for (const [i, r] of runs.entries()) {
      expect(r.code).toBe(6);
      expect(r.stdout + r.stderr).not.toContain(token);
      expect(r.stderr).toContain('[REDACTED]');
      if (i < 3) expect(r.stderr).not.toMatch(/\n\s+at /); // no stack (--debug shows one, redacted too)
    }
  });

  it('a --data @file that is not JSON is described by position, never quoted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-data-'));
    const file = join(dir, 'body.json');
    writeFileSync(file, '{"name": "x", "secret": sk_live_abcdefgh}');
    const r = await runCpk(['monitors', 'create', '--data', `@${file}`], {
      env: { CPK_BASE_URL: baseUrl, CPK_TOKEN: 'cpk_sh0rt' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`cpk: --data file "${file}" is not valid JSON (line 1, column 25)\n`);
  });
});
