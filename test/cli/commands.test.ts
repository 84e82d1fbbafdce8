// Every command's success path, through the built CLI against the emulator.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useEmulator } from '../helpers/emulator.js';
import { runCli } from '../helpers/cli.js';
import { runCpk } from '../helpers/in-process.js';

const f = useEmulator({}, { inProcess: true });

function createMonitor(name = 'probe'): Promise<string> {
  return f.create({ name, target: 'https://example.com/health' });
}

describe('monitors create', () => {
  it('sends exactly the given fields and prints the server JSON with --json', async () => {
    const sent = f.mark();
    const r = await f.cpk([
      'monitors',
      'create',
      '--name',
      'Checkout API',
      '--type',
      'http',
      '--target',
      'https://shop.example.com/health',
      '--interval',
      '1m',
      '--json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body).toMatchObject({
      name: 'Checkout API',
      type: 'http',
      target: 'https://shop.example.com/health',
      interval_seconds: 60,
    });
    expect(body.id).toMatch(/^mon_/);
    expect(typeof body.status).toBe('string');
    const reqs = sent();
    expect(reqs).toHaveLength(1);
    expect(reqs[0]!.method).toBe('POST');
    expect(reqs[0]!.path).toBe('/v1/monitors');
    expect(JSON.parse(reqs[0]!.body)).toEqual({
      name: 'Checkout API',
      type: 'http',
      target: 'https://shop.example.com/health',
      interval_seconds: 60,
    });
    expect(reqs[0]!.headers['content-type']).toBe('application/json');
    expect(reqs[0]!.headers.authorization).toBe(`Bearer ${f.emu.token}`);
    // --json output is exactly the stored monitor as the server returned it
    expect(f.emu.monitors().find((m) => m.id === body.id)).toBeDefined();
  });

  it('-q prints the id alone', async () => {
    const r = await f.cpk(['monitors', 'create', '--name', 'quiet one', '-q']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^mon_[a-z0-9]+\n$/);
  });

  it('prints a key/value table for people', async () => {
    const r = await f.cpk(['monitors', 'create', '--name', 'Tabled', '--target', 'https://t.example.com']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^id\s+mon_/m);
    expect(r.stdout).toMatch(/^name\s+Tabled$/m);
    expect(r.stdout).toMatch(/^status\s+\w+/m);
    expect(r.stdout).not.toContain('\u001b');
  });

  it('takes --data from a file, with flags merged over it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-data-'));
    const file = join(dir, 'm.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'from file',
        target: 'https://f.example.com',
        tags: ['a', 'b'],
        notify: { email: 'x@example.com' },
      }),
    );
    const sent = f.mark();
    const r = await f.cpk([
      'monitors',
      'create',
      '--data',
      `@${file}`,
      '--name',
      'flag wins',
      '--set',
      'notify.sms=false',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(sent()[0]!.body)).toEqual({
      name: 'flag wins',
      target: 'https://f.example.com',
      tags: ['a', 'b'],
      notify: { email: 'x@example.com', sms: false },
    });
  });

  it('takes --data from stdin', async () => {
    const sent = f.mark();
    const r = await f.cpk(['monitors', 'create', '--data', '-', '--json'], {
      input: '{"name":"from stdin","interval_seconds":120}',
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(sent()[0]!.body)).toEqual({ name: 'from stdin', interval_seconds: 120 });
  });
});

describe('monitors get', () => {
  it('--json prints the server body exactly (pretty-printed)', async () => {
    const id = await createMonitor('getme');
    const r = await f.cpk(['monitors', 'get', id, '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const body = JSON.parse(r.stdout);
    expect(body.id).toBe(id);
    expect(r.stdout).toBe(`${JSON.stringify(body, null, 2)}\n`);
  });

  it('shows nested fields as dotted keys in the table', async () => {
    const id = await createMonitor('nested');
    await f.cpk(['monitors', 'update', id, '--set', 'notify.email="a@example.com"', '--set', 'tags=["x","y"]']);
    const r = await f.cpk(['monitors', 'get', id]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^notify\.email\s+a@example\.com$/m);
    expect(r.stdout).toMatch(/^tags\s+x, y$/m);
  });
});

describe('monitors update', () => {
  it('sends only the fields given, typed by --set and --set-string', async () => {
    const id = await createMonitor('upd');
    const sent = f.mark();
    const r = await f.cpk([
      'monitors',
      'update',
      id,
      '--interval',
      '5m',
      '--set',
      'paused=true',
      '--set',
      'meta.count=3',
      '--set-string',
      'meta.code=007',
      '--json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const reqs = sent();
    expect(reqs).toHaveLength(1);
    expect(reqs[0]!.method).toBe('PATCH');
    expect(reqs[0]!.path).toBe(`/v1/monitors/${id}`);
    expect(JSON.parse(reqs[0]!.body)).toEqual({ interval_seconds: 300, paused: true, meta: { count: 3, code: '007' } });
    const body = JSON.parse(r.stdout);
    expect(body.id).toBe(id);
    expect(body.status).toBe('paused');
  });
});

describe('monitors delete', () => {
  it('--yes --json deletes and prints the result', async () => {
    const id = await createMonitor('del');
    const sent = f.mark();
    const r = await f.cpk(['monitors', 'delete', id, '--yes', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id, deleted: true });
    expect(sent().map((q) => `${q.method} ${q.path}`)).toEqual([`DELETE /v1/monitors/${id}`]);
    expect(f.emu.monitors().some((m) => m.id === id)).toBe(false);
  });

  it('without --json says so on stderr and keeps stdout empty', async () => {
    const id = await createMonitor('del2');
    const r = await f.cpk(['monitors', 'delete', id, '--yes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`Deleted monitor ${id}.\n`);
  });
});

describe('channels update', () => {
  it('PATCHes the channel and prints {ok}', async () => {
    const sent = f.mark();
    const r = await f.cpk([
      'channels',
      'update',
      'ch_ops',
      '--set',
      'enabled=false',
      '--set-string',
      'name=Ops team',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ ok: true });
    expect(sent()[0]!.path).toBe('/v1/channels/ch_ops');
    expect(JSON.parse(sent()[0]!.body)).toEqual({ enabled: false, name: 'Ops team' });
    expect(f.emu.channels().find((c) => c.id === 'ch_ops')).toMatchObject({ enabled: false, name: 'Ops team' });
  });

  it('prints a confirmation without --json', async () => {
    const r = await f.spawned(['channels', 'update', 'ch_slack', '--data', '{"enabled":true}']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('Updated channel ch_slack.\n');
  });
});

describe('reports get', () => {
  it('shows a monitor report', async () => {
    const id = await createMonitor('reported');
    const detail = JSON.parse((await f.cpk(['monitors', 'get', id, '--json'])).stdout);
    const r = await f.cpk(['reports', 'get', detail.report_id, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: detail.report_id, monitor_id: id });
    const table = await f.cpk(['reports', 'get', detail.report_id]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`^monitor_id\\s+${id}$`, 'm'));
  });
});

describe('openapi', () => {
  it('fetches the public document without sending a token', async () => {
    const sent = f.mark();
    const r = await f.cpk(['openapi']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.openapi).toMatch(/^3\.1\./);
    const reqs = sent();
    expect(reqs).toHaveLength(1);
    expect(reqs[0]!.path).toBe('/v1/openapi.json');
    expect(reqs[0]!.headers.authorization).toBeUndefined();
  });

  it('works with no token at all', async () => {
    const r = await runCpk(['openapi'], { env: { CPK_BASE_URL: f.emu.baseUrl } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).openapi).toMatch(/^3\.1\./);
  });
});

describe('emulator command', () => {
  it('serves on a free port, prints base URL and token, and stops on SIGTERM', async () => {
    let child: import('node:child_process').ChildProcess | undefined;
    let firstLine: (line: string) => void = () => {};
    const ready = new Promise<string>((resolve) => (firstLine = resolve));
    const done = runCli(['emulator', '--port', '0', '--json', '--quiet'], {
      onSpawn: (c) => {
        child = c;
        let buf = '';
        c.stdout!.on('data', (d: Buffer) => {
          buf += d.toString();
          if (buf.includes('\n')) firstLine(buf.split('\n')[0]!);
        });
      },
    });
    const info = JSON.parse(await ready);
    expect(info.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(info.token).toMatch(/^cpk_/);
    const created = await runCpk(['monitors', 'create', '--name', 'via command', '-q'], {
      env: { CPK_BASE_URL: info.base_url, CPK_TOKEN: info.token },
    });
    expect(created.code).toBe(0);
    const got = await runCpk(['monitors', 'get', created.stdout.trim(), '--json'], {
      env: { CPK_BASE_URL: info.base_url, CPK_TOKEN: info.token },
    });
    expect(JSON.parse(got.stdout).name).toBe('via command');
    child!.kill('SIGTERM');
    const result = await done;
    expect(result.code).toBe(0);
  });

  it('takes --token', async () => {
    let child: import('node:child_process').ChildProcess | undefined;
    let firstLine: (line: string) => void = () => {};
    const ready = new Promise<string>((resolve) => (firstLine = resolve));
    const done = runCli(['emulator', '--port', '0', '--json', '--quiet', '--token', 'cpk_my_own_token'], {
      onSpawn: (c) => {
        child = c;
        c.stdout!.on('data', (d: Buffer) => firstLine(d.toString().split('\n')[0]!));
      },
    });
    const info = JSON.parse(await ready);
    expect(info.token).toBe('cpk_my_own_token');
    child!.kill('SIGINT');
    expect((await done).code).toBe(0);
  });

  it('refuses a token without the prefix', async () => {
    const r = await runCpk(['emulator', '--port', '0', '--token', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('cpk: --token must start with cpk_\n');
  });
});
