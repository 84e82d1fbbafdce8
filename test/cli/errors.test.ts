// Every exit code in the README's table, and what reaches (or does not reach)
// the server on each failure.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { runCpk } from '../helpers/in-process.js';
import { closedPort } from '../helpers/net.js';

const f = useEmulator({}, { inProcess: true });

describe('exit codes', () => {
  it('1: a 5xx from the server', async () => {
    f.emu.injectFault({
      method: 'GET',
      status: 500,
      times: 3,
      body: JSON.stringify({ error: 'database on fire', request_id: 'req_fire' }),
    });
    const r = await f.cpk(['monitors', 'get', 'mon_x']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('cpk: database on fire (request id: req_fire)\n');
  });

  it('2: a usage error sends nothing', async () => {
    const sent = f.mark();
    for (const args of [
      ['monitors', 'frobnicate'],
      ['monitors', 'get'],
      ['monitors', 'create'],
      ['monitors', 'create', '--name', 'x', '--interval', 'soon'],
      ['monitors', 'update', 'mon_1'],
      ['monitors', 'create', '--name', 'x', '--data', '[1,2]'],
      ['monitors', 'create', '--name', 'x', '--data', '{bad json'],
      ['monitors', 'create', '--name', 'x', '--data', '@/nonexistent/file.json'],
      ['monitors', 'update', 'mon_1', '--set', 'novalue'],
      ['monitors', 'get', '..'],
      ['monitors', 'get', ''],
      ['monitors', 'delete', 'mon_1'],
      ['channels', 'update', 'ch_ops'],
      ['monitors', 'get', 'mon_1', '--timeout', 'zero'],
      ['monitors', 'get', 'mon_1', '--timeout', '1m1m'],
      ['monitors', 'get', 'mon_1', '--max-time', '1m1m'],
      ['monitors', 'get', 'mon_1', '--base-url', 'http://monitoring.example.com'],
      ['--bogus-flag'],
    ]) {
      const r = await f.cpk(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr, args.join(' ')).toMatch(/^cpk: .+\n$/);
    }
    expect(sent()).toEqual([]);
  });

  it('2: delete off a terminal without --yes names --yes', async () => {
    const r = await f.cpk(['monitors', 'delete', 'mon_1']);
    expect(r.stderr).toContain('--yes');
  });

  it('2: plain http to a non-loopback host says to use https', async () => {
    const r = await f.cpk(['monitors', 'get', 'mon_1'], { env: { CPK_BASE_URL: 'http://monitoring.example.com' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('https');
  });

  it('3: nothing listens on the port', async () => {
    const port = await closedPort();
    const r = await f.cpk(['monitors', 'get', 'mon_1'], { env: { CPK_BASE_URL: `http://127.0.0.1:${port}` } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^cpk: cannot connect to http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
  });

  it('4: no token, named both ways to fix it, nothing sent', async () => {
    const sent = f.mark();
    const r = await runCpk(['monitors', 'get', 'mon_1'], { env: { CPK_BASE_URL: f.emu.baseUrl } });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('CPK_TOKEN');
    expect(r.stderr).toContain('cpk auth login');
    expect(sent()).toEqual([]);
  });

  it('4: a token without the cpk_ prefix is never sent', async () => {
    const sent = f.mark();
    const r = await f.cpk(['monitors', 'get', 'mon_1'], { env: { CPK_TOKEN: 'ghp_secretvalue123' } });
    expect(r.code).toBe(4);
    expect(r.stderr).not.toContain('ghp_secretvalue123');
    expect(sent()).toEqual([]);
  });

  it('4: the server answers 401 (expired token)', async () => {
    const r = await f.cpk(['monitors', 'get', 'mon_1'], { env: { CPK_TOKEN: 'cpk_test_expired' } });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^cpk: .*expired.* \(request id: req_[0-9a-f]+\)\n$/);
  });

  it('5: the server answers 403 (read-only token writing)', async () => {
    const r = await f.cpk(['monitors', 'create', '--name', 'nope'], { env: { CPK_TOKEN: 'cpk_test_readonly' } });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/\(request id: req_[0-9a-f]+\)\n$/);
  });

  it('5: suspended account', async () => {
    const r = await f.cpk(['monitors', 'get', 'mon_1'], { env: { CPK_TOKEN: 'cpk_test_suspended' } });
    expect(r.code).toBe(5);
  });

  it('6: not found, with the server message, the id it did not name, and the request id', async () => {
    const r = await f.cpk(['monitors', 'get', 'mon_doesnotexist']);
    expect(r.code).toBe(6);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^cpk: monitor not found: mon_doesnotexist \(request id: req_[0-9a-f]+\)\n$/);
  });

  it("6: another account's monitor is not found", async () => {
    const mine = await f.cpk(['monitors', 'create', '--name', 'private', '-q']);
    const r = await f.cpk(['monitors', 'get', mine.stdout.trim()], { env: { CPK_TOKEN: 'cpk_test_other' } });
    expect(r.code).toBe(6);
  });

  it('7: the server rejects the request as invalid', async () => {
    const mine = await f.cpk(['monitors', 'create', '--name', 'valid', '-q']);
    const r = await f.cpk(['monitors', 'update', mine.stdout.trim(), '--interval', '1']);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/^cpk: .*interval_seconds.*\(request id: req_/);
  });

  it('with --json an error is one JSON object on stderr', async () => {
    const r = await f.cpk(['monitors', 'get', 'mon_doesnotexist', '--json']);
    expect(r.code).toBe(6);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    const err = JSON.parse(lines[0]!);
    expect(err).toEqual({
      error: 'monitor not found: mon_doesnotexist',
      status: 404,
      request_id: expect.stringMatching(/^req_/),
      exit_code: 6,
    });
  });

  it('with --json a local error has status null', async () => {
    const r = await f.cpk(['monitors', 'get', '..', '--json']);
    expect(JSON.parse(r.stderr)).toEqual({
      error: 'invalid monitor id ".."',
      status: null,
      request_id: null,
      exit_code: 2,
    });
  });

  it('a 2xx that is not JSON is exit 1, naming status and content type', async () => {
    f.emu.injectFault({
      method: 'GET',
      status: 200,
      body: '<html>hi</html>',
      headers: { 'content-type': 'text/html' },
    });
    const r = await f.cpk(['monitors', 'get', 'mon_1']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/status 200, text\/html/);
  });

  it('a create answered without id/status is exit 1 (unexpected shape)', async () => {
    f.emu.injectFault({
      method: 'POST',
      status: 201,
      body: '{"hello":"world"}',
      headers: { 'content-type': 'application/json' },
    });
    const r = await f.cpk(['monitors', 'create', '--name', 'x']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/unexpected response/);
  });

  it('never prints a stack trace without --debug', async () => {
    f.emu.injectFault({ method: 'GET', status: 200, body: 'garbage', headers: { 'content-type': 'application/json' } });
    const r = await f.cpk(['monitors', 'get', 'mon_1']);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('ids are one path segment', () => {
  it('a/b?c is percent-encoded and cannot reach another route', async () => {
    const sent = f.mark();
    const r = await f.cpk(['monitors', 'get', 'a/b?c#d']);
    expect(r.code).toBe(6);
    expect(sent().map((q) => q.path)).toEqual(['/v1/monitors/a%2Fb%3Fc%23d']);
  });

  it('delete of ../channels/ch_ops stays under /monitors', async () => {
    const sent = f.mark();
    const r = await f.cpk(['monitors', 'delete', '../channels/ch_ops', '--yes']);
    expect(r.code).toBe(6);
    expect(sent().map((q) => q.path)).toEqual(['/v1/monitors/..%2Fchannels%2Fch_ops']);
  });
});

describe('server text is sanitized', () => {
  const evil = 'evil\u001b[2J\u001b]0;pwned\u0007name\u009b31m';
  it('tables strip escape sequences and control characters', async () => {
    const created = await f.cpk(['monitors', 'create', '--name', evil, '--json']);
    const id = JSON.parse(created.stdout).id;
    const r = await f.cpk(['monitors', 'get', id]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^name\s+evilname$/m);
    // eslint-disable-next-line no-control-regex
    expect(r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });

  it('--json escapes them so no raw control byte reaches a terminal', async () => {
    const created = await f.cpk(['monitors', 'create', '--name', evil, '--json']);
    // eslint-disable-next-line no-control-regex
    expect(created.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(JSON.parse(created.stdout).name).toBe(evil);
  });

  it('server error messages are sanitized too', async () => {
    f.emu.injectFault({
      method: 'GET',
      status: 404,
      body: JSON.stringify({ error: 'gone\u001b[2J\nreally', request_id: 'req_\u001b[31mx' }),
    });
    const r = await f.cpk(['monitors', 'get', 'mon_1']);
    expect(r.stderr).toBe('cpk: monitor mon_1: gone really (request id: req_x)\n');
  });
});

describe('the token never appears in output', () => {
  it('in --debug traces, errors and results', async () => {
    const token = f.emu.token;
    const runs = await Promise.all([
      f.cpk(['monitors', 'create', '--name', 'dbg', '--debug']),
      f.cpk(['monitors', 'get', 'mon_missing', '--debug']),
      f.cpk(['monitors', 'get', 'mon_missing', '--debug', '--json']),
      f.cpk(['openapi', '--debug']),
      f.cpk(['channels', 'update', 'ch_ops', '--set', 'enabled=true', '--debug']),
    ]);
    for (const r of runs) {
      expect(r.stdout + r.stderr).not.toContain(token);
      expect(r.stdout + r.stderr).not.toContain(token.slice(4));
    }
    expect(runs[0]!.stderr).toContain('> POST ');
    expect(runs[0]!.stderr).toContain('authorization: Bearer [REDACTED]');
    expect(runs[1]!.stderr).toMatch(/< 404 in \d+ms/);
  });
});

describe('a closed pipe', () => {
  it('a reader that stops early gets no stack trace', async () => {
    const { spawnSync } = await import('node:child_process');
    const { BIN } = await import('../helpers/cli.js');
    const r = spawnSync(
      'bash',
      ['-c', `node "${BIN}" --help | head -c 10 >/dev/null; node "${BIN}" monitors create --help | true`],
      { encoding: 'utf8' },
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
