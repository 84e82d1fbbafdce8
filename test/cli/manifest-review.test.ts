// Monitors as code in teams: several manifest files or a
// directory, saved plans (`plan --out`, `apply PLAN`), and plans for reviews
// (`plan -o json`, `plan -o markdown`), through the built CLI against the
// emulator.
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useEmulator } from '../helpers/emulator.js';

const f = useEmulator({}, { inProcess: true });

function workdir(): string {
  return mkdtempSync(join(tmpdir(), 'cpk-review-'));
}

function write(dir: string, name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

function entry(prefix: string, key: string): string {
  return `  ${key}:\n    name: ${prefix} ${key}\n    type: http\n    target: https://${key}.example.com/health\n`;
}

function named(prefix: string) {
  return f.emu.monitors().filter((m) => String(m.name).startsWith(`${prefix} `));
}

describe('several manifest files and directories', () => {
  it('a directory: every *.yaml, *.yml and *.json in it, sorted; the state inside it', async () => {
    const dir = join(workdir(), 'monitoring');
    mkdirSync(dir);
    mkdirSync(join(dir, 'nested'));
    write(dir, 'b.yml', `monitors:\n${entry('dir', 'b')}`);
    write(dir, 'a.yaml', `monitors:\n${entry('dir', 'a')}`);
    write(dir, 'c.json', JSON.stringify({ monitors: { c: { name: 'dir c' } } }));
    write(dir, 'notes.txt', 'not a manifest');
    write(join(dir, 'nested'), 'd.yaml', `monitors:\n${entry('dir', 'd')}`);

    const sent = f.mark();
    const r = await f.cpk(['apply', '-f', dir, '--yes']);
    expect(r.stderr).not.toContain('cpk:');
    expect(r.code).toBe(0);
    expect(
      sent()
        .filter((q) => q.method === 'POST')
        .map((q) => JSON.parse(q.body).name),
    ).toEqual(['dir a', 'dir b', 'dir c']);
    const state = JSON.parse(readFileSync(join(dir, 'cpk.state.json'), 'utf8'));
    expect(Object.keys(state.monitors)).toEqual(['a', 'b', 'c']);
    expect(named('dir')).toHaveLength(3);
    // The state file (a *.json) in the directory is not read as a manifest.
    const again = await f.cpk(['plan', '-f', dir]);
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['a.yaml', 'b.yml', 'c.json', 'cpk.state.json', 'nested', 'notes.txt']);
  });

  it('several files: entries of all of them, and --state is required', async () => {
    const dir = workdir();
    const a = write(dir, 'a.yaml', `monitors:\n${entry('files', 'a')}`);
    const b = write(dir, 'b.yaml', `monitors:\n${entry('files', 'b')}`);
    const sent = f.mark();
    const missing = await f.cpk(['plan', '-f', a, '-f', b]);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe(
      'cpk: with several manifest files, name the state file with --state FILE (e.g. --state cpk.state.json); nothing was sent\n',
    );
    expect(sent()).toEqual([]);

    const r = await f.cpk(['plan', '-f', a, '-f', b, '--state', join(dir, 'cpk.state.json'), '--json']);
    expect(r.code).toBe(10);
    expect(JSON.parse(r.stdout).monitors.map((m: { key: string }) => m.key)).toEqual(['a', 'b']);
  });

  it('a key defined in two files is an error naming both places; nothing is sent', async () => {
    const dir = join(workdir(), 'monitoring');
    mkdirSync(dir);
    const a = write(dir, 'a.yaml', `monitors:\n${entry('dup', 'one')}${entry('dup', 'web')}`);
    const b = write(dir, 'b.yaml', `# the web team's\nmonitors:\n  web:\n    name: dup web again\n`);
    const sent = f.mark();
    const r = await f.cpk(['apply', '-f', dir, '--yes']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      [
        `${b}:3:3: monitors.web is defined twice: here and at ${a}:6:3`,
        `cpk: ${dir} is not a valid manifest (1 problem); nothing was sent`,
        '',
      ].join('\n'),
    );
    // Only the service's public document, read without the token to check the entries.
    expect(sent().filter((q) => q.path !== '/v1/openapi.json' || q.headers.authorization !== undefined)).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual(['a.yaml', 'b.yaml']);
  });

  it('an empty directory is a usage error', async () => {
    const dir = workdir();
    const r = await f.cpk(['plan', '-f', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`cpk: no manifest in the directory ${dir} (cpk reads its *.yaml, *.yml and *.json files)\n`);
  });
});

describe('saved plans', () => {
  const DIGEST = /^sha256:[0-9a-f]{64}$/;
  const writes = <T extends { method: string }>(requests: T[]) => requests.filter((q) => q.method !== 'GET');

  it('apply PLAN sends exactly the saved plan, whatever the manifest says by then', async () => {
    const dir = workdir();
    const file = write(dir, 'cpk.yaml', `monitors:\n${entry('saved', 'a')}${entry('saved', 'b')}`);
    const made = await f.cpk(['plan', '-f', file, '--out', join(dir, 'plan.json')]);
    expect(made.code).toBe(10);
    expect(made.stderr).toBe(
      `saved the plan to ${join(dir, 'plan.json')}; carry it out with: cpk apply ${join(dir, 'plan.json')}\n`,
    );
    // It holds every body apply would send: readable by its owner only.
    expect(statSync(join(dir, 'plan.json')).mode & 0o777).toBe(0o600);
    // Edited after the review: the saved plan, not this, is what apply does.
    write(dir, 'cpk.yaml', `monitors:\n${entry('saved', 'c')}`);

    const sent = f.mark();
    const r = await f.cpk(['apply', join(dir, 'plan.json'), '--yes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Apply: 2 created, 0 updated, 0 deleted, 0 unchanged, 0 failed.');
    expect(writes(sent()).map((q) => [q.method, q.path, JSON.parse(q.body)])).toEqual([
      ['POST', '/v1/monitors', { name: 'saved a', type: 'http', target: 'https://a.example.com/health' }],
      ['POST', '/v1/monitors', { name: 'saved b', type: 'http', target: 'https://b.example.com/health' }],
    ]);
    const state = JSON.parse(readFileSync(join(dir, 'cpk.state.json'), 'utf8'));
    expect(Object.keys(state.monitors)).toEqual(['a', 'b']);
    expect(named('saved')).toHaveLength(2);
  });

  it('a plan is refused once the state file changed; nothing is sent', async () => {
    const dir = workdir();
    const file = write(dir, 'cpk.yaml', `monitors:\n${entry('stale-state', 'a')}`);
    const plan = join(dir, 'plan.json');
    expect((await f.cpk(['plan', '-f', file, '--out', plan])).code).toBe(10);
    // Someone else applied in between: the plan's create would now make a second monitor.
    expect((await f.cpk(['apply', '-f', file, '--yes'])).code).toBe(0);

    const sent = f.mark();
    const r = await f.cpk(['apply', plan, '--yes']);
    const made = JSON.parse(readFileSync(plan, 'utf8')).created_at;
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `cpk: ${plan} is stale: since it was made (${made}), the state file ${join(dir, 'cpk.state.json')} changed; nothing was sent; run cpk plan --out ${plan} again, review it, and apply that\n`,
    );
    expect(writes(sent())).toEqual([]);
    expect(named('stale-state')).toHaveLength(1);
  });

  it('a plan is refused once a monitor it read changed; nothing is sent', async () => {
    const dir = workdir();
    const file = write(dir, 'cpk.yaml', `monitors:\n${entry('stale-live', 'a')}${entry('stale-live', 'b')}`);
    expect((await f.cpk(['apply', '-f', file, '--yes'])).code).toBe(0);
    const ids = JSON.parse(readFileSync(join(dir, 'cpk.state.json'), 'utf8')).monitors;
    write(dir, 'cpk.yaml', `monitors:\n${entry('stale-live', 'a')}${entry('stale-live', 'b')}    interval: 5m\n`);
    const plan = join(dir, 'plan.json');
    expect((await f.cpk(['plan', '-f', file, '--out', plan])).code).toBe(10);
    // Changed outside cpk after the plan read it.
    expect((await f.cpk(['monitors', 'update', ids.a.id, '--target', 'https://elsewhere.example.com'])).code).toBe(0);

    const sent = f.mark();
    const r = await f.cpk(['apply', plan, '--yes']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      new RegExp(
        `^cpk: ${plan.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is stale: since it was made \\(.+\\), monitor a \\(${ids.a.id}\\) changed; nothing was sent; run cpk plan --out .+ again, review it, and apply that\n$`,
      ),
    );
    // It read the two monitors again, and wrote nothing.
    expect(sent().map((q) => [q.method, q.path])).toEqual(
      expect.arrayContaining([
        ['GET', `/v1/monitors/${ids.a.id}`],
        ['GET', `/v1/monitors/${ids.b.id}`],
      ]),
    );
    expect(writes(sent())).toEqual([]);
  });

  it('a plan whose one recorded monitor answers 404 for its token is refused by apply unless --recreate-missing', async () => {
    const dir = workdir();
    const file = write(dir, 'cpk.yaml', `monitors:\n${entry('saved-gone', 'a')}`);
    expect((await f.cpk(['apply', '-f', file, '--yes'])).code).toBe(0);
    const statePath = join(dir, 'cpk.state.json');
    const before = readFileSync(statePath);
    // Planned and applied with a token of another account: the plan is bound to it, so only this rule stops it.
    const other = { env: { CPK_TOKEN: 'cpk_test_other' } };
    const plan = join(dir, 'plan.json');
    const made = await f.cpk(['plan', '-f', file, '--out', plan], other);
    expect(made.code).toBe(10);
    expect(made.stderr).toContain(
      `warning: the monitor ${statePath} records does not exist for this token (it answers 404): the token may belong to another account, or the base URL to another environment; apply refuses to create it again unless given --recreate-missing\n`,
    );

    const sent = f.mark();
    const refused = await f.cpk(['apply', plan, '--yes'], other);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(
      /^cpk: the monitor .+ records does not exist for this token \(it answers 404\); nothing was changed; .+ pass --recreate-missing\n$/,
    );
    expect(writes(sent())).toEqual([]);
    expect(readFileSync(statePath)).toEqual(before);

    const forced = await f.cpk(['apply', plan, '--yes', '--recreate-missing'], other);
    expect(forced.code, forced.stderr).toBe(0);
    const created = f.emu.monitors('acct_other').filter((m) => m.name === 'saved-gone a');
    expect(created).toHaveLength(1);
    expect(JSON.parse(readFileSync(statePath, 'utf8')).monitors).toEqual({ a: { id: created[0]!.id } });
  });

  it('a malformed plan, a plan of another version, service or token is refused (exit 2, nothing sent)', async () => {
    const dir = workdir();
    const file = write(dir, 'cpk.yaml', `monitors:\n${entry('refused', 'a')}`);
    const plan = join(dir, 'plan.json');
    expect((await f.cpk(['plan', '-f', file, '--out', plan])).code).toBe(10);
    const good = JSON.parse(readFileSync(plan, 'utf8'));
    const cases: Array<[string, string, string[], Record<string, string>]> = [
      ['bad.json', '{"version": 1,', [], {}],
      ['v2.json', JSON.stringify({ ...good, version: 2 }), [], {}],
      ['odd.json', JSON.stringify({ ...good, monitors: [{ key: 'a', action: 'create' }] }), [], {}],
      ['plan.json', '', ['--base-url', 'http://127.0.0.1:9/v1'], {}],
      ['plan.json', '', [], { CPK_TOKEN: 'cpk_test_someone_else' }],
    ];
    const sent = f.mark();
    const results = [];
    for (const [name, text, args, env] of cases) {
      if (text) write(dir, name, text);
      results.push(await f.cpk(['apply', join(dir, name), '--yes', ...args], { env }));
    }
    expect(results.map((r) => [r.code, r.stdout, r.stderr])).toEqual([
      [
        2,
        '',
        `cpk: ${join(dir, 'bad.json')} is not a cpk plan: it is not valid JSON (line 1, column 15); nothing was sent; make one with cpk plan --out FILE\n`,
      ],
      [
        2,
        '',
        `cpk: ${join(dir, 'v2.json')} is a plan of format version 2, and this cpk reads version 1; nothing was sent; make the plan again with this cpk (cpk plan --out FILE)\n`,
      ],
      [
        2,
        '',
        `cpk: ${join(dir, 'odd.json')} is not a cpk plan: monitors.0 must have required property 'body'; nothing was sent; make one with cpk plan --out FILE\n`,
      ],
      [
        2,
        '',
        `cpk: ${plan} was made for ${f.emu.baseUrl}, but cpk is pointed at http://127.0.0.1:9/v1; nothing was sent; point cpk at that service (--base-url, CPK_BASE_URL), or make a plan for this one\n`,
      ],
      [
        2,
        '',
        `cpk: ${plan} was made with another token (the service cannot say which account a token belongs to, so a plan is bound to its token); nothing was sent; apply it with the token it was made with, or make the plan again with this one\n`,
      ],
    ]);
    expect(sent()).toEqual([]);
    expect(named('refused')).toHaveLength(0);

    const mixed = await f.cpk(['apply', plan, '--yes', '-f', file, '--prune']);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toBe(
      'cpk: -f, --prune cannot be given with a saved plan: the plan already says what to do and where (make it again with cpk plan --out FILE)\n',
    );
  });

  it('plan --out refuses to overwrite the manifest or the state file', async () => {
    const dir = workdir();
    const file = write(dir, 'cpk.yaml', `monitors:\n${entry('out', 'a')}`);
    const sent = f.mark();
    const results = await Promise.all([
      f.cpk(['plan', '-f', file, '--out', file]),
      f.cpk(['plan', '-f', file, '--out', join(dir, 'cpk.state.json')]),
    ]);
    expect(results.map((r) => [r.code, r.stdout, r.stderr])).toEqual([
      [2, '', `cpk: --out ${file} is the manifest or the state file; choose another file\n`],
      [2, '', `cpk: --out ${join(dir, 'cpk.state.json')} is the manifest or the state file; choose another file\n`],
    ]);
    expect(sent()).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe(`monitors:\n${entry('out', 'a')}`);
  });

  it('plan --out refuses each file of a directory of manifests too', async () => {
    const dir = join(workdir(), 'monitoring');
    mkdirSync(dir);
    const file = write(dir, 'a.yaml', `monitors:\n${entry('outdir', 'a')}`);
    const sent = f.mark();
    const r = await f.cpk(['plan', '-f', dir, '--out', file]);
    expect([r.code, r.stdout, r.stderr]).toEqual([
      2,
      '',
      `cpk: --out ${file} is the manifest or the state file; choose another file\n`,
    ]);
    expect(sent()).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe(`monitors:\n${entry('outdir', 'a')}`);
  });

  it('plan -o json prints the saved plan document (schema/plan.schema.json), exactly', async () => {
    const dir = workdir();
    const file = write(dir, 'cpk.yaml', `monitors:\n${entry('json', 'a')}`);
    expect((await f.cpk(['apply', '-f', file, '--yes'])).code).toBe(0);
    const id = JSON.parse(readFileSync(join(dir, 'cpk.state.json'), 'utf8')).monitors.a.id;
    write(dir, 'cpk.yaml', `monitors:\n${entry('json', 'a')}    interval: 5m\n${entry('json', 'b')}`);
    const plan = join(dir, 'plan.json');
    const [json, legacy, saved] = await Promise.all([
      f.cpk(['plan', '-f', file, '-o', 'json']),
      f.cpk(['plan', '-f', file, '--json']),
      f.cpk(['plan', '-f', file, '--out', plan, '-o', 'json']),
    ]);
    expect([json.code, legacy.code, saved.code]).toEqual([10, 10, 10]);
    expect([json.stderr, legacy.stderr, saved.stderr]).toEqual(['', '', '']);
    const parsed = JSON.parse(json.stdout);
    expect(parsed).toEqual({
      version: 1,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      manifest: file,
      state: join(dir, 'cpk.state.json'),
      base_url: f.emu.baseUrl,
      token: expect.stringMatching(/^sha256:[0-9a-f]{16}$/),
      changes: true,
      monitors: [
        { key: 'a', action: 'update', id, changes: [{ field: 'interval_seconds', from: 60, to: 300 }] },
        {
          key: 'b',
          action: 'create',
          body: { name: 'json b', type: 'http', target: 'https://b.example.com/health' },
        },
      ],
      channels: [],
      dropped_channels: [],
      summary: { create: 1, update: 1, delete: 0, unchanged: 0, uncertain: 0, orphaned: 0, forget: 0 },
      fingerprints: {
        state: expect.stringMatching(DIGEST),
        monitors: [{ key: 'a', id, digest: expect.stringMatching(DIGEST) }],
      },
    });
    // --json, -o json and the saved file are one document.
    const dated = (text: string) => ({ ...JSON.parse(text), created_at: 'T' });
    expect(dated(legacy.stdout)).toEqual(dated(json.stdout));
    expect(dated(saved.stdout)).toEqual(dated(json.stdout));
    expect(dated(readFileSync(plan, 'utf8'))).toEqual(dated(json.stdout));
    // And the published schema describes it.
    const { Ajv } = await import('ajv');
    const schema = JSON.parse(readFileSync(join(import.meta.dirname, '../../schema/plan.schema.json'), 'utf8'));
    const validate = new Ajv({ allowUnionTypes: true, strict: false }).compile(schema);
    expect(validate(parsed), JSON.stringify(validate.errors)).toBe(true);
  });

  it('plan -o markdown prints a summary and a collapsible diff for a pull request', async () => {
    const dir = workdir();
    const file = write(dir, 'cpk.yaml', `monitors:\n${entry('md', 'a')}`);
    expect((await f.cpk(['apply', '-f', file, '--yes'])).code).toBe(0);
    const id = JSON.parse(readFileSync(join(dir, 'cpk.state.json'), 'utf8')).monitors.a.id;
    write(
      dir,
      'cpk.yaml',
      `monitors:\n${entry('md', 'a')}    interval: 5m\n${entry('md', 'b')}    tags: ["x\`\`\`y"]\n`,
    );
    const r = await f.cpk(['plan', '-f', file, '-o', 'markdown']);
    expect(r.code).toBe(10);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      [
        '### cpk plan: 1 to create, 1 to update, 0 to delete',
        '',
        `Plan for \`${file}\` against \`${f.emu.baseUrl}\` (state: \`${join(dir, 'cpk.state.json')}\`).`,
        '',
        '| Monitors and channels | Count |',
        '| --- | ---: |',
        '| to create | 1 |',
        '| to update | 1 |',
        '| to delete | 0 |',
        '',
        '<details>',
        '<summary>Changes (2)</summary>',
        '',
        '````diff',
        `! a (${id}): update`,
        '-     interval_seconds: 60',
        '+     interval_seconds: 300',
        '+ b: create',
        '+     name: "md b"',
        '+     type: "http"',
        '+     target: "https://b.example.com/health"',
        '+     tags: ["x```y"]',
        '````',
        '',
        '</details>',
        '',
      ].join('\n'),
    );

    write(dir, 'cpk.yaml', `monitors:\n${entry('md', 'a')}`);
    const none = await f.cpk(['plan', '-f', file, '-o', 'markdown']);
    expect(none.code).toBe(0);
    expect(none.stdout).toBe(
      `### cpk plan: no changes\n\nThe service matches \`${file}\` against \`${f.emu.baseUrl}\` (state: \`${join(dir, 'cpk.state.json')}\`): 1 unchanged.\n`,
    );
  });
});
