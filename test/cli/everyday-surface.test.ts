// The everyday surface: suggestions in one format, the aliases gh and kubectl
// users type, help that lists commands first with every exit code, and small
// inconsistencies between commands.
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useEmulator } from '../helpers/emulator.js';
import { runCli } from '../helpers/cli.js';
import { runCpk } from '../helpers/in-process.js';
import { runInPty } from '../helpers/pty.js';
import { ExitCode } from '../../src/core/errors.js';
import { commandsFirst, EXIT_CODES } from '../../src/cli/program.js';
import { ENVIRONMENT } from '../../src/cli/environment.js';

const f = useEmulator({}, { inProcess: true });

describe('suggestions read the same everywhere', () => {
  it.each([
    [['monitors', 'show', 'mon_1'], `cpk: unknown command 'show'; did you mean "cpk monitors get"?\n`],
    [['login'], `cpk: unknown command 'login'; did you mean "cpk auth login"?\n`],
    // A command's synonyms and names are found below the level they were typed at, nearest first.
    [['show', 'mon_1'], `cpk: unknown command 'show'; did you mean "cpk monitors get"?\n`],
    [['whoami'], `cpk: unknown command 'whoami'; did you mean "cpk auth status"?\n`],
    [['list'], `cpk: unknown command 'list'; did you mean "cpk monitors list"?\n`],
    [['profile', 'switch', 'x'], `cpk: unknown command 'switch'; did you mean "cpk profile use"?\n`],
    [['monitor', 'list'], `cpk: unknown command 'monitor'; did you mean "cpk monitors"?\n`],
    [['monitors', 'lsit'], `cpk: unknown command 'lsit'; did you mean "cpk monitors list"?\n`],
    [['help', 'monitor'], `cpk: unknown command 'monitor'; did you mean "cpk monitors"?\n`],
    [['monitors', 'list', '--hepl'], `cpk: unknown option '--hepl'; did you mean "--help"?\n`],
    [['bogus'], `cpk: unknown command 'bogus' (see --help)\n`],
    // A list's parameters go through --param: a flag of the parameter's name says so.
    [['monitors', 'list', '--status', 'down'], `cpk: unknown option '--status'; did you mean "--param status=down"?\n`],
    [
      ['monitors', 'list', '--status=down'],
      `cpk: unknown option '--status=down'; did you mean "--param status=down"?\n`,
    ],
    [['monitors', 'list', '--limt', '5'], `cpk: unknown option '--limt'; did you mean "--limit"?\n`],
  ])('cpk %j', async (args, stderr) => {
    const r = await runCpk(args);
    expect(r).toMatchObject({ code: 2, stdout: '', stderr });
  });

  it('cpk help environment lists every variable cpk reads, one list with cpk(1)', async () => {
    const r = await runCpk(['help', 'environment']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout.split('\n')[0]).toBe('Environment variables cpk reads (flags win over them):');
    for (const v of ENVIRONMENT) expect(r.stdout).toMatch(new RegExp(`^  ${v.name} +\\S`, 'm'));
    expect(r.stdout).toMatch(/^ {2}CPK_TOKEN +the API token/m);
  });

  it('cpk version prints what --version prints', async () => {
    const [a, b] = await Promise.all([runCli(['version']), runCli(['--version'])]);
    expect(a).toMatchObject({ code: 0, stderr: '' });
    expect(a.stdout).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
    expect(a.stdout).toBe(b.stdout);
  });

  it('rm deletes, view and describe get, as gh and kubectl users type them', async () => {
    const made = await f.cpk(['monitors', 'create', '--name', 'alias-test', '-q']);
    const id = made.stdout.trim();
    for (const verb of ['view', 'describe']) {
      const r = await f.cpk(['monitors', verb, id, '--json']);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ id, name: 'alias-test' });
    }
    const rm = await f.cpk(['monitors', 'rm', id, '--yes']);
    expect(rm.code).toBe(0);
    expect(f.emu.monitors().map((m) => m.id)).not.toContain(id);
  });

  it('--type htp suggests http from the cached document, and sends nothing', async () => {
    expect((await f.cpk(['monitors', 'list'])).code).toBe(0); // caches the document
    const before = f.emu.monitors().length;
    const r = await f.cpk(['monitors', 'create', '--name', 'x', '--type', 'htp', '--target', 'https://e.example']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^cpk: type must be one of http, [a-z, ]+, not "htp"; did you mean "http"\?; nothing was sent\n$/,
    );
    expect(f.emu.monitors()).toHaveLength(before);
    const made = await f.cpk([
      'monitors',
      'create',
      '--name',
      'y',
      '--type',
      'http',
      '--target',
      'https://e.example',
      '-q',
    ]);
    const u = await f.cpk(['monitors', 'update', made.stdout.trim(), '--type', 'tpc']);
    expect(u.code).toBe(2);
    expect(u.stderr).toContain('did you mean "tcp"?');
  });
});

describe('help', () => {
  it("a group's help lists its commands before the global options, and says no show", async () => {
    const r = await runCpk(['monitors', '--help']);
    const commands = r.stdout.indexOf('\nCommands:\n');
    expect(commands).toBeGreaterThan(0);
    expect(commands).toBeLessThan(r.stdout.indexOf('\nOptions:\n'));
    expect(commands).toBeLessThan(r.stdout.indexOf('\nGlobal Options:\n'));
    expect(r.stdout.split('\n').slice(0, 4).join('\n')).not.toMatch(/\bshow\b/);
  });

  it('commandsFirst moves command sections before option sections and keeps the rest', () => {
    const text = 'Usage: x\n\nAbout\n\nOptions:\n  -a  a\n\nGlobal Options:\n  -g  g\n\nCommands:\n  c  c\n';
    expect(commandsFirst(text)).toBe(
      'Usage: x\n\nAbout\n\nCommands:\n  c  c\n\nOptions:\n  -a  a\n\nGlobal Options:\n  -g  g\n',
    );
  });

  it('the exit-code summary names every exit code, and fits 80 columns', async () => {
    for (const code of Object.values(ExitCode)) expect(EXIT_CODES).toMatch(new RegExp(`[ :]${code} `));
    const r = await runCpk(['--help'], { env: { COLUMNS: '80' } });
    const summary = r.stdout.slice(r.stdout.indexOf('Exit codes:'));
    for (const line of summary.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(summary.replace(/\n/g, ' ').trim()).toBe(EXIT_CODES);
  });
});

describe('small inconsistencies', () => {
  it('monitors update -q prints the id alone, as create -q does', async () => {
    const made = await f.cpk(['monitors', 'create', '--name', 'q-test', '-q']);
    const id = made.stdout.trim();
    const r = await f.cpk(['monitors', 'update', id, '--name', 'q-test-2', '-q']);
    expect(r).toMatchObject({ code: 0, stdout: `${id}\n`, stderr: '' });
  });

  it('cpk api PATH defaults to GET, and to POST with fields', async () => {
    const get = await f.cpk(['api', '/monitors', '--dry-run']);
    expect(get.code).toBe(0);
    expect(get.stdout).toMatch(/^curl http:\S+\/monitors /);
    expect(get.stdout).not.toContain('-X');
    const post = await f.cpk(['api', '/monitors', '--set', 'name=x', '--dry-run']);
    expect(post.stdout).toMatch(/^curl -X POST \S+\/monitors /);
    const real = await f.cpk(['api', '/monitors/nope']);
    expect(real.code).toBe(6);
    const missing = await f.cpk(['api', 'GET']);
    expect(missing).toMatchObject({ code: 2, stderr: 'cpk: missing PATH after GET: e.g. cpk api GET /monitors\n' });
  });

  it('-o table --query is refused in words, not as a JSON object', async () => {
    const r = await f.cpk(['monitors', 'list', '-o', 'table', '--query', 'id']);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe('cpk: --query applies to json, jsonl and yaml output, not -o table\n');
    const json = await f.cpk(['monitors', 'list', '--query', '[[']);
    expect(() => JSON.parse(json.stderr)).not.toThrow();
  });

  it('cpk apply in an empty directory says there is no manifest first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-empty-'));
    const r = await f.cpk(['apply', '-f', join(dir, 'cpk.yaml')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `cpk: cannot read the manifest ${join(dir, 'cpk.yaml')} (ENOENT); write one (see \`cpk help plan\`) or point at it with -f FILE\n`,
    );
  });

  it('the bulk-create table names each new monitor', async () => {
    const input = '{"name":"bulk-a","target":"https://a.example"}\n{"name":"bulk-b","target":"https://b.example"}\n';
    const r = await f.cpk(['monitors', 'create', '--from', '-'], { input });
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.map((l) => l.split('\t')[1]).sort()).toEqual(['bulk-a', 'bulk-b']);
  });
});

describe('a slow list on a terminal', () => {
  it('shows a spinner while the page is on its way', async () => {
    expect((await f.cpk(['monitors', 'list'])).code).toBe(0); // the document is cached: only the page is slow
    f.emu.injectFault({ method: 'GET', path: '/v1/monitors', kind: 'hang' });
    const pty = runInPty(['monitors', 'list'], { env: f.env, columns: 80, rows: 24, timeoutMs: 30_000 });
    // Only to catch a hang: the spinner starts 150 ms into the call.
    await pty.waitFor(/Listing monitors/, 0, 20_000);
    pty.interrupt();
    const { code } = await pty.done;
    expect(code).toBe(130);
  });
});
