// Tab never runs what a server wrote. Monitor ids, report ids and the --type
// enum of the service's cached document reach the shell through
// `cpk __complete`; here a server on loopback answers ids and enum values made
// of $(...), backquotes, ;, |, quotes, newlines and globs, each of which would
// create its own marker file if a shell ran it. Tab is pressed in a real
// interactive bash (in a pseudo-terminal); no marker may appear, and only the
// plain candidates are offered or inserted.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmodSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/emulator/openapi.js';
import { BIN, baseEnv } from '../helpers/cli.js';
import { pressTab } from '../helpers/bash-tab.js';

const run = promisify(execFile);
const MARKS = mkdtempSync(join(tmpdir(), 'cpk-marks-'));
/** Ids and enum values a hostile server sends, each creating its own marker file in `dir` if run. */
function hostile(prefix: string, tag: string, dir = MARKS): string[] {
  // Written without spaces: an id with a space was always left out.
  const touch = (name: string) => `touch\${IFS}${dir}/${name}`;
  return [
    `${prefix}$(${touch(`${tag}-dollar`)})`,
    `${prefix}\`${touch(`${tag}-backquote`)}\``,
    `${prefix};${touch(`${tag}-semicolon`)}`,
    `${prefix}|${touch(`${tag}-pipe`)}`,
    `${prefix}&&${touch(`${tag}-and`)}`,
    `${prefix}"$(${touch(`${tag}-double-quoted`)})"`,
    `${prefix}'$(${touch(`${tag}-single-quoted`)})'`,
    `${prefix}'\`${touch(`${tag}-quote-backquote`)}\``,
    `${prefix}x\n$(${touch(`${tag}-newline`)})`,
    `${prefix}x\r$(${touch(`${tag}-return`)})`,
    `$(${touch(`${tag}-bare`)})`,
    `${prefix}<(${touch(`${tag}-process`)})`,
    `${prefix}$((1))$(${touch(`${tag}-arith`)})`,
    `${prefix}\\$(${touch(`${tag}-backslash`)})`,
    `${prefix}\u2019$(${touch(`${tag}-typographic`)})`,
    `-${prefix}$(${touch(`${tag}-dash`)})`,
    `${prefix}*`,
    `${prefix}\${HOME}`,
    `${prefix}~root`,
    `${prefix}{a,b}`,
    `${prefix}a b`,
    `${prefix}\u001b[31m`,
  ];
}

const MONITOR_IDS = hostile('mon_', 'mon');
const REPORT_IDS = hostile('rpt_', 'rpt');
const TYPES = hostile('tcp', 'type');
/** A plain id's name that would create a marker if run: shown beside its id in a list, never run or inserted. */
const HOSTILE_NAME = `$(touch\${IFS}${MARKS}/name)`;
/** What the terminal showed, without that name where bash lists it as a description. */
const outsideNames = (shown: string) => shown.split(`(${HOSTILE_NAME})`).join('');

/** The service: its document (the --type enum made hostile) and a list of hostile monitors. */
async function startHostileService(): Promise<{ server: Server; baseUrl: string }> {
  const monitors = [
    { id: 'mon_plain1', name: HOSTILE_NAME, report_id: 'rpt_plain1' },
    { id: 'mon_plain2', name: 'Search', report_id: REPORT_IDS[0] },
    ...MONITOR_IDS.map((id, i) => ({ id, name: `hostile ${i}`, report_id: REPORT_IDS[i + 1] ?? REPORT_IDS[0] })),
    ...REPORT_IDS.map((report, i) => ({ id: `mon_r${i}`, name: 'reports', report_id: report })),
  ].map((m) => ({ type: 'http', target: 'https://example.com', interval_seconds: 60, status: 'up', ...m }));
  let baseUrl = '';
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req_0000000000000001' });
      res.end(JSON.stringify(body));
    };
    if (path === '/v1/openapi.json') {
      const doc = buildOpenApiDocument(baseUrl) as { components: { schemas: Record<string, { enum?: string[] }> } };
      doc.components.schemas.MonitorType!.enum = ['http', ...TYPES];
      return json(200, doc);
    }
    if (path === '/v1/monitors' && req.method === 'GET') return json(200, { data: monitors, next_cursor: null });
    return json(404, { error: 'not found', request_id: 'req_0000000000000001' });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { server, baseUrl };
}

/** A directory holding an executable `cpk` with this body. */
function binDir(body: string): string {
  const bin = mkdtempSync(join(tmpdir(), 'cpk-bin-'));
  writeFileSync(join(bin, 'cpk'), `#!/bin/sh\n${body}\n`);
  chmodSync(join(bin, 'cpk'), 0o755);
  return bin;
}

const LINES = [
  'cpk monitors get ',
  'cpk monitors get mon_',
  'cpk monitors delete --yes mon_p',
  'cpk reports get ',
  'cpk reports get rpt_',
  'cpk monitors create --type ',
  'cpk monitors create --type=h',
  'cpk monitors create --type tcp',
  'cpk monitors create --type=t',
];

function markers(): string[] {
  return readdirSync(MARKS);
}

describe('Tab in bash over ids and enum values a server wrote', () => {
  let service: { server: Server; baseUrl: string };
  let env: Record<string, string>;
  beforeAll(async () => {
    service = await startHostileService();
    env = baseEnv({
      CPK_BASE_URL: service.baseUrl,
      CPK_TOKEN: 'cpk_test_token_0001',
      CPK_DATA_DIR: mkdtempSync(join(tmpdir(), 'cpk-data-')),
      CPK_CACHE_DIR: mkdtempSync(join(tmpdir(), 'cpk-cache-')),
    });
    // The list records every id in the inventory and caches the document.
    await run(process.execPath, [BIN, 'monitors', 'list', '-o', 'json'], { env });
  });
  afterAll(async () => {
    await new Promise((done) => service.server.close(done));
  });

  it('the payloads are live: compgen -W, which bash completion scripts commonly use, runs them', async () => {
    const control = mkdtempSync(join(tmpdir(), 'cpk-control-'));
    const words = [...hostile('mon_', 'mon', control), ...hostile('tcp', 'type', control)].join(' ');
    await run('bash', ['--norc', '--noprofile', '-c', 'compgen -W "$1" -- "" >/dev/null', 'bash', words], {
      env: baseEnv(),
    });
    expect(readdirSync(control).length).toBeGreaterThanOrEqual(8);
  });

  it('cpk __complete prints only the plain candidates, for every shell script', async () => {
    const complete = async (kind: string) =>
      (await run(process.execPath, [BIN, '__complete', kind], { env, encoding: 'utf8' })).stdout;
    const ids = (await complete('monitor-ids')).split('\n').filter(Boolean);
    // Names are descriptions, shown and never inserted: kept, on one line.
    expect(ids.map((l) => l.split('\t')[0]).sort()).toEqual(
      ['mon_plain1', 'mon_plain2', ...REPORT_IDS.map((_, i) => `mon_r${i}`)].sort(),
    );
    expect(await complete('report-ids')).toMatch(/^(rpt_plain1\t.*\n)+$/);
    expect(await complete('types')).toBe('http\n');
    expect(markers()).toEqual([]);
  });

  it('in a real bash, Tab runs none of them and offers or inserts only plain words', async () => {
    const bin = binDir(`exec "${process.execPath}" "${BIN}" "$@"`);
    const results = await pressTab({ ...env, PATH: `${bin}:${env.PATH}` }, LINES);
    expect(markers()).toEqual([]);
    const [all, prefixed, deleting, reports, reportsPrefixed, types, typesEq, typesPrefixed, typesEqPrefixed] = results;
    // Two plain ids: their common prefix is inserted and both are listed, each with its name as text.
    expect(all!.line).toBe('cpk monitors get mon_');
    expect(all!.shown).toContain(`mon_plain1  (${HOSTILE_NAME})`);
    expect(all!.shown).toMatch(/mon_plain2 +\(Search\)/);
    expect(prefixed!.line).toBe('cpk monitors get mon_');
    expect(deleting!.line).toBe('cpk monitors delete --yes mon_plain');
    // One plain report id and one plain type: inserted whole.
    expect(reports!.line).toBe('cpk reports get rpt_plain1 ');
    expect(reportsPrefixed!.line).toBe('cpk reports get rpt_plain1 ');
    expect(types!.line).toBe('cpk monitors create --type http ');
    expect(typesEq!.line).toBe('cpk monitors create --type=http ');
    // Only hostile types start with "tcp": nothing is offered, nothing inserted.
    expect(typesPrefixed!.line).toBe('cpk monitors create --type tcp');
    expect(typesEqPrefixed!.line).toBe('cpk monitors create --type=t');
    for (const r of results) {
      expect(outsideNames(r.shown)).not.toContain('touch');
      expect(r.line).not.toContain('touch');
    }
  });

  it('the script itself keeps a hostile line as data and leaves it out, whatever prints it', async () => {
    // A stand-in for cpk that prints the hostile words as candidates: the
    // script's own defence, should a binary ever let one through.
    const lines = [...MONITOR_IDS, ...REPORT_IDS, ...TYPES, 'mon_plain1\tok', 'mon_plain2', 'rpt_plain1', 'http'];
    const list = join(mkdtempSync(join(tmpdir(), 'cpk-lines-')), 'lines');
    writeFileSync(list, `${lines.join('\n')}\n`);
    const bin = binDir(`[ "$1" = __complete ] && cat '${list}'; exit 0`);
    const results = await pressTab({ ...env, PATH: `${bin}:${env.PATH}` }, LINES);
    expect(markers()).toEqual([]);
    for (const r of results) {
      expect(r.shown).not.toContain('touch');
      expect(r.line).not.toContain('touch');
      expect(r.line).not.toMatch(/[$`;|&"'<>*{}~\\]/);
    }
    // The stand-in answers every kind with all its lines: the plain ones are offered.
    expect(results[0]!.shown).toMatch(/mon_plain1/);
    expect(results[0]!.shown).toMatch(/rpt_plain1/);
  });
});
