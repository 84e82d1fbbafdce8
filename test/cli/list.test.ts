// `cpk monitors|channels|reports list`: the service's declared list (the
// emulator declares cursor-paged lists) and the local inventory (a server
// that declares nothing, test/helpers/reference-server.ts).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { runCpk } from '../helpers/in-process.js';
import { useReferenceServer } from '../helpers/reference-server.js';
import { CURSOR_PAGED_MONITORS } from '../helpers/paged-document.js';
import { MAX_LIST_PAGES } from '../../src/core/api/list.js';
import { parse as parseYaml } from 'yaml';

// A token of the development account that may read reports and nothing else: no list of monitors for it.
const REPORTS_ONLY = 'cpk_reports_only_token';
const f = useEmulator(
  { tokens: [{ account: 'acct_dev', token: REPORTS_ONLY, scopes: ['reports:read'] }] },
  { inProcess: true },
);
const dirs = () => ({
  CPK_DATA_DIR: mkdtempSync(join(tmpdir(), 'cpk-data-')),
  CPK_CACHE_DIR: mkdtempSync(join(tmpdir(), 'cpk-cache-')),
});

describe('list through the operation the service declares', () => {
  it('follows the cursor over several pages, streaming one JSON line per monitor', async () => {
    const env = dirs();
    const team = `t${Date.now()}`;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(await f.create({ name: `list-${i}`, team }));
    }
    const seen = f.mark();
    const r = await f.cpk(['monitors', 'list', '--param', 'limit=2', '-o', 'jsonl'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const listed = r.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; team?: string });
    expect(listed.filter((m) => m.team === team).map((m) => m.id)).toEqual([...ids].sort());
    const pages = seen().filter((q) => q.path.startsWith('/v1/monitors?'));
    expect(pages.length).toBeGreaterThanOrEqual(3); // 5 monitors or more, 2 per page
    expect(pages[1]?.path).toMatch(/^\/v1\/monitors\?limit=2&cursor=/);
    // The document was fetched once and cached: the second list does not fetch it again.
    const again = f.mark();
    expect((await f.cpk(['monitors', 'list', '--limit', '3', '--json'], { env })).stdout).toMatch(/^\[/);
    expect(again().filter((q) => q.path === '/v1/openapi.json')).toHaveLength(0);
  });

  it('--limit stops early; --param checks names against the document; table rows on stdout', async () => {
    const env = dirs();
    const limited = await f.cpk(['monitors', 'ls', '--limit', '1', '--json'], { env });
    expect(JSON.parse(limited.stdout)).toHaveLength(1);
    const bad = await f.cpk(['monitors', 'list', '--param', 'colour=red'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      `cpk: unknown --param "colour": the service's monitors list declares limit, status, type\n`,
    );
    const channels = await f.cpk(['channels', 'list'], { env });
    expect(channels.code).toBe(0);
    expect(channels.stdout.split('\n')[0]).toMatch(/^ch_\w+\t/);
    expect(channels.stdout).toContain('ch_ops');
    const reports = await f.cpk(['reports', 'list', '--limit', '1', '--query', '[0].id'], { env });
    expect(reports.stdout).toMatch(/^rpt_\w+\n$/);
    const limit = await f.cpk(['monitors', 'list', '--limit', '0'], { env });
    expect(limit.code).toBe(2);
    expect(limit.stderr).toBe('cpk: invalid --limit "0": expected a whole number of items, 1 or more\n');
  });

  it('off a terminal a list is tab-separated fields, unpadded and uncut, without a header (as gh prints for scripts)', async () => {
    const team = `tsv${Date.now()}`;
    const long = await f.create({ name: `long ${'x'.repeat(185)}`, team, target: 'https://a.example.com' });
    const short = await f.create({ name: 'short', team, target: 'https://b.example.com' });
    const r = await f.cpk(['monitors', 'list', '--columns', 'id,name,team'], { env: dirs() });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toContain(`${long}\tlong ${'x'.repeat(185)}\t${team}`);
    expect(lines).toContain(`${short}\tshort\t${team}`);
    expect(lines.every((line) => line.split('\t').length === 3 && !/ {2}/.test(line))).toBe(true);
  });

  it("reports list names each report's monitor from one list of monitors; --json stays the service's", async () => {
    const env = dirs();
    const team = `names${Date.now()}`;
    const checkout = await f.create({ name: 'Checkout API', team });
    const search = await f.create({ name: 'Search (eu)', team });
    const report = (id: string) => id.replace(/^mon_/, 'rpt_');
    const unfreeze = f.freeze();
    try {
      const seen = f.mark();
      const table = await f.cpk(['reports', 'list'], { env });
      expect(table.code, table.stderr).toBe(0);
      const rows = table.stdout.trimEnd().split('\n');
      const row = (id: string) => rows.find((line) => line.startsWith(`${report(id)}\t`))?.split('\t');
      // The name where the monitor's id stood (ID, MONITOR_STATUS, UPTIME_PERCENT, MONITOR, ...).
      expect(row(checkout)?.[3]).toBe('Checkout API');
      expect(row(search)?.[3]).toBe('Search (eu)');
      expect(table.stdout).not.toContain(checkout);
      // The summary has no monitor.
      expect(rows.find((line) => line.startsWith('rpt_summary\t'))?.split('\t')[3]).toBe('-');
      // One list of monitors reached the service, not a GET per report.
      expect(seen().filter((q) => q.path.startsWith('/v1/monitors'))).toEqual([
        expect.objectContaining({ method: 'GET', path: '/v1/monitors?limit=100' }),
      ]);

      // -o wide keeps the id, the name beside it.
      const wide = await f.cpk(['reports', 'list', '-o', 'wide'], { env });
      expect(wide.stdout).toContain(`${report(checkout)}\t${checkout}\tCheckout API\t`);

      // --json is what the service sent.
      const json = await f.cpk(['reports', 'list', '--json'], { env });
      const sent = await fetch(`${f.emu.baseUrl}/reports?limit=100`, {
        headers: { authorization: `Bearer ${f.emu.token}` },
      });
      expect(JSON.parse(json.stdout)).toEqual(((await sent.json()) as { data: unknown[] }).data);

      // A token that may not list monitors: the ids, and a warning that says why.
      const refused = await f.cpk(['reports', 'list'], { env: { ...env, CPK_TOKEN: REPORTS_ONLY } });
      expect(refused.code, refused.stderr).toBe(0);
      expect(
        refused.stdout
          .split('\n')
          .find((line) => line.startsWith(`${report(checkout)}\t`))
          ?.split('\t')[3],
      ).toBe(checkout);
      expect(refused.stderr).toMatch(/^warning: monitor names not shown, ids instead: .*monitors:read.*\n$/);
    } finally {
      unfreeze();
    }
  });

  describe('with more monitors than a page', () => {
    const g = useEmulator({}, { inProcess: true });
    it("reports list reads the monitors' list only as far as the reports shown need", async () => {
      for (let i = 0; i < 120; i++) await g.create({ name: `paged ${i}` });
      const seen = g.mark();
      // The emulator lists both in the same order: the first reports' monitors are on the first page of monitors.
      const r = await g.cpk(['reports', 'list', '--limit', '3'], { env: dirs() });
      expect(r.code, r.stderr).toBe(0);
      const monitors = r.stdout
        .trimEnd()
        .split('\n')
        .filter((line) => !line.startsWith('rpt_summary\t'))
        .map((line) => line.split('\t')[3]);
      expect(monitors).toHaveLength(3);
      for (const name of monitors) expect(name).toMatch(/^paged \d+$/);
      expect(
        seen()
          .filter((q) => q.path.startsWith('/v1/monitors'))
          .map((q) => q.path),
      ).toEqual(['/v1/monitors?limit=100']);
    });
  });

  it('what a cached document refuses (a --param, a list) is asked of the service again before it is refused', async () => {
    const env = dirs();
    // The document as it was an hour ago: no status parameter on the monitors list, no channels list.
    const serveOlder = (times: number) =>
      f.serveOlderDocument((document) => {
        const list = document.paths['/monitors']!.get!;
        list.parameters = list.parameters!.filter((p) => p.name !== 'status');
        delete document.paths['/channels'];
      }, times);
    await serveOlder(1);
    expect((await f.cpk(['monitors', 'list', '--limit', '1', '--json'], { env })).code).toBe(0);
    const byStatus = await f.cpk(['monitors', 'list', '--param', 'status=up', '--json'], { env });
    expect(byStatus.stderr).not.toContain('--param');
    expect(byStatus.code).toBe(0);
    expect(JSON.parse(byStatus.stdout)).toEqual(expect.any(Array));

    const fresh = dirs();
    await serveOlder(1);
    expect((await f.cpk(['monitors', 'list', '--limit', '1', '--json'], { env: fresh })).code).toBe(0);
    const channels = await f.cpk(['channels', 'list', '--json'], { env: fresh });
    expect(channels.stderr).toBe('');
    expect(channels.code).toBe(0);
    expect(channels.stdout).toContain('ch_ops');

    // Still the older document when asked again: refused, as before.
    const stale = dirs();
    await serveOlder(2);
    const refused = await f.cpk(['monitors', 'list', '--param', 'status=up'], { env: stale });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(`cpk: unknown --param "status": the service's monitors list declares limit, type\n`);
  });
});

describe('list against a service that declares nothing: the local inventory', () => {
  const ref = useReferenceServer();

  it('lists what was created here, forgets what was deleted, and --refresh drops what vanished', async () => {
    const env = { ...dirs(), CPK_BASE_URL: ref.baseUrl, CPK_TOKEN: ref.token };
    const cpk = (args: string[]) => runCpk(args, { env });
    const a = (await cpk(['monitors', 'create', '--name', 'alpha', '-q'])).stdout.trim();
    const b = (await cpk(['monitors', 'create', '--name', 'beta', '-q'])).stdout.trim();
    const c = (await cpk(['monitors', 'create', '--name', 'gamma', '-q'])).stdout.trim();
    let r = await cpk(['monitors', 'list', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      'the service offers no list of monitors: these are the 3 monitors known on this machine (created, fetched or applied here); --refresh checks each\n',
    );
    const names = (JSON.parse(r.stdout) as Array<{ id: string; name: string }>).map((m) => [m.id, m.name]).sort();
    expect(names).toEqual([
      [a, 'alpha'],
      [b, 'beta'],
      [c, 'gamma'],
    ]);
    expect((await cpk(['monitors', 'delete', a, '--yes'])).code).toBe(0);
    r = await cpk(['monitors', 'list', '--query', '[].id']);
    expect(JSON.parse(r.stdout).sort()).toEqual([b, c].sort());
    ref.monitors.delete(b); // gone behind cpk's back
    r = await cpk(['monitors', 'list', '--refresh', '--query', '[].id']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([c]);
    expect(r.stderr).toContain('dropped 1 monitor the service no longer has');
    r = await cpk(['monitors', 'list', '--query', '[].id']);
    expect(JSON.parse(r.stdout)).toEqual([c]);
    // Another token on the same service has its own inventory.
    r = await runCpk(['monitors', 'list', '--json'], { env: { ...env, CPK_TOKEN: 'cpk_reference_other_01' } });
    expect(JSON.parse(r.stdout)).toEqual([]);
  });

  it('a service without a document (404) is asked for it once an hour, not on every list', async () => {
    const env = { ...dirs(), CPK_BASE_URL: ref.baseUrl, CPK_TOKEN: ref.token };
    const asked = () => ref.requests.filter((q) => q.path === '/v1/openapi.json').length;
    const before = asked();
    for (let i = 0; i < 3; i++) expect((await runCpk(['monitors', 'list', '--json'], { env })).code).toBe(0);
    expect(asked() - before).toBe(1);
    // --refresh-spec asks again at once.
    expect((await runCpk(['monitors', 'list', '--json', '--refresh-spec'], { env })).code).toBe(0);
    expect(asked() - before).toBe(2);
  });

  it('channels and reports without a declared list: one line, exit 2; --param needs a list', async () => {
    const env = { ...dirs(), CPK_BASE_URL: ref.baseUrl, CPK_TOKEN: ref.token };
    const r = await runCpk(['channels', 'list'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `cpk: the service declares no list operation for channels (its document at ${ref.baseUrl}/openapi.json lists none)\n`,
    );
    const p = await runCpk(['monitors', 'list', '--param', 'status=up'], { env });
    expect(p.code).toBe(2);
    expect(p.stderr).toBe('cpk: --param needs a list operation, and the service declares none for monitors\n');
  });
});

describe('a service whose cursor never runs out', () => {
  // Declares a cursor-paged list, then answers every page with a new monitor and a new cursor
  // (for the token cpk_repeating_token_01, the same cursor each time).
  let server: Server;
  let baseUrl = '';
  let pages = 0;
  const document = CURSOR_PAGED_MONITORS;
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url === '/v1/openapi.json') return void res.end(JSON.stringify(document));
      pages++;
      const cursor = req.headers.authorization === 'Bearer cpk_repeating_token_01' ? 'again' : `c${pages}`;
      res.end(JSON.stringify({ data: [{ id: `mon_endless${pages}`, name: `endless ${pages}` }], next_cursor: cursor }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const stopped = (url: string, what = `more than ${MAX_LIST_PAGES} pages`) =>
    `cpk: the service sent ${what} while listing ${url}/monitors; stopped to avoid a loop\n`;

  it('monitors list ends with one line and exit 1 after the page limit', async () => {
    const env = { ...dirs(), CPK_BASE_URL: baseUrl, CPK_TOKEN: 'cpk_endless_token_01' };
    pages = 0;
    const r = await runCpk(['monitors', 'list', '-o', 'jsonl'], { env, timeoutMs: 120_000 });
    expect(r.code).toBe(1);
    // Under -o jsonl the error is one JSON line too.
    expect(JSON.parse(r.stderr)).toMatchObject({ error: stopped(baseUrl).slice(5, -1), exit_code: 1 });
    expect(pages).toBe(MAX_LIST_PAGES);
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(MAX_LIST_PAGES);
  }, 150_000);

  it('monitors list stops at a cursor the service sends twice, after printing the pages before it', async () => {
    const env = { ...dirs(), CPK_BASE_URL: baseUrl, CPK_TOKEN: 'cpk_repeating_token_01' };
    pages = 0;
    const r = await runCpk(['monitors', 'list', '--columns', 'id'], { env });
    expect(r.stderr).toBe(stopped(baseUrl, 'the cursor "again" twice'));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('mon_endless1\nmon_endless2\n');
    expect(pages).toBe(2);
  });

  // Looking for an uncertain entry's monitor follows the same list (the 10,000 pages
  // of that search: test/unit/adopt.test.ts); here, a cursor that comes back.
  it('plan with an uncertain entry ends the same way, and the entry stays uncertain', async () => {
    const env = { ...dirs(), CPK_BASE_URL: baseUrl, CPK_TOKEN: 'cpk_repeating_token_01' };
    const dir = mkdtempSync(join(tmpdir(), 'cpk-endless-'));
    writeFileSync(join(dir, 'cpk.yaml'), 'monitors:\n  web:\n    name: Web\n');
    const state = JSON.stringify({
      version: 1,
      base_url: baseUrl,
      monitors: { web: { create_started_at: '2026-01-01T00:00:00.000Z' } },
      channels: {},
    });
    writeFileSync(join(dir, 'cpk.state.json'), state);
    pages = 0;
    const r = await runCpk(['plan', '-f', join(dir, 'cpk.yaml')], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(stopped(baseUrl, 'the cursor "again" twice'));
    expect(pages).toBe(2);
    expect(readFileSync(join(dir, 'cpk.state.json'), 'utf8')).toBe(state);
  });
});

describe('a long list is printed as it arrives, holding a page at a time', () => {
  // Pages of 500 monitors; the last page is held until cpk has written to stdout (a handshake, not a
  // wait): a list that kept its rows until the end would never get it, and fail on its --timeout.
  const PAGES = 10;
  const PAGE = 200;
  let server: Server;
  let baseUrl = '';
  let wrote: () => void = () => {};
  let written = Promise.resolve();
  const document = CURSOR_PAGED_MONITORS;
  const monitor = (i: number) => ({ id: `mon_${String(i).padStart(6, '0')}`, name: `long ${i}`, status: 'up' });
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url === '/v1/openapi.json') return void res.end(JSON.stringify(document));
      const page = Number(new URL(req.url ?? '', 'http://x').searchParams.get('cursor') ?? 0);
      const body = {
        data: Array.from({ length: PAGE }, (_, i) => monitor(page * PAGE + i)),
        next_cursor: page + 1 < PAGES ? String(page + 1) : null,
      };
      if (page + 1 < PAGES) return void res.end(JSON.stringify(body));
      void written.then(() => res.end(JSON.stringify(body)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const all = Array.from({ length: PAGES * PAGE }, (_, i) => monitor(i));

  it.each([
    ['--json', ['--json'], (out: string) => expect(out).toBe(`${JSON.stringify(all, null, 2)}\n`)],
    ['-o yaml', ['-o', 'yaml'], (out: string) => expect(parseYaml(out)).toEqual(all)],
    [
      'a table',
      [],
      (out: string) => {
        expect(out.split('\n').slice(0, -1)).toEqual(all.map((m) => `${m.id}\t${m.name}\tup`));
      },
    ],
  ])('%s: the first rows are out before the last page is served', async (_name, args, check) => {
    written = new Promise((resolve) => (wrote = resolve));
    const env = { ...dirs(), CPK_BASE_URL: baseUrl, CPK_TOKEN: 'cpk_long_list_token_01' };
    const r = await runCpk(['monitors', 'list', ...args, '--timeout', '10', '--retries', '0'], {
      env,
      onStdout: () => wrote(),
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    check(r.stdout);
  });
});
