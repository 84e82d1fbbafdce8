// Bulk ids (monitors get/delete ID... and -), bulk create (--from), through
// the built CLI and the emulator: order, counts, failures and exit codes.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useEmulator } from '../helpers/emulator.js';

const f = useEmulator({}, { inProcess: true });

function ndjson(count: number, prefix: string): string {
  return (
    Array.from({ length: count }, (_, i) =>
      JSON.stringify({ name: `${prefix}-${i}`, target: `https://${prefix}-${i}.example.com` }),
    ).join('\n') + '\n'
  );
}

async function createMany(count: number, prefix: string): Promise<string[]> {
  const r = await f.cpk(['monitors', 'create', '--from', '-', '-q'], { input: ndjson(count, prefix) });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const ids = r.stdout.trim().split('\n');
  expect(ids).toHaveLength(count);
  return ids;
}

describe('monitors delete with many ids', () => {
  it('deletes 200 ids from stdin, reporting each in input order', async () => {
    const ids = await createMany(200, 'bulk-del');
    // a comment, blank lines and surrounding blanks are skipped
    const input = `# monitors to retire\n\n${ids.map((id, i) => (i % 50 === 0 ? `  ${id}  ` : id)).join('\n')}\n\n`;
    const sent = f.mark();
    const r = await f.cpk(['monitors', 'delete', '-', '--yes', '--json', '--concurrency', '16'], { input });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(ids.map((id) => ({ id, deleted: true })));
    const reqs = sent();
    expect(reqs).toHaveLength(200);
    expect(reqs.every((q) => q.method === 'DELETE')).toBe(true);
    expect(new Set(reqs.map((q) => q.path))).toEqual(new Set(ids.map((id) => `/v1/monitors/${id}`)));
    const left = new Set(f.emu.monitors().map((m) => m.id));
    expect(ids.filter((id) => left.has(id))).toEqual([]);
  });

  it("mixed success and 404: one stderr line per failure, a count, the first failure's exit code, the others still deleted", async () => {
    const [a, b] = await createMany(2, 'mixed');
    const r = await f.cpk(['monitors', 'delete', a!, 'mon_missing1', b!, 'mon_missing2', '--yes']);
    expect(r.code).toBe(6);
    expect(r.stdout).toBe('');
    expect(r.stderr.startsWith(`Deleted 2 monitors: ${a}, ${b}.\n`)).toBe(true);
    expect(r.stderr).toMatch(
      /^Deleted 2 monitors: \S+, \S+\.\ncpk: mon_missing1: monitor not found \(request id: req_\w+\)\ncpk: mon_missing2: monitor not found \(request id: req_\w+\)\ncpk: 2 of 4 monitors could not be deleted\n$/,
    );
    const left = new Set(f.emu.monitors().map((m) => m.id));
    expect(left.has(a!) || left.has(b!)).toBe(false);
  });

  it('the exit code is that of the first failure in input order, and --json lists the successes', async () => {
    const [a] = await createMany(1, 'first-fail');
    // a 500 (exit 1) first, a 404 (exit 6) later: the exit code is 1
    f.emu.injectFault({ method: 'DELETE', path: '/v1/monitors/mon_boom', status: 500, times: 3 });
    const r = await f.cpk(['monitors', 'delete', 'mon_boom', a!, 'mon_gone', '--yes', '--json', '--concurrency', '1']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual([{ id: a, deleted: true }]);
    const lines = r.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toEqual([
      { id: 'mon_boom', error: expect.any(String), status: 500, request_id: expect.any(String), exit_code: 1 },
      {
        id: 'mon_gone',
        error: 'monitor not found',
        status: 404,
        request_id: expect.stringMatching(/^req_/),
        exit_code: 6,
      },
      { error: '2 of 3 monitors could not be deleted', status: null, request_id: null, exit_code: 1 },
    ]);
  });

  it('refuses ids from stdin without --yes, and sends nothing', async () => {
    const sent = f.mark();
    const r = await f.cpk(['monitors', 'delete', '-'], { input: 'mon_1\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'cpk: refusing to delete monitors without --yes (stdin is not a terminal); nothing was sent\n',
    );
    expect(sent()).toEqual([]);
  });

  it('refuses a bad id anywhere in the list before sending anything', async () => {
    const sent = f.mark();
    const r = await f.cpk(['monitors', 'delete', '-', '--yes'], { input: 'mon_1\nmon_2\n..\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('cpk: stdin line 3: invalid monitor id ".."; nothing was sent\n');
    expect(sent()).toEqual([]);
  });

  it('an empty list does nothing and succeeds', async () => {
    const sent = f.mark();
    const r = await f.cpk(['monitors', 'delete', '-', '--yes', '--json'], { input: '# nothing today\n\n' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
    expect(sent()).toEqual([]);
  });

  it('Ctrl-C prints what finished, says what is unknown, and exits 130', async () => {
    const [a, b] = await createMany(2, 'interrupted');
    f.emu.injectFault({ method: 'DELETE', path: '/v1/monitors/mon_hangs', kind: 'hang' });
    const sent = f.mark();
    // One at a time: when the hanging request arrives, the two before it have been answered.
    const run = f.spawned(['monitors', 'delete', a!, b!, 'mon_hangs', '--yes', '--json', '--concurrency', '1'], {
      onSpawn: (child) => {
        const poll = setInterval(() => {
          if (sent().some((q) => q.path === '/v1/monitors/mon_hangs')) {
            clearInterval(poll);
            child.kill('SIGINT');
          }
        }, 10);
        child.on('exit', () => clearInterval(poll));
      },
    });
    const r = await run;
    expect(r.code).toBe(130);
    expect(JSON.parse(r.stdout)).toEqual([
      { id: a, deleted: true },
      { id: b, deleted: true },
    ]);
    expect(r.stderr).toContain('cpk: interrupted: 2 of 3 monitors finished (0 failed)');
  });
});

describe('monitors get with many ids', () => {
  it('one id as an argument keeps the single object; several or - give an array in input order', async () => {
    const [a, b, c] = await createMany(3, 'get-many');
    const [one, several, fromStdin] = await Promise.all([
      f.cpk(['monitors', 'get', a!, '--json']),
      f.cpk(['monitors', 'get', c!, a!, b!, '--json']),
      f.cpk(['monitors', 'get', '-', '--json'], { input: `${b}\n` }),
    ]);
    expect(JSON.parse(one.stdout).id).toBe(a);
    expect(several.code).toBe(0);
    expect(JSON.parse(several.stdout).map((m: { id: string }) => m.id)).toEqual([c, a, b]);
    expect(JSON.parse(fromStdin.stdout).map((m: { id: string }) => m.id)).toEqual([b]);
  });

  it('prints a row per monitor for people and names the failures on stderr', async () => {
    const [a] = await createMany(1, 'get-table');
    const r = await f.cpk(['monitors', 'get', a!, 'mon_nope']);
    expect(r.code).toBe(6);
    expect(r.stdout).toMatch(new RegExp(`^${a}\tget-table-0\t\\w+\thttp\t`));
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /^cpk: mon_nope: monitor not found \(request id: req_\w+\)\ncpk: 1 of 2 monitors could not be fetched\n$/,
    );
  });
});

describe('monitors create --from', () => {
  it('NDJSON with one line the server rejects: the others are created, in order; the line is named; exit 7', async () => {
    const input = [
      JSON.stringify({ name: 'nd-1', target: 'https://one.example.com' }),
      '',
      JSON.stringify({ name: 'nd-3', type: 'http', target: 'db.example.com:5432' }),
      JSON.stringify({ name: 'nd-4', type: 'tcp', target: 'db.example.com:5432' }),
    ].join('\n');
    const sent = f.mark();
    const r = await f.cpk(['monitors', 'create', '--from', '-', '--json'], { input });
    expect(r.code).toBe(7);
    const created = JSON.parse(r.stdout) as Array<{ id: string; status: string }>;
    expect(created).toEqual([
      { id: expect.stringMatching(/^mon_/), status: 'pending' },
      { id: expect.stringMatching(/^mon_/), status: 'pending' },
    ]);
    const stored = f.emu.monitors();
    expect(created.map((c) => stored.find((m) => m.id === c.id)?.name)).toEqual(['nd-1', 'nd-4']);
    const errors = r.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(errors).toEqual([
      {
        line: 3,
        error: 'target must be an http:// or https:// URL for type http',
        status: 422,
        request_id: expect.stringMatching(/^req_/),
        exit_code: 7,
      },
      {
        error:
          '1 of 3 monitors could not be created; to send only line 3, which was not created: cpk monitors create --from - --only 3 (with the same input on stdin)',
        status: null,
        request_id: null,
        exit_code: 7,
      },
    ]);
    // one POST per item, none retried
    expect(sent().filter((q) => q.method === 'POST')).toHaveLength(3);
  });

  it('a JSON array from a file: failures named by element index, a table for people', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-from-'));
    const file = join(dir, 'monitors.json');
    writeFileSync(
      file,
      JSON.stringify([
        { name: 'arr-0' },
        { name: 'arr-1', type: 'tcp', target: 'db.example.com' },
        { name: 'arr-2', paused: true },
      ]),
    );
    const r = await f.cpk(['monitors', 'create', '--from', file]);
    expect(r.code).toBe(7);
    expect(r.stdout).toMatch(/^mon_\w+\t\S+\tpending\nmon_\w+\t\S+\tpaused\n$/);
    expect(r.stderr).toMatch(
      /^cpk: element \[1\]: target must be host:port \(port 1-65535\) for type tcp \(request id: req_\w+\)\ncpk: 1 of 3 monitors could not be created; to send only element 1, which was not created: cpk monitors create --from \S+ --only 1\n$/,
    );
  });

  it('a line that is not JSON refuses the whole input: nothing is created', async () => {
    const sent = f.mark();
    const r = await f.cpk(['monitors', 'create', '--from', '-'], { input: '{"name":"ok"}\n{"name": oops}\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^cpk: --from stdin line 2 is not valid JSON( \(column \d+\))?; nothing was sent\n$/);
    expect(sent()).toEqual([]);
  });

  it('an item without a name refuses the whole input', async () => {
    const sent = f.mark();
    const r = await f.cpk(['monitors', 'create', '--from', '-'], {
      input: '{"name":"ok"}\n{"target":"https://x.example.com"}\n',
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('cpk: --from stdin line 2 has no "name" field; nothing was sent\n');
    expect(sent()).toEqual([]);
  });

  it('a create that fails after it was sent is not retried (no duplicates)', async () => {
    f.emu.injectFault({ method: 'POST', path: '/v1/monitors', status: 503 });
    const sent = f.mark();
    const r = await f.cpk(['monitors', 'create', '--from', '-', '--concurrency', '1', '-q'], {
      input: ndjson(2, 'no-dup'),
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^mon_\w+\n$/);
    expect(r.stderr).toMatch(
      /^cpk: line 1: .+\ncpk: 1 of 2 monitors could not be created; to send only line 1, which was not created: cpk monitors create --from - --only 1 \(with the same input on stdin\)\n$/,
    );
    expect(sent().filter((q) => q.method === 'POST')).toHaveLength(2);
  });

  it('refuses --from together with body flags', async () => {
    const r = await f.cpk(['monitors', 'create', '--from', '-', '--name', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('cpk: --from cannot be combined with --name: put the fields in the file\n');
  });
});

describe('ids one per line, and what cpk prints read back by -', () => {
  const env = () => ({
    CPK_DATA_DIR: mkdtempSync(join(tmpdir(), 'cpk-data-')),
    CPK_CACHE_DIR: mkdtempSync(join(tmpdir(), 'cpk-cache-')),
  });

  it('-o name and -q print bare ids one per line; get - reads them back', async () => {
    const team = `ids-${Date.now()}`;
    const a = await f.create({ name: 'ids-a', team });
    const b = await f.create({ name: 'ids-b', team });
    const e = env();
    const named = await f.cpk(['monitors', 'list', '-o', 'name'], { env: e });
    expect(named.code, named.stderr).toBe(0);
    const lines = named.stdout.trimEnd().split('\n');
    expect(lines).toEqual(expect.arrayContaining([a, b]));
    expect(lines.every((line) => /^mon_\w+$/.test(line))).toBe(true);
    const quiet = await f.cpk(['channels', 'list', '-q'], { env: e });
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stdout).toMatch(/^(ch_\w+\n)+$/);
    const one = await f.cpk(['monitors', 'get', a, '-o', 'name'], { env: e });
    expect(one.stdout).toBe(`${a}\n`);
    const back = await f.cpk(['monitors', 'get', '-', '--query', '[].id'], { env: e, input: `${a}\n${b}\n` });
    expect(JSON.parse(back.stdout)).toEqual([a, b]);
    const refused = await f.cpk(['monitors', 'list', '-q', '-o', 'wide'], { env: e });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe('cpk: -q prints ids one per line (-o name); it cannot be used with -o wide\n');
  });

  it("`list --query '[].id' | get -` gets each id, and a half array is refused before anything is sent", async () => {
    const team = `arr-${Date.now()}`;
    const ids = [await f.create({ name: 'arr-a', team }), await f.create({ name: 'arr-b', team })].sort();
    const listed = await f.cpk(['monitors', 'list', '--query', `[?team=='${team}'].id`]);
    expect(listed.code, listed.stderr).toBe(0);
    const sent = f.mark();
    const r = await f.cpk(['monitors', 'get', '-', '--query', '[].name'], { input: listed.stdout });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(2);
    expect(sent().map((q) => `${q.method} ${q.path}`)).toEqual(ids.map((id) => `GET /v1/monitors/${id}`));
    // JSON lines of objects, as -o jsonl prints them.
    const jsonl = await f.cpk(['monitors', 'get', ...ids, '-o', 'jsonl']);
    const again = await f.cpk(['monitors', 'get', '-', '-o', 'name'], { input: jsonl.stdout });
    expect(again.stdout).toBe(`${ids.join('\n')}\n`);
    const half = f.mark();
    const cut = await f.cpk(['monitors', 'get', '-'], { input: listed.stdout.split('\n').slice(0, 2).join('\n') });
    expect(cut.code).toBe(2);
    expect(cut.stderr).toMatch(
      /^cpk: stdin is not a JSON array of ids \(give ids one per line, .*; nothing was sent\n$/,
    );
    expect(half()).toEqual([]);
  });
});
