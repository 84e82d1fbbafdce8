// `cpk api METHOD PATH` through the built CLI and the emulator.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { runCpk } from '../helpers/in-process.js';

const f = useEmulator({}, { inProcess: true });

function createMonitor(name: string): Promise<string> {
  return f.create({ name });
}

describe('cpk api', () => {
  it('GET prints the JSON body pretty, with the token sent', async () => {
    const id = await createMonitor('raw get');
    const sent = f.mark();
    const r = await f.spawned(['api', 'GET', `/monitors/${id}`]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body).toMatchObject({ id, name: 'raw get' });
    expect(r.stdout).toBe(`${JSON.stringify(body, null, 2)}\n`);
    const reqs = sent();
    expect(reqs.map((q) => `${q.method} ${q.path}`)).toEqual([`GET /v1/monitors/${id}`]);
    expect(reqs[0]!.headers.authorization).toBe(`Bearer ${f.emu.token}`);
  });

  it('PATCH sends --set/--set-string merged over --data, as JSON', async () => {
    const id = await createMonitor('raw patch');
    const sent = f.mark();
    const r = await f.cpk([
      'api',
      'patch',
      `monitors/${id}`,
      '--data',
      '{"name":"renamed","meta":{"a":1}}',
      '--set',
      'paused=true',
      '--set-string',
      'meta.b=2',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id, name: 'renamed', status: 'paused', meta: { a: 1, b: '2' } });
    const reqs = sent();
    expect(reqs[0]!.method).toBe('PATCH');
    expect(reqs[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(reqs[0]!.body)).toEqual({ name: 'renamed', meta: { a: 1, b: '2' }, paused: true });
  });

  it('a leading /v1 is not doubled, and an absolute URL under the base URL is accepted', async () => {
    const id = await createMonitor('raw v1');
    const sent = f.mark();
    const a = await f.cpk(['api', 'GET', `/v1/monitors/${id}`, '--query', 'id']);
    const b = await f.cpk(['api', 'GET', `${f.emu.baseUrl}/monitors/${id}`, '--query', 'id']);
    expect([a.code, a.stdout, b.code, b.stdout]).toEqual([0, `${id}\n`, 0, `${id}\n`]);
    expect(sent().map((q) => q.path)).toEqual([`/v1/monitors/${id}`, `/v1/monitors/${id}`]);
  });

  it('-i prints the status line and headers, then the body; an empty body prints nothing more', async () => {
    const id = await createMonitor('raw include');
    const r = await f.cpk(['api', 'DELETE', `/monitors/${id}`, '-i']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^HTTP\/1\.1 204 No Content\n(?:[a-z0-9-]+: .*\n)+\n$/);
    expect(r.stdout).toMatch(/^x-request-id: req_\w+$/m);
    const got = await f.cpk(['api', 'GET', '/reports/rpt_summary', '--include']);
    expect(got.stdout).toMatch(/^HTTP\/1\.1 200 OK\n/);
    expect(got.stdout).toMatch(/^content-type: application\/json/m);
    expect(JSON.parse(got.stdout.split('\n\n').slice(1).join('\n\n'))).toMatchObject({ id: 'rpt_summary' });
  });

  it('a non-JSON body prints as it came', async () => {
    f.emu.injectFault({
      method: 'GET',
      path: '/v1/monitors/mon_page',
      kind: 'html',
      status: 200,
      body: '<html>hello</html>',
    });
    const r = await f.cpk(['api', 'GET', '/monitors/mon_page']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('<html>hello</html>\n');
  });

  it('same errors and exit codes as every command: 404 -> 6, 422 -> 7, 403 -> 5, no token -> 4', async () => {
    const notFound = await f.cpk(['api', 'GET', '/monitors/mon_nope']);
    expect(notFound.code).toBe(6);
    expect(notFound.stdout).toBe('');
    expect(notFound.stderr).toMatch(/^cpk: monitor not found \(request id: req_\w+\)\n$/);
    const invalid = await f.cpk(['api', 'POST', '/monitors', '--set', 'name=x', '--set', 'interval_seconds=1']);
    expect(invalid.code).toBe(7);
    const forbidden = await f.cpk(['api', 'POST', '/monitors', '--set', 'name=x'], {
      env: { CPK_TOKEN: 'cpk_test_readonly' },
    });
    expect(forbidden.code).toBe(5);
    const noToken = await runCpk(['api', 'GET', '/monitors/mon_x'], { env: { CPK_BASE_URL: f.emu.baseUrl } });
    expect(noToken.code).toBe(4);
  });

  it('retries a GET on 503 like every command', async () => {
    f.emu.injectFault({ method: 'GET', path: '/v1/reports/rpt_summary', status: 503, times: 1 });
    const sent = f.mark();
    const r = await f.cpk(['api', 'GET', '/reports/rpt_summary', '--query', 'id']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('rpt_summary\n');
    expect(sent()).toHaveLength(2);
  });

  it('refuses paths that leave the base URL, and bad input, before sending anything', async () => {
    const sent = f.mark();
    for (const args of [
      ['api', 'GET', 'https://evil.example.com/v1/monitors'],
      ['api', 'GET', `${f.emu.url}/__emulator/requests`],
      ['api', 'GET', '/monitors/../../__emulator/requests'],
      ['api', 'GET', '/monitors/%2e%2e/x'],
      ['api', 'G T', '/monitors'],
      ['api', 'GET', '/monitors/x', '--set', 'a=1'],
      ['api', 'POST', '/monitors', '--data', '[1]', '--set', 'a=1'],
      ['api', 'GET', '/monitors/x', '-i', '--query', 'id'],
    ]) {
      const r = await f.cpk(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout, args.join(' ')).toBe('');
      // --query implies --json, errors included
      expect(r.stderr, args.join(' ')).toMatch(
        args.includes('--query') ? /^\{"error":.+,"exit_code":2\}\n$/ : /^cpk: .+\n$/,
      );
    }
    expect(sent()).toEqual([]);
  });
});
