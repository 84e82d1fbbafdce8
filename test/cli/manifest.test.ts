// Monitors as code (#6): cpk plan, apply and import through the built CLI
// against the emulator. Each test works in its own directory with monitor
// names of its own, so counting monitors by name on the emulator tells
// whether anything was created twice.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useEmulator } from '../helpers/emulator.js';

const f = useEmulator({}, { inProcess: true });

function workdir(): string {
  return mkdtempSync(join(tmpdir(), 'cpk-mac-'));
}

function write(dir: string, text: string, name = 'cpk.yaml'): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

function state(
  dir: string,
  name = 'cpk.state.json',
): {
  base_url: string;
  monitors: Record<string, { id?: string; create_started_at?: string }>;
  channels: Record<string, unknown>;
} {
  return JSON.parse(readFileSync(join(dir, name), 'utf8'));
}

function named(prefix: string) {
  return f.emu.monitors().filter((m) => String(m.name).startsWith(prefix));
}

/** A manifest of monitors `<prefix> a`, `<prefix> b`, ... */
function manifest(prefix: string, keys: string[], extra = ''): string {
  const monitors = keys
    .map(
      (k) =>
        `  ${k}:\n    name: ${prefix} ${k}\n    type: http\n    target: https://${k}.example.com/health\n    interval: 1m\n`,
    )
    .join('');
  return `monitors:\n${monitors}${extra}`;
}

describe('cpk apply and plan', () => {
  it('first apply creates everything and writes the state; then plan shows no changes (exit 0)', async () => {
    const dir = workdir();
    const file = write(
      dir,
      `${manifest('first', ['web', 'api'])}    tags: [prod, payments]\nchannels:\n  ch_oncall:\n    enabled: false\n    events: [down, up]\n`,
    );

    const before = await f.cpk(['plan', '-f', file]);
    expect(before.stderr).toBe('');
    expect(before.code).toBe(10);
    expect(before.stdout).toContain('+ web: create');
    expect(before.stdout).toContain('Plan: 2 to create, 1 to update, 0 to delete, 0 unchanged.');

    const sent = f.mark();
    const r = await f.cpk(['apply', '-f', file, '--yes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Apply: 2 created, 1 updated, 0 deleted, 0 unchanged, 0 failed.');
    const posts = sent().filter((q) => q.method === 'POST');
    expect(posts.map((q) => JSON.parse(q.body))).toEqual([
      { name: 'first web', type: 'http', target: 'https://web.example.com/health', interval_seconds: 60 },
      {
        name: 'first api',
        type: 'http',
        target: 'https://api.example.com/health',
        interval_seconds: 60,
        tags: ['prod', 'payments'],
      },
    ]);
    const patch = sent().filter((q) => q.method === 'PATCH');
    expect(patch.map((q) => [q.path, JSON.parse(q.body)])).toEqual([
      ['/v1/channels/ch_oncall', { enabled: false, events: ['down', 'up'] }],
    ]);

    const s = state(dir);
    expect(s.base_url).toBe(f.emu.baseUrl);
    expect(Object.keys(s.monitors)).toEqual(['api', 'web']);
    const ids = named('first ')
      .map((m) => m.id)
      .sort();
    expect(ids).toHaveLength(2);
    expect([s.monitors.api!.id, s.monitors.web!.id].sort()).toEqual(ids);
    expect(s.channels).toEqual({ ch_oncall: { applied: { enabled: false, events: ['down', 'up'] } } });
    expect(f.emu.channels().find((c) => c.id === 'ch_oncall')).toMatchObject({
      enabled: false,
      events: ['down', 'up'],
    });
    expect(readdirSync(dir).sort()).toEqual(['cpk.state.json', 'cpk.yaml']); // no temporary file left behind

    const quiet = f.mark();
    const [plan, json, again] = await Promise.all([
      f.cpk(['plan', '-f', file]),
      f.cpk(['plan', '-f', file, '--json']),
      f.cpk(['apply', '-f', file, '--yes']),
    ]);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain(`No changes: the service matches ${file} (3 unchanged).`);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout);
    expect(parsed).toMatchObject({
      changes: false,
      base_url: f.emu.baseUrl,
      summary: { create: 0, update: 0, delete: 0, unchanged: 3 },
    });
    expect(parsed.monitors).toEqual([
      { key: 'web', action: 'unchanged', id: s.monitors.web!.id },
      { key: 'api', action: 'unchanged', id: s.monitors.api!.id },
    ]);
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain('Apply:');
    // Reading only: GETs of the managed monitors, nothing written.
    expect(quiet().every((q) => q.method === 'GET')).toBe(true);
    expect(named('first ')).toHaveLength(2);
  });

  it('an edited field gives exactly one PATCH with exactly that field', async () => {
    const dir = workdir();
    const file = write(dir, manifest('edit', ['one', 'two']));
    expect((await f.cpk(['apply', '-f', file, '--yes'])).code).toBe(0);
    write(
      dir,
      manifest('edit', ['one', 'two']).replace(
        'https://two.example.com/health\n    interval: 1m',
        'https://two.example.com/health\n    interval: 5m',
      ),
    );

    // As Terraform shows a plan: the changes, and only a count of the entries that stay as they are.
    const text = await f.cpk(['plan', '-f', file]);
    expect(text.stdout.split('\n').slice(1)).toEqual([
      '',
      `~ two (${state(dir).monitors.two!.id}): update`,
      '    interval_seconds: 60 -> 300',
      '',
      'Plan: 0 to create, 1 to update, 0 to delete, 1 unchanged.',
      '',
    ]);
    const plan = await f.cpk(['plan', '-f', file, '--json']);
    expect(plan.code).toBe(10);
    const id = state(dir).monitors.two!.id;
    expect(JSON.parse(plan.stdout).monitors[1]).toEqual({
      key: 'two',
      action: 'update',
      id,
      changes: [{ field: 'interval_seconds', from: 60, to: 300 }],
    });

    const sent = f.mark();
    const r = await f.cpk(['apply', '-f', file, '--yes']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`updated two (${id}): interval_seconds`);
    const writes = sent().filter((q) => q.method !== 'GET');
    expect(writes).toHaveLength(1);
    expect(writes[0]!.method).toBe('PATCH');
    expect(writes[0]!.path).toBe(`/v1/monitors/${id}`);
    expect(JSON.parse(writes[0]!.body)).toEqual({ interval_seconds: 300 });
    expect((await f.cpk(['plan', '-f', file])).code).toBe(0);
  });

  it('a removed entry is kept without --prune and deleted with it', async () => {
    const dir = workdir();
    const file = write(dir, manifest('prune', ['keep', 'drop']));
    expect((await f.cpk(['apply', '-f', file, '--yes'])).code).toBe(0);
    const dropId = state(dir).monitors.drop!.id!;
    write(dir, manifest('prune', ['keep']));

    const sent = f.mark();
    const [plan, apply] = await Promise.all([f.cpk(['plan', '-f', file]), f.cpk(['apply', '-f', file, '--yes'])]);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain(`drop (${dropId}): not in the manifest; kept (apply --prune deletes it)`);
    expect(apply.code).toBe(0);
    expect(sent().filter((q) => q.method !== 'GET')).toEqual([]);
    expect(state(dir).monitors.drop!.id).toBe(dropId);

    const pruned = await f.cpk(['plan', '-f', file, '--prune']);
    expect(pruned.code).toBe(10);
    expect(pruned.stdout).toContain(`- drop (${dropId}): delete`);
    const del = f.mark();
    const r = await f.cpk(['apply', '-f', file, '--yes', '--prune']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Apply: 0 created, 0 updated, 1 deleted, 1 unchanged, 0 failed.');
    expect(
      del()
        .filter((q) => q.method !== 'GET')
        .map((q) => `${q.method} ${q.path}`),
    ).toEqual([`DELETE /v1/monitors/${dropId}`]);
    expect(named('prune ').map((m) => m.name)).toEqual(['prune keep']);
    expect(Object.keys(state(dir).monitors)).toEqual(['keep']);
  });

  it('re-creates a monitor deleted behind its back, after saying so; the other is left alone', async () => {
    const dir = workdir();
    const file = write(dir, manifest('gone', ['svc', 'kept']));
    expect((await f.cpk(['apply', '-f', file, '--yes'])).code).toBe(0);
    const old = state(dir).monitors.svc!.id!;
    const kept = state(dir).monitors.kept!.id!;
    expect((await f.cpk(['monitors', 'delete', old, '--yes'])).code).toBe(0);

    const plan = await f.cpk(['plan', '-f', file]);
    expect(plan.code).toBe(10);
    expect(plan.stdout).toContain(`+ svc: create (${old} answers 404`);
    expect(plan.stderr).toBe('');
    const sent = f.mark();
    const r = await f.cpk(['apply', '-f', file, '--yes']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`warning: monitor ${old} of "svc" answers 404 (deleted outside cpk); creating it again`);
    expect(
      sent()
        .filter((q) => q.method !== 'GET')
        .map((q) => [q.method, q.path, JSON.parse(q.body).name]),
    ).toEqual([['POST', '/v1/monitors', 'gone svc']]);
    const now = named('gone svc');
    expect(now).toHaveLength(1);
    expect(now[0]!.id).not.toBe(old);
    expect(state(dir).monitors).toEqual({ svc: { id: now[0]!.id }, kept: { id: kept } });
  });

  it('a manifest with type errors is rejected with file:line:column and nothing is sent', async () => {
    const dir = workdir();
    const file = write(
      dir,
      [
        'monitors:',
        '  checkout:',
        '    name: Checkout',
        '    interval_seconds: sixty',
        '  search:',
        '    target: https://search.example.com',
        '    paused: "no"',
        'channels:',
        '  ch_ops:',
        '    enabled: yes please',
        '',
      ].join('\n'),
    );
    const sent = f.mark();
    const results = await Promise.all([f.cpk(['plan', '-f', file]), f.cpk(['apply', '-f', file, '--yes'])]);
    for (const r of results) {
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        [
          `${file}:4:23: monitors.checkout.interval_seconds must be an integer`,
          `${file}:5:3: monitors.search: missing required field "name"`,
          `${file}:7:13: monitors.search.paused must be true or false`,
          `${file}:10:14: channels.ch_ops.enabled must be true or false`,
          `cpk: ${file} is not a valid manifest (4 problems); nothing was sent`,
          '',
        ].join('\n'),
      );
    }
    const json = await f.cpk(['plan', '-f', file, '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stderr).error).toContain(
      `${file}:4:23: monitors.checkout.interval_seconds must be an integer; ${file}:5:3:`,
    );
    // Only the service's public document, read without the token to check the entries that could be read.
    expect(sent().filter((q) => q.path !== '/v1/openapi.json' || q.headers.authorization !== undefined)).toEqual([]);
    expect(readdirSync(dir)).toEqual(['cpk.yaml']);
  });

  it('reports YAML syntax errors and bad durations with their position', async () => {
    const dir = workdir();
    const syntax = write(dir, 'monitors:\n  a:\n    name: x\n    name: y\n', 'dup.yaml');
    const duration = write(
      dir,
      'monitors:\n  a:\n    name: x\n    interval: 1m1m\n  b:\n    name: y\n    interval: 1m\n    interval_seconds: 60\n',
      'dur.json',
    );
    const [r1, r2] = await Promise.all([f.cpk(['plan', '-f', syntax]), f.cpk(['plan', '-f', duration])]);
    expect(r1.code).toBe(2);
    expect(r1.stderr).toContain(`${syntax}:4:5: Map keys must be unique\n`);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain(
      `${duration}:4:15: monitors.a.interval: invalid interval "1m1m": unit "m" given twice\n`,
    );
    expect(r2.stderr).toContain(`${duration}:7:5: monitors.b: give interval or interval_seconds, not both\n`);
  });

  it('reads the same structure as JSON', async () => {
    const dir = workdir();
    const file = write(
      dir,
      JSON.stringify({ monitors: { j: { name: 'json j', interval_seconds: 90 } } }, null, 2),
      'monitors.json',
    );
    const r = await f.cpk(['apply', '-f', file, '--yes']);
    expect(r.code).toBe(0);
    expect(named('json ')).toMatchObject([{ name: 'json j', interval_seconds: 90 }]);
    expect(Object.keys(state(dir, 'monitors.state.json').monitors)).toEqual(['j']);
  });

  it('refuses a state file recorded for another base URL (exit 2) unless --state points elsewhere', async () => {
    const dir = workdir();
    const file = write(dir, manifest('url', ['a']));
    expect((await f.cpk(['apply', '-f', file, '--yes'])).code).toBe(0);
    const other = f.emu.baseUrl.replace('127.0.0.1', 'localhost');
    const sent = f.mark();
    const refused = await f.cpk(['apply', '-f', file, '--yes', '--base-url', other]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `cpk: the state file ${join(dir, 'cpk.state.json')} records monitors of ${f.emu.baseUrl}, but cpk is pointed at ${other}; point cpk at that service (--base-url, CPK_BASE_URL), or keep a separate state for this one with --state FILE\n`,
    );
    // Nothing but the public document, read to validate the entries (#15).
    expect(sent().filter((q) => q.path !== '/v1/openapi.json')).toEqual([]);
    const elsewhere = await f.cpk(['plan', '-f', file, '--base-url', other, '--state', join(dir, 'local.state.json')]);
    expect(elsewhere.code).toBe(10);
    expect(elsewhere.stdout).toContain('+ a: create');
  });

  it('when no recorded monitor exists for the token (another account), plan warns and apply refuses unless --recreate-missing', async () => {
    const dir = workdir();
    const file = write(dir, manifest('acct', ['a', 'b']));
    expect((await f.cpk(['apply', '-f', file, '--yes'])).code).toBe(0);
    const statePath = join(dir, 'cpk.state.json');
    const before = readFileSync(statePath);
    const other = { env: { CPK_TOKEN: 'cpk_test_other' } };

    const plan = await f.cpk(['plan', '-f', file], other);
    expect(plan.code).toBe(10);
    expect(plan.stderr).toBe(
      `warning: none of the 2 monitors ${statePath} records exists for this token (all answer 404): the token may belong to another account, or the base URL to another environment; apply refuses to create them all again unless given --recreate-missing\n`,
    );

    const sent = f.mark();
    const refused = await f.cpk(['apply', '-f', file, '--yes'], other);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      `cpk: none of the 2 monitors ${statePath} records exists for this token (all answer 404); nothing was changed; the token may belong to another account, or the base URL (${f.emu.baseUrl}) to another environment, or the monitors were deleted elsewhere: check the token and --base-url; to create them all again, pass --recreate-missing\n`,
    );
    expect(sent().filter((q) => q.method !== 'GET')).toEqual([]);
    expect(readFileSync(statePath)).toEqual(before);
    expect(f.emu.monitors('acct_other').filter((m) => String(m.name).startsWith('acct '))).toEqual([]);

    const forced = await f.cpk(['apply', '-f', file, '--yes', '--recreate-missing'], other);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain('Apply: 2 created, 0 updated, 0 deleted, 0 unchanged, 0 failed.');
    const made = f.emu.monitors('acct_other').filter((m) => String(m.name).startsWith('acct '));
    expect(made.map((m) => m.name).sort()).toEqual(['acct a', 'acct b']);
    expect(Object.values(state(dir).monitors).map((r) => r.id)).toEqual(
      ['acct a', 'acct b'].map((name) => made.find((m) => m.name === name)!.id),
    );
  });

  it('off a terminal, apply requires --yes and sends nothing without it', async () => {
    const dir = workdir();
    const file = write(dir, manifest('noyes', ['a']));
    const sent = f.mark();
    const r = await f.cpk(['apply', '-f', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('cpk: refusing to apply without --yes (stdin is not a terminal); nothing was sent\n');
    expect(sent()).toEqual([]);
  });

  it('a failed create fails apply, keeps the others recorded, and the next apply completes it', async () => {
    const dir = workdir();
    const file = write(dir, manifest('partial', ['a', 'b', 'c']));
    f.emu.injectFault({
      method: 'POST',
      path: '/v1/monitors',
      status: 503,
      times: 1,
      body: JSON.stringify({ error: 'busy, try later', request_id: 'req_busy' }),
    });
    const r = await f.cpk(['apply', '-f', file, '--yes', '--concurrency', '1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('cpk: create a: busy, try later (request id: req_busy)\n');
    expect(r.stdout).toContain('Apply: 2 created, 0 updated, 0 deleted, 0 unchanged, 1 failed.');
    expect(r.stderr).toMatch(
      /cpk: 1 of 3 changes failed \(see above\); .* records what was done; run cpk apply again to retry\n$/,
    );
    // The service refused it, so nothing is uncertain: the next apply simply creates it.
    expect(state(dir).monitors.a).toBeUndefined();
    const again = await f.cpk(['apply', '-f', file, '--yes']);
    expect(again.code).toBe(0);
    expect(
      named('partial ')
        .map((m) => m.name)
        .sort(),
    ).toEqual(['partial a', 'partial b', 'partial c']);
  });

  it('with --json, a failed change ends apply with one JSON error whose message names where the details are', async () => {
    const dir = workdir();
    const file = write(dir, manifest('jsonfail', ['a']));
    f.emu.injectFault({
      method: 'POST',
      path: '/v1/monitors',
      status: 422,
      times: 1,
      body: '{"error":"no","request_id":"r"}',
    });
    const r = await f.cpk(['apply', '-f', file, '--yes', '--json']);
    expect(r.code).toBe(7);
    expect(JSON.parse(r.stdout).monitors[0]).toMatchObject({ key: 'a', result: 'failed' });
    expect(JSON.parse(r.stderr).error).toMatch(
      /^1 of 1 changes failed \(see "error" in the result\); .* records what was done; run cpk apply again to retry$/,
    );
  });

  it('channel settings are PATCHed when they differ from what was last applied, one field at a time', async () => {
    const dir = workdir();
    const file = write(dir, 'channels:\n  ch_slack:\n    enabled: true\n    target: "#alerts"\n');
    expect((await f.cpk(['apply', '-f', file, '--yes'])).code).toBe(0);
    expect((await f.cpk(['plan', '-f', file])).code).toBe(0);
    write(dir, 'channels:\n  ch_slack:\n    enabled: true\n    target: "#ops"\n');
    const sent = f.mark();
    const r = await f.cpk(['apply', '-f', file, '--yes']);
    expect(r.code).toBe(0);
    expect(sent().map((q) => [q.method, q.path, JSON.parse(q.body)])).toEqual([
      ['PATCH', '/v1/channels/ch_slack', { target: '#ops' }],
    ]);
    expect(state(dir).channels).toEqual({ ch_slack: { applied: { enabled: true, target: '#ops' } } });
  });

  it('apply --json prints every step with its result', async () => {
    const dir = workdir();
    const file = write(dir, manifest('json', ['x']));
    const r = await f.cpk(['apply', '-f', file, '--yes', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const id = state(dir).monitors.x!.id;
    expect(JSON.parse(r.stdout)).toEqual({
      manifest: file,
      state: join(dir, 'cpk.state.json'),
      base_url: f.emu.baseUrl,
      monitors: [
        {
          key: 'x',
          action: 'create',
          body: { name: 'json x', type: 'http', target: 'https://x.example.com/health', interval_seconds: 60 },
          result: 'done',
          id,
        },
      ],
      channels: [],
      summary: { created: 1, updated: 0, deleted: 0, unchanged: 0, failed: 0, skipped: 0 },
    });
  });
});

describe('starting from existing monitors', () => {
  it('monitors get --manifest prints an entry that, once imported, plans no changes', async () => {
    const created = await f.cpk([
      'monitors',
      'create',
      '--name',
      'Adopted API',
      '--target',
      'https://adopt.example.com',
      '--interval',
      '90',
      '--set',
      'tags=["x"]',
      '-q',
    ]);
    const id = created.stdout.trim();
    const entry = await f.cpk(['monitors', 'get', id, '--manifest']);
    expect(entry.code).toBe(0);
    expect(entry.stdout).toBe(
      [
        `# adopt with: cpk import adopted-api=${id}`,
        'monitors:',
        '  adopted-api:',
        '    name: Adopted API',
        '    type: http',
        '    target: https://adopt.example.com',
        '    interval: 1m30s',
        '    paused: false',
        '    tags:',
        '      - x',
        '',
      ].join('\n'),
    );
    const json = await f.cpk(['monitors', 'get', id, '--manifest', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({
      monitors: {
        'adopted-api': {
          name: 'Adopted API',
          type: 'http',
          target: 'https://adopt.example.com',
          interval: '1m30s',
          paused: false,
          tags: ['x'],
        },
      },
    });

    const second = await f.create({ name: 'Adopted API' });
    const both = await f.cpk(['monitors', 'get', id, second, '--manifest']);
    expect(both.code).toBe(0);
    expect(both.stdout.split('\n')[0]).toBe(`# adopt with: cpk import adopted-api=${id} adopted-api-2=${second}`);
    expect(both.stdout).toContain('\n  adopted-api-2:\n    name: Adopted API\n');

    const dir = workdir();
    const file = write(dir, entry.stdout);
    const sent = f.mark();
    const imported = await f.spawned(['import', `adopted-api=${id}`, '-f', file]);
    expect(imported.code).toBe(0);
    expect(imported.stderr).toContain(`imported adopted-api: ${id}`);
    expect(sent().map((q) => `${q.method} ${q.path}`)).toEqual([`GET /v1/monitors/${id}`]);
    expect(state(dir).monitors).toEqual({ 'adopted-api': { id } });
    expect((await f.cpk(['plan', '-f', file])).code).toBe(0);
  });

  it('import refuses unknown keys and ids, and keys that manage another monitor', async () => {
    const dir = workdir();
    const file = write(dir, manifest('imp', ['a', 'b']));
    const id = await f.create({ name: 'imp other' });
    const [unknownKey, missing] = await Promise.all([
      f.cpk(['import', `zzz=${id}`, '-f', file]),
      f.cpk(['import', 'a=mon_doesnotexist', '-f', file]),
    ]);
    expect(unknownKey.code).toBe(2);
    expect(unknownKey.stderr).toContain('"zzz" is not a monitor key in');
    expect(missing.code).toBe(6);
    expect(missing.stderr).toContain('cpk: a=mon_doesnotexist: monitor not found');
    expect(() => state(dir)).toThrow(); // nothing was recorded

    expect((await f.cpk(['import', `a=${id}`, '-f', file])).code).toBe(0);
    const other = await f.create({ name: 'imp third' });
    // One after the other: two imports on one state exclude each other (the lock: exit 75).
    const taken = await f.cpk(['import', `a=${other}`, '-f', file]);
    const twice = await f.cpk(['import', `b=${id}`, '-f', file]);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain(`"a" already manages ${id}`);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain(`monitor ${id} is already managed as "a"`);
    expect((await f.cpk(['import', `a=${other}`, '-f', file, '--replace'])).code).toBe(0);
    expect(state(dir).monitors).toEqual({ a: { id: other } });
  });
});
