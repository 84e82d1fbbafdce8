// What a create prints when the service's answer is odd:
// an id holding a line break is never printed as two ids, and a 2xx without
// a body says the monitor was probably created.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCpk } from '../helpers/in-process.js';

let server: Server;
let env: Record<string, string>;
let answer: { status: number; body: string } = { status: 201, body: '' };

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(answer.status, { 'content-type': 'application/json', 'x-request-id': 'req_1' });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  env = { CPK_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, CPK_TOKEN: 'cpk_answers_01' };
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('monitors create and odd answers', () => {
  it('-q refuses an id holding CR or LF (exit 1, nothing on stdout); --json shows it escaped', async () => {
    answer = { status: 201, body: JSON.stringify({ id: 'mon_a\r\nmon_b', status: 'pending' }) };
    const quiet = await runCpk(['monitors', 'create', '--name', 'x', '-q'], { env });
    expect(quiet.code).toBe(1);
    expect(quiet.stdout).toBe('');
    expect(quiet.stderr).toBe(
      'cpk: the service answered with the id "mon_a\\r\\nmon_b", which holds control characters; not printed with -q (the monitor was created: --json shows it escaped)\n',
    );
    const json = await runCpk(['monitors', 'create', '--name', 'x', '--json'], { env });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).id).toBe('mon_a\r\nmon_b');
  });

  it('-q refuses an id holding a C1 control (CSI, NEL) as it does a C0 one: exit 1, nothing on stdout', async () => {
    for (const id of ['mon_\u009b2Jx', 'mon_a\u0085mon_b']) {
      answer = { status: 201, body: JSON.stringify({ id, status: 'pending' }) };
      const quiet = await runCpk(['monitors', 'create', '--name', 'x', '-q'], { env });
      expect(quiet.code).toBe(1);
      expect(quiet.stdout).toBe('');
      expect(quiet.stderr).toContain('which holds control characters; not printed with -q');
    }
  });

  it('a 201 with an empty body says the monitor was probably created', async () => {
    answer = { status: 201, body: '' };
    const r = await runCpk(['monitors', 'create', '--name', 'x', '-q'], { env });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^cpk: unexpected response to POST .*; the service answered 201, so the monitor was probably created, but cpk cannot tell its id: look for it before creating it again \(request id: req_1\)\n$/,
    );
  });
});
