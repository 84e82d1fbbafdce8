// --dry-run (sends nothing, prints a runnable curl line without the token)
// and --query (JMESPath on the JSON result), through the built CLI.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { useEmulator } from '../helpers/emulator.js';
import { runCpk } from '../helpers/in-process.js';
import { version } from '../../src/core/version.js';

// A token that appears nowhere else, so finding it in any output is a leak.
const SECRET = 'cpk_dryrun_secret_5a7f';
const f = useEmulator({ token: SECRET }, { inProcess: true });

/** Runs printed command lines in a real bash where curl prints its arguments, one per line. */
function curlArgs(lines: string, env: Record<string, string>): string[][] {
  return lines
    .trim()
    .split('\n')
    .map((line) => {
      const r = spawnSync('bash', ['-c', `curl() { printf '%s\\n' "$@"; }\n${line}\n`], {
        env: { PATH: process.env.PATH ?? '', ...env },
        encoding: 'utf8',
      });
      expect(r.status).toBe(0);
      return r.stdout.split('\n').slice(0, -1);
    });
}

function header(args: string[], name: string): string | undefined {
  for (let i = 0; i < args.length - 1; i++) {
    if (args[i] === '-H' && args[i + 1]!.toLowerCase().startsWith(`${name.toLowerCase()}: `))
      return args[i + 1]!.slice(name.length + 2);
  }
  return undefined;
}

describe('--dry-run', () => {
  it('on every command that changes something: sends nothing, exits 0, prints no token', async () => {
    const sent = f.mark();
    const before = f.emu.monitors().length;
    const runs = await Promise.all([
      f.cpk(['monitors', 'create', '--name', 'dry', '--interval', '5m', '--dry-run']),
      f.cpk(['monitors', 'create', '--from', '-', '--dry-run'], { input: '{"name":"a"}\n{"name":"b"}\n' }),
      f.cpk(['monitors', 'update', 'mon_x', '--set', 'paused=true', '--dry-run']),
      f.cpk(['monitors', 'delete', 'mon_x', 'mon_y', '--dry-run']),
      f.cpk(['channels', 'update', 'ch_ops', '--set', 'enabled=false', '--dry-run']),
      f.cpk(['api', 'POST', '/monitors', '--set', 'name=x', '--dry-run']),
      f.cpk(['--debug', 'monitors', 'delete', 'mon_x', '--dry-run']),
    ]);
    for (const r of runs) {
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^curl /);
      expect(r.stdout + r.stderr).not.toContain(SECRET);
    }
    expect(sent()).toEqual([]);
    expect(f.emu.monitors().length).toBe(before);
  });

  it('prints a command that runs as printed: method, URL, headers, body, and the token from $CPK_TOKEN', async () => {
    const r = await f.cpk(['monitors', 'create', '--name', `it's "quoted" $HOME`, '--set', 'tags=["a"]', '--dry-run']);
    const [args] = curlArgs(r.stdout, { CPK_TOKEN: 'cpk_in_the_shell' });
    expect(args!.slice(0, 3)).toEqual(['-X', 'POST', `${f.emu.baseUrl}/monitors`]);
    expect(header(args!, 'Authorization')).toBe('Bearer cpk_in_the_shell');
    expect(header(args!, 'Content-Type')).toBe('application/json');
    expect(JSON.parse(args![args!.indexOf('--data-raw') + 1]!)).toEqual({ name: `it's "quoted" $HOME`, tags: ['a'] });
  });

  it('one line per request for several ids and for --from, in input order', async () => {
    const del = await f.cpk(['monitors', 'delete', 'mon_b', 'mon_a', '--dry-run']);
    expect(curlArgs(del.stdout, {}).map((a) => [a[1], a[2]])).toEqual([
      ['DELETE', `${f.emu.baseUrl}/monitors/mon_b`],
      ['DELETE', `${f.emu.baseUrl}/monitors/mon_a`],
    ]);
    const from = await f.cpk(['monitors', 'create', '--from', '-', '--dry-run'], {
      input: '[{"name":"first"},{"name":"second"}]',
    });
    expect(curlArgs(from.stdout, {}).map((a) => JSON.parse(a[a.indexOf('--data-raw') + 1]!).name)).toEqual([
      'first',
      'second',
    ]);
  });

  it('needs no token (it sends nothing), and asks no confirmation', async () => {
    const r = await runCpk(['monitors', 'delete', 'mon_x', '--dry-run'], { env: { CPK_BASE_URL: f.emu.baseUrl } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `curl -X DELETE ${f.emu.baseUrl}/monitors/mon_x -H 'Accept: application/json' -H 'User-Agent: ${userAgent()}' -H "Authorization: Bearer $CPK_TOKEN"\n`,
    );
  });

  it('with --json describes the request as JSON (and --query can pick from it)', async () => {
    const r = await f.cpk(['monitors', 'update', 'mon_x', '--name', 'n', '--dry-run', '--json']);
    expect(JSON.parse(r.stdout)).toEqual({
      method: 'PATCH',
      url: `${f.emu.baseUrl}/monitors/mon_x`,
      headers: {
        accept: 'application/json',
        'user-agent': userAgent(),
        'content-type': 'application/json',
        authorization: 'Bearer $CPK_TOKEN',
      },
      body: { name: 'n' },
    });
    const q = await f.cpk(['monitors', 'delete', 'a', 'b', '--dry-run', '--query', '[].url']);
    expect(JSON.parse(q.stdout)).toEqual([`${f.emu.baseUrl}/monitors/a`, `${f.emu.baseUrl}/monitors/b`]);
  });
});

function userAgent(): string {
  return `cpk/${version} node/${process.versions.node}`;
}

describe('--query', () => {
  it('a string result prints raw, so $(...) captures the value itself', async () => {
    const id = (await f.cpk(['monitors', 'create', '--name', 'queried', '--query', 'id'])).stdout;
    expect(id).toMatch(/^mon_\w+\n$/);
    const status = await f.cpk(['monitors', 'get', id.trim(), '--query', 'status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^(up|down)\n$/);
  });

  it('objects, numbers and null print as JSON', async () => {
    const id = (
      await f.cpk(['monitors', 'create', '--name', 'q2', '--target', 'https://q2.example.com', '-q'])
    ).stdout.trim();
    const [picked, number, missing] = await Promise.all([
      f.cpk(['monitors', 'get', id, '--query', '{name: name, every: interval_seconds}']),
      f.cpk(['monitors', 'get', id, '--query', 'interval_seconds']),
      f.cpk(['monitors', 'get', id, '--query', 'no_such_field']),
    ]);
    expect(picked.stdout).toBe('{\n  "name": "q2",\n  "every": 60\n}\n');
    expect(number.stdout).toBe('60\n');
    expect([missing.code, missing.stdout]).toEqual([0, 'null\n']);
  });

  it('applies to arrays from several ids', async () => {
    const [a, b] = (
      await f.cpk(['monitors', 'create', '--from', '-', '-q'], { input: '{"name":"arr-a"}\n{"name":"arr-b"}\n' })
    ).stdout
      .trim()
      .split('\n');
    const [r, joined] = await Promise.all([
      f.cpk(['monitors', 'get', b!, a!, '--query', '[].name']),
      f.cpk(['monitors', 'get', b!, a!, '--query', "join(',', [].id)"]),
    ]);
    expect(JSON.parse(r.stdout)).toEqual(['arr-b', 'arr-a']);
    expect(joined.stdout).toBe(`${b},${a}\n`);
  });

  it('works on reports, the CI threshold case', async () => {
    const r = await f.cpk(['reports', 'get', 'rpt_summary', '--query', 'uptime_percent']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^(null|\d+(\.\d+)?)\n$/);
  });

  it('an invalid expression is a usage error, before anything is sent', async () => {
    const sent = f.mark();
    const [syntax, fn] = await Promise.all([
      f.cpk(['monitors', 'create', '--name', 'never', '--query', 'id[']),
      f.cpk(['monitors', 'get', 'mon_x', '--query', 'lenght(@)']),
    ]);
    expect(syntax.code).toBe(2);
    expect(JSON.parse(syntax.stderr)).toMatchObject({
      error: expect.stringContaining('invalid --query "id["'),
      exit_code: 2,
    });
    expect(fn.code).toBe(2);
    expect(JSON.parse(fn.stderr).error).toContain('unknown function lenght()');
    expect(sent()).toEqual([]);
  });
});
