// `cpk emulator requests --expect ... --count N`: asserting in a script what a client sent to the emulator.
import { beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';

const f = useEmulator({}, { inProcess: true });

describe('cpk emulator requests --expect / --count', () => {
  let env: Record<string, string>;
  let failedId: string | null = null;

  beforeAll(async () => {
    env = { CPK_EMULATOR_ADMIN_SECRET: f.emu.adminSecret };
    const created = await f.cpk(['monitors', 'create', '--name', 'api', '--interval', '60s', '-q']);
    expect(created.code, created.stderr).toBe(0);
    const refused = await fetch(`${f.emu.baseUrl}/monitors`, {
      method: 'POST',
      headers: { authorization: `Bearer ${f.emu.token}`, 'content-type': 'application/json', 'x-ci-run': '7' },
      body: JSON.stringify({ name: 'bad', interval_seconds: 5 }),
    });
    failedId = refused.headers.get('x-request-id');
    await fetch(`${f.emu.baseUrl}/monitors?limit=5`, { headers: { authorization: `Bearer ${f.emu.token}` } });
  });

  const expectRun = (pattern: string, ...more: string[]) =>
    f.cpk(['emulator', 'requests', '--expect', pattern, ...more, '--json'], { env });

  it('a pattern that holds: exit 0, the matching requests on stdout', async () => {
    const r = await expectRun('POST /monitors name=api interval_seconds:=60', '--count', '1');
    expect([r.code, r.stderr]).toEqual([0, '']);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.method, l.path, l.status, JSON.parse(l.body as string)])).toEqual([
      ['POST', '/v1/monitors', 201, { name: 'api', interval_seconds: 60 }],
    ]);
    expect(lines[0]?.request_id).toMatch(/^req_[0-9a-f]{16}$/);
    // Query items, headers, prefix paths and any method.
    for (const pattern of ['GET /monitors limit==5', 'GET /monitors?limit=5', '* /monitors x-ci-run:7', '* /mon*'])
      expect((await expectRun(pattern)).code, pattern).toBe(0);
  });

  it('a pattern that does not hold: exit 9, saying what was expected and found', async () => {
    const none = await f.cpk(['emulator', 'requests', '--expect', 'POST /monitors name=web'], { env });
    expect([none.code, none.stdout, none.stderr]).toEqual([
      9,
      '',
      'cpk: expected at least 1 request matching POST /monitors name=web, found 0\n',
    ]);
    // A number is not a string: interval_seconds=60 is the text "60".
    expect((await expectRun('POST /monitors interval_seconds=60')).code).toBe(9);
    const twice = await expectRun('POST /monitors', '--count', '1');
    expect([twice.code, JSON.parse(twice.stderr)]).toEqual([
      9,
      { error: 'expected 1 request matching POST /monitors, found 2', status: null, request_id: null, exit_code: 9 },
    ]);
    expect(twice.stdout.trim().split('\n')).toHaveLength(2);
    const never = await expectRun('DELETE /monitors/*', '--count', '0');
    expect(never.code).toBe(0);
  });

  it('an error a script logged leads to its request, by request id', async () => {
    const r = await f.cpk(['emulator', 'requests', '--json', '--expect', 'POST /monitors'], { env });
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.find((l) => l.request_id === failedId)).toMatchObject({ status: 422 });
  });

  it('a pattern cpk cannot read is a usage error (exit 2), before anything is sent', async () => {
    const sent = f.mark();
    const cases: Array<[string[], string]> = [
      [['--expect', 'POST'], 'cpk: --expect "POST": give a method and a path;'],
      [['--expect', 'POST monitors'], 'cpk: --expect "POST monitors": the path "monitors" does not start with /;'],
      [['--expect', 'POST /monitors name'], 'cpk: --expect "POST /monitors name": "name" is not an item;'],
      [['--expect', "POST /monitors name='api"], `cpk: --expect "POST /monitors name='api": a ' is not closed;`],
      [
        ['--expect', 'POST /monitors n:=nope'],
        'cpk: --expect "POST /monitors n:=nope": the value of n:= is not JSON: nope;',
      ],
      [['--count', 'one'], 'cpk: --count must be a whole number (0 or more), not "one"'],
    ];
    for (const [args, start] of cases) {
      const r = await f.cpk(['emulator', 'requests', ...args], { env });
      expect([r.code, r.stderr.startsWith(start), r.stderr.split('\n').length], r.stderr).toEqual([2, true, 2]);
    }
    expect(sent()).toEqual([]);
  });
});
