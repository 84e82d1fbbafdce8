#!/usr/bin/env node
// `npm run bench`: the speed targets of docs/performance.md, "Performance", measured as
// ratios against Node's own floor, side by side in one run. Runs alternate
// between the commands compared so that machine drift cancels out. Starts its
// own emulator on loopback and writes nothing outside a temp dir (unless
// `--out FILE` is given). `--only startup|bulk|render|manifest|emulator` runs
// those rows alone. `--quick` runs a tiny version (used by the test suite to
// check that the benchmark works; its figures mean nothing).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { buildSync } from 'esbuild';
import { installNode } from './install-node.mjs';

const { values: options } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, out: { type: 'string' }, only: { type: 'string' } },
});
const quick = options.quick;
const wanted = (group) => options.only === undefined || options.only === group;
const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin/cpk.js');
const node = process.execPath;
const RUNS = quick ? 1 : 30;
// Runs of the slower comparisons (bulk, list, manifests, emulator).
const FEW = quick ? 1 : 5;
const BULK_IDS = quick ? 20 : 1000;
const MANIFEST_N = quick ? 20 : 5000;
const LIST_ROWS = quick ? 2000 : 50_000;
// The long list's memory: a list of LONG_LIST rows against one of LONG_LIST / 10.
const LONG_LIST = quick ? 10_000 : 1_000_000;

const dir = mkdtempSync(join(tmpdir(), 'cpk-bench-'));
const env = { PATH: process.env.PATH, HOME: dir, CPK_CONFIG_DIR: join(dir, 'config'), LANG: 'C.UTF-8' };

// --- the emulator, in its own process: spawnSync below blocks this one's event loop
const info = await startEmulatorProcess([]);
const apiEnv = { ...env, CPK_BASE_URL: info.base_url, CPK_TOKEN: info.token };

// --- baselines: minimal scripts doing the same work with Node alone
const undiciUrl = pathToFileURL(join(root, 'node_modules/undici/index.js')).href;
// CommonJS, as the cheapest plain way to do the work: an ES module's import of
// node:http builds a facade that reads every export, and node:http's lazy
// WebSocket and EventSource exports then load Node's own copy of undici (on
// Node 26, ~120 ms against ~65 ms): a floor that pays for that is not a floor.
const getHttp = join(dir, 'get-http.cjs');
writeFileSync(
  getHttp,
  `
const { request } = require('node:http');
const [url, token] = process.argv.slice(2);
request(url, { headers: { authorization: 'Bearer ' + token } }, (res) => {
  const chunks = [];
  res.on('data', (c) => chunks.push(c));
  res.on('end', () => process.stdout.write(Buffer.concat(chunks)));
}).end();
`,
);
// An MCP client with nothing to load: starts `cpk mcp`, sends initialize and tools/list at once, and prints
// the milliseconds from the spawn to the tools/list answer (its own start-up is not counted).
const mcpClient = join(dir, 'mcp-client.mjs');
writeFileSync(
  mcpClient,
  `
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
const [nodeBin, cpk] = process.argv.slice(2);
const started = performance.now();
const child = spawn(nodeBin, [cpk, 'mcp'], { stdio: ['pipe', 'pipe', 'inherit'] });
const send = (message) => child.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n');
send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } });
send({ method: 'notifications/initialized' });
send({ id: 2, method: 'tools/list' });
for await (const line of createInterface({ input: child.stdout })) {
  const answer = JSON.parse(line);
  if (answer.id !== 2) continue;
  if (!answer.result?.tools?.length) throw new Error('tools/list: ' + line);
  process.stdout.write(String(performance.now() - started));
  break;
}
child.stdin.end();
`,
);
// With a count, that many creates, printing their ids; without, a DELETE of each id on stdin.
const pool = join(dir, 'pool.mjs');
writeFileSync(
  pool,
  `
import { Pool } from ${JSON.stringify(undiciUrl)};
import { readFileSync } from 'node:fs';
const [base, token, count] = process.argv.slice(2);
const url = new URL(base);
const pool = new Pool(url.origin, { connections: 16 });
const authorization = 'Bearer ' + token;
const jobs = count
  ? Array.from({ length: Number(count) }, () => ({ method: 'POST', path: url.pathname + '/monitors', headers: { authorization, 'content-type': 'application/json' }, body: '{"name":"bench"}' }))
  : readFileSync(0, 'utf8').split('\\n').filter(Boolean).map((id) => ({ method: 'DELETE', path: url.pathname + '/monitors/' + encodeURIComponent(id), headers: { authorization } }));
const ids = [];
let next = 0;
async function worker() {
  while (next < jobs.length) {
    const res = await pool.request(jobs[next++]);
    if (count) ids.push((await res.body.json()).id);
    else await res.body.dump();
  }
}
await Promise.all(Array.from({ length: 16 }, worker));
await pool.close();
if (count) process.stdout.write(ids.join('\\n') + '\\n');
`,
);

// Two floors. The chosen parser's: a two-command commander program, bundled and loaded through
// Node's compile cache as bin/cpk.js loads cpk. A manifest's: yaml's parse of it with cpk's
// options, timed inside the process, which prints the milliseconds.
const commanderTwo = join(dir, 'two.cjs');
buildSync({
  stdin: {
    contents: `const p = new (require('commander').Command)('two').exitOverride().option('--json').option('--debug');
p.command('list').description('list the things'); p.command('get').description('get one thing');
try { p.parse(process.argv.slice(2), { from: 'user' }); } catch {}`,
    resolveDir: root,
  },
  bundle: true,
  platform: 'node',
  outfile: join(dir, 'two-bundle.cjs'),
});
writeFileSync(commanderTwo, `require('node:module').enableCompileCache?.(__dirname);\nrequire('./two-bundle.cjs');\n`);
const yamlParse = join(dir, 'yaml-parse.mjs');
writeFileSync(
  yamlParse,
  `import { LineCounter, parseDocument } from ${JSON.stringify(pathToFileURL(createRequire(bin).resolve('yaml')).href)};
const text = (await import('node:fs')).readFileSync(process.argv[2], 'utf8'), started = performance.now();
parseDocument(text, { lineCounter: new LineCounter(), prettyErrors: false, uniqueKeys: false, strict: true }).toJS({ maxAliasCount: 100 });
process.stdout.write(String(performance.now() - started));`,
);

/** Runs a command to completion (it must exit 0); its wall time in ms and its stdout. */
function run(cmd, argv, { env: runEnv = env, input, cwd } = {}) {
  const started = performance.now();
  const r = spawnSync(cmd, argv, { env: runEnv, input, cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} exited ${r.status}: ${r.stderr.slice(0, 300)}`);
  return { ms, stdout: r.stdout };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Alternates a and b `runs` times after a warm-up of each; each gets an input `prepare` makes afresh. */
function compare(a, b, runs = FEW, prepare = () => undefined) {
  const series = [[], []];
  for (const x of [a, b]) run(...x(prepare()));
  for (let i = 0; i < runs; i++)
    for (const k of i % 2 ? [1, 0] : [0, 1]) series[k].push(run(...[a, b][k](prepare())).ms);
  return series;
}

const rows = [];
let failed = false;
const cell = (xs) =>
  xs.length === 1
    ? xs[0].toFixed(1)
    : `${median(xs).toFixed(1)} (${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)})`;
/**
 * One row: the ratio of cpk's median to the baseline's, against `target`
 * (at most, or at least with `atLeast`; none when undefined). `cells` replace
 * the two measured columns; `pass` false fails the row whatever the ratio.
 */
function report(what, against, [a, b], target, { atLeast = false, cells = [cell(a), cell(b)], pass = true } = {}) {
  const ratio = median(a) / median(b);
  let result = 'none | -';
  if (target !== undefined) {
    const met = pass && (atLeast ? ratio >= target : ratio <= target);
    failed ||= !met;
    result = `${atLeast ? '>=' : '<='} ${target}x | ${met ? 'pass' : 'FAIL'}`;
  }
  rows.push(`| ${what} | ${against} | ${cells[0]} | ${cells[1]} | ${ratio.toFixed(2)} | ${result} |`);
}

// Every row with a target runs on the current LTS, Node 26, its compile cache warm; the machine's Node
// runs the start-up rows again without a target, and the emulator and the list server (--quick: both).
const lts = quick ? { node, version: process.version } : installNode('26');
const measured = lts.node;
const create = ['monitors', 'create', '--name', 'bench', '--target', 'https://example.com', '-q'];
const monitorId = run(node, [bin, ...create], { env: apiEnv }).stdout.trim();

// A server answering GET /monitors with LIST_ROWS monitors in pages of 1,000 (the
// emulator's own pages stop at 100, and creating 50,000 monitors would measure
// the emulator), and the emulator's document, which declares that list.
writeFileSync(
  join(dir, 'list-server.mjs'),
  `
import { createServer } from 'node:http';
const [docUrl, count] = process.argv.slice(2);
const doc = await (await fetch(docUrl)).text();
// Built page by page on request, so that a list of a million rows costs the server no memory.
const monitor = (i) => {
  const id = 'mon_' + String(i).padStart(12, 'a');
  return { id, name: 'Monitor number ' + i, type: 'http', target: 'https://m' + i + '.example.com/health',
    interval_seconds: 60, paused: false, status: i % 7 ? 'up' : 'down', created_at: '2026-11-22T00:00:00.000Z',
    updated_at: '2026-11-22T00:00:00.000Z', last_check: { status: 'up', latency_ms: 20 + (i % 280), checked_at: '2026-11-22T00:01:00.000Z' },
    report_id: 'rpt_' + id.slice(4), tags: ['bench', 'team ' + (i % 10)] };
};
const PAGE = 1000;
const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  res.setHeader('content-type', 'application/json');
  if (url.pathname === '/v1/openapi.json') return res.end(doc);
  if (url.pathname !== '/v1/monitors') return res.writeHead(404).end('{"error":"not found"}');
  const page = Number(url.searchParams.get('cursor') ?? 0);
  const data = [];
  for (let i = page * PAGE; i < Math.min(Number(count), (page + 1) * PAGE); i++) data.push(monitor(i));
  res.end(JSON.stringify({ data, next_cursor: (page + 1) * PAGE < Number(count) ? String(page + 1) : null }));
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`,
);
const listServer = wanted('render')
  ? spawn(node, [join(dir, 'list-server.mjs'), `${info.base_url}/openapi.json`, String(LIST_ROWS)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
  : undefined;
const listPort = listServer ? Number(await firstLine(listServer)) : 0;

try {
  if (wanted('startup')) {
    startupRows(lts.node, `Node ${lts.version}, compile cache warm`, true);
    startupRows(node, `the machine's Node ${process.version}`, false);
  }
  if (wanted('bulk')) bulkRows();
  if (wanted('render')) {
    renderRows();
    await longListRow();
  }
  if (wanted('manifest')) manifestRows();
  if (wanted('emulator')) {
    await emulatorPersistRow();
    await emulatorListRows();
    await emulatorRows();
  }
} finally {
  listServer?.kill('SIGTERM');
  // The emulator may still write Node's compile cache under dir as it exits: wait for it.
  await info.stop();
  rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}

// compare()'s warm-up run writes the compile cache.
function startupRows(nodeBin, label, targets) {
  const suffix = targets ? '' : ", machine's Node";
  const floorName = `node -e 0 (${label})`;
  const httpName = `node:http GET script, CommonJS (${label})`;
  const commanderName = `commander's two-command program --help (${label})`;
  const floor = () => [nodeBin, ['-e', '0']];
  const commander = () => [nodeBin, [commanderTwo, '--help']];
  const httpGet = () => [nodeBin, [getHttp, `${info.base_url}/monitors/${monitorId}`, info.token]];
  report(`commander's two-command --help${suffix}`, floorName, compare(commander, floor, RUNS));
  for (const [what, argv, runEnv, against, baseline, target] of [
    ['cpk --version', ['--version'], env, floorName, floor, 1.2],
    ['cpk --help', ['--help'], env, commanderName, commander, 1.5],
    ['cpk --help, against Node alone', ['--help'], env, floorName, floor, undefined],
    ['cpk monitors --help', ['monitors', '--help'], env, floorName, floor, 2.5],
    ['cpk monitors get ID --json', ['monitors', 'get', monitorId, '--json'], apiEnv, httpName, httpGet, 1.35],
    ['cpk monitors get ID (table)', ['monitors', 'get', monitorId], apiEnv, httpName, httpGet, 1.5],
  ]) {
    const cpk = () => [nodeBin, [bin, ...argv], { env: runEnv }];
    report(`${what}${suffix}`, against, compare(cpk, baseline, RUNS), targets ? target : undefined);
  }

  // An agent starts `cpk mcp` once per session, and waits for its tools before anything else.
  if (targets) {
    const series = [[], []];
    for (let i = -1; i < RUNS; i++) {
      const mcp = Number(run(nodeBin, [mcpClient, nodeBin, bin], { env: apiEnv }).stdout);
      const get = run(nodeBin, [bin, 'monitors', 'get', monitorId, '--json'], { env: apiEnv }).ms;
      // The first of each warms the compile cache.
      if (i < 0) continue;
      series[0].push(mcp);
      series[1].push(get);
    }
    report('cpk mcp: initialize and tools/list answered', 'cpk monitors get ID --json', series, 1.5);
  }

  const rss = [[], []];
  for (let i = 0; i < (quick ? 1 : 10); i++) {
    rss[0].push(peakRss([nodeBin, bin, 'monitors', 'get', monitorId, '--json'], apiEnv));
    rss[1].push(peakRss([nodeBin, '-e', '0'], env));
  }
  report(`peak RSS of cpk monitors get ID --json (MiB)${suffix}`, floorName, rss, targets ? 1.4 : undefined);
}

function bulkRows() {
  // Bulk: 1000 DELETEs from stdin, against a minimal undici Pool script, both with 16 in flight (cpk's default is 8).
  const makeIds = () => run(measured, [pool, info.base_url, info.token, String(BULK_IDS)]).stdout;
  const bulk = compare(
    (ids) => [measured, [bin, 'monitors', 'delete', '-', '--yes', '--concurrency', '16'], { env: apiEnv, input: ids }],
    (ids) => [measured, [pool, info.base_url, info.token], { input: ids }],
    FEW,
    makeIds,
  );
  report(`cpk monitors delete - --concurrency 16 (${BULK_IDS} ids)`, 'undici Pool script, 16 in flight', bulk, 1.3);
  // A bash loop of curl, once (it is slow): cpk must be at least 5x faster.
  const script = `while read -r id; do curl -s -o /dev/null -X DELETE -H "Authorization: Bearer $CPK_TOKEN" "$CPK_BASE_URL/monitors/$id"; done`;
  const curl = [run('bash', ['-c', script], { env: apiEnv, input: makeIds() }).ms];
  report(`bash loop of curl (${BULK_IDS} DELETEs) / cpk`, 'cpk monitors delete -', [curl, bulk[0]], 5, {
    atLeast: true,
    cells: [cell(bulk[0]), cell(curl)],
  });
}

// A list of LIST_ROWS monitors as a table (measured and laid out) against the same list as jsonl.
function renderRows() {
  const listEnv = { ...env, CPK_BASE_URL: `http://127.0.0.1:${listPort}/v1`, CPK_TOKEN: 'cpk_bench_token' };
  const list = (format) => () => [measured, [bin, 'monitors', 'list', '-o', format], { env: listEnv }];
  // Off a terminal a table has no header line, as gh's: a row a line, then the final newline.
  const lines = run(...list('table')()).stdout.split('\n').length - 1;
  if (lines !== LIST_ROWS) throw new Error(`monitors list printed ${lines} rows, expected ${LIST_ROWS}`);
  const series = compare(list('table'), list('jsonl'));
  report(`cpk monitors list: ${LIST_ROWS} rows as a table`, 'the same list -o jsonl', series, 2);
}

/**
 * A list's memory stays flat however long it is: nothing is kept per row (docs/performance.md). The peak
 * RSS of `monitors list -o jsonl` over LONG_LIST rows, in pages of 1,000 from a server that makes each
 * page when asked, against the same list of a tenth as many: within 1.25x. The tenth, not a list of one
 * page, is the baseline: below about 100,000 rows the run has not yet reached the heap V8 grows to under a
 * steady stream of pages, nor the inventory its bound of 20,000 ids, so a short list measures start-up.
 */
async function longListRow() {
  const peakOf = async (rows) => {
    const server = spawn(node, [join(dir, 'list-server.mjs'), `${info.base_url}/openapi.json`, String(rows)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const port = Number(await firstLine(server));
      const listEnv = { ...env, CPK_BASE_URL: `http://127.0.0.1:${port}/v1`, CPK_TOKEN: 'cpk_bench_token' };
      return peakRss([measured, bin, 'monitors', 'list', '-o', 'jsonl'], listEnv);
    } finally {
      server.kill('SIGTERM');
    }
  };
  const small = LONG_LIST / 10;
  const rssSmall = await peakOf(small);
  const rssBig = await peakOf(LONG_LIST);
  report(
    `peak RSS of cpk monitors list -o jsonl: ${LONG_LIST} rows (MiB)`,
    `the same list of ${small} rows`,
    [[rssBig], [rssSmall]],
    1.25,
  );
}

// Peak RSS (MiB) of one run, read by the kernel's rusage of the child (python3).
function peakRss(argv, runEnv, cwd) {
  const script =
    'import resource,subprocess,sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)';
  return Number(run('python3', ['-c', script, ...argv], { env: runEnv, cwd }).stdout) / 1024;
}

// Monitors as code at scale: apply against `monitors create --from`, plan against `monitors get -`.
function manifestRows() {
  const N = MANIFEST_N;
  let serial = 0;
  /** A fresh directory with a manifest of `n` new entries (and the same records as NDJSON for --from). */
  const fresh = (n) => {
    const d = join(dir, `m${serial++}`);
    mkdirSync(d);
    const entries = [];
    const records = [];
    for (let i = 0; i < n; i++) {
      const fields = { name: `bench ${serial}-${i}`, type: 'http', target: `https://m${i}.example.com/health` };
      entries.push(
        `  m${i}:\n    name: ${fields.name}\n    type: http\n    target: ${fields.target}\n    interval: 5m\n`,
      );
      records.push(JSON.stringify({ ...fields, interval_seconds: 300 }));
    }
    writeFileSync(join(d, 'cpk.yaml'), `monitors:\n${entries.join('')}`);
    writeFileSync(join(d, 'records.ndjson'), `${records.join('\n')}\n`);
    return d;
  };
  const cpkIn = (d, argv) => [measured, [bin, ...argv], { env: apiEnv, cwd: d }];
  const applyNew = compare(
    (d) => cpkIn(d, ['apply', '--yes', '-f', join(d, 'cpk.yaml')]),
    (d) => cpkIn(d, ['monitors', 'create', '--from', join(d, 'records.ndjson'), '-q']),
    FEW,
    () => fresh(N),
  );
  // What plan and apply must do and the commands they are compared with need not: their targets add it.
  const parse = median(
    Array.from({ length: FEW }, () => Number(run(measured, [yamlParse, join(fresh(N), 'cpk.yaml')]).stdout)),
  );
  const plusParse = ([a, b]) => [a, b.map((ms) => ms + parse)];
  const parsing = `+ yaml's parse of the manifest (${parse.toFixed(0)} ms)`;
  report(
    `cpk apply --yes (${N} new entries)`,
    `cpk monitors create --from (${N}) ${parsing}`,
    plusParse(applyNew),
    1.5,
  );
  report(`cpk apply --yes (${N} new entries), without the parse`, `cpk monitors create --from (${N})`, applyNew);

  // One applied manifest for the unchanged rows.
  const applied = fresh(N);
  const applyNothing = () => cpkIn(applied, ['apply', '--yes', '-f', join(applied, 'cpk.yaml')]);
  run(...applyNothing());
  const state = JSON.parse(readFileSync(join(applied, 'cpk.state.json'), 'utf8'));
  const ids = `${Object.values(state.monitors)
    .map((r) => r.id)
    .join('\n')}\n`;
  const plan = () => cpkIn(applied, ['plan', '-f', join(applied, 'cpk.yaml')]);
  const getIds = () => [measured, [bin, 'monitors', 'get', '-', '--json'], { env: apiEnv, input: ids }];
  const planGet = compare(plan, getIds);
  report(`cpk plan (${N} unchanged)`, `cpk monitors get - --json (${N} ids) ${parsing}`, plusParse(planGet), 1.3);
  report(`cpk plan (${N} unchanged), without the parse`, `cpk monitors get - --json (${N} ids)`, planGet);
  report(`cpk apply --yes (${N} unchanged)`, `cpk plan (${N} unchanged)`, compare(applyNothing, plan), 1);
  // The control of that row: apply with nothing to change does plan's work
  // plus taking the lock, so its ratio is 1 give or take the noise, which
  // this row (plan against itself, the same runs) shows. No target.
  const control = compare(plan, plan);
  report(`cpk plan (${N} unchanged), control`, 'the same plan (the noise of the row above)', control, undefined);

  // Peak memory of apply at N/5 and N new entries: the slope is MiB per 1,000 entries.
  const small = Math.max(1, Math.round(N / 5));
  const rssOf = (n) => {
    const d = fresh(n);
    return peakRss([measured, bin, 'apply', '--yes', '-f', join(d, 'cpk.yaml')], apiEnv, d);
  };
  const rssSmall = rssOf(small);
  const rssBig = rssOf(N);
  const perThousand = ((rssBig - rssSmall) / (N - small)) * 1000;
  // Linear: the fixed part plus N times the slope, far below N/small times the small run.
  report(
    `peak RSS of cpk apply: ${small} and ${N} new entries (MiB)`,
    'MiB per 1,000 entries (slope)',
    [[rssBig], [rssSmall]],
    N / small,
    {
      cells: [`${rssSmall.toFixed(1)} / ${rssBig.toFixed(1)}`, `${perThousand.toFixed(1)} MiB per 1,000`],
      pass: rssSmall - (perThousand * small) / 1000 > 0,
    },
  );

  // Reporting problems stays linear in their number (the suite checks what is printed, with fewer): ten
  // times the problems costs about ten times the time, where a quadratic report would cost a hundred.
  const problems = quick ? 2000 : 20_000;
  const validateMs = (n) => {
    const d = join(dir, `v${serial++}`);
    mkdirSync(d);
    writeFileSync(
      join(d, 'cpk.yaml'),
      `monitors:\n${Array.from({ length: n }, (_, i) => `  m${i}:\n    nme: M${i}\n`).join('')}`,
    );
    const started = performance.now();
    const r = spawnSync(measured, [bin, 'validate', '-f', join(d, 'cpk.yaml')], { env: apiEnv, encoding: 'utf8' });
    if (r.status !== 2) throw new Error(`validate of ${n} problems exited ${r.status}: ${r.stderr.slice(-300)}`);
    return performance.now() - started;
  };
  const [many, tenth] = [[], []];
  for (let i = 0; i < FEW; i++) {
    many.push(validateMs(problems));
    tenth.push(validateMs(problems / 10));
  }
  report(`cpk validate (${problems} problems)`, `cpk validate (${problems / 10} problems)`, [many, tenth], 15);
}

async function firstLine(child) {
  for await (const line of createInterface({ input: child.stdout })) return line;
  throw new Error(`${child.spawnargs.join(' ')} exited before it printed a line`);
}

async function startEmulatorProcess(extra) {
  const child = spawn(node, [bin, 'emulator', '--port', '0', '--json', '--quiet', ...extra], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env,
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const first = JSON.parse(await firstLine(child));
  const stop = () => {
    child.kill('SIGTERM');
    return exited;
  };
  return { ...first, pid: child.pid, stop };
}

/**
 * Lists that stay fast (the Lists entry of docs/emulator.md): a page of GET /monitors and GET /reports costs the same
 * at LIST_MONITORS monitors as at 10 (each loaded with --import), one request at a time, median of many;
 * and 10 connections together get at least 2,000 list pages a second from the big one.
 */
async function emulatorListRows() {
  const big = quick ? 1000 : 100_000;
  const requests = quick ? 20 : 500;
  const load = join(dir, 'list-load.mjs');
  // Sends `count` GETs of `path` over `connections` keep-alive connections (loopback): each one's ms, and the rate.
  writeFileSync(
    load,
    `
import { Pool } from ${JSON.stringify(undiciUrl)};
const [base, token, path, connections, count] = process.argv.slice(2);
const url = new URL(base);
const pool = new Pool(url.origin, { connections: Number(connections) });
const headers = { authorization: 'Bearer ' + token };
const times = [];
let next = 0;
async function worker() {
  while (next++ < Number(count)) {
    const started = performance.now();
    const res = await pool.request({ method: 'GET', path: url.pathname + path, headers });
    await res.body.dump();
    if (res.statusCode !== 200) throw new Error(path + ' answered ' + res.statusCode);
    times.push(performance.now() - started);
  }
}
const started = performance.now();
await Promise.all(Array.from({ length: Number(connections) }, worker));
const seconds = (performance.now() - started) / 1000;
await pool.close();
process.stdout.write(JSON.stringify({ times, perSecond: times.length / seconds }));
`,
  );
  // A state of n monitors, each checked a moment ago on a daily interval: nothing falls due while measured.
  const stateOf = (n) => {
    const file = join(dir, `monitors-${n}.json`);
    const at = new Date().toISOString();
    const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
    const suffixes = new Set();
    while (suffixes.size < n)
      suffixes.add(Array.from({ length: 12 }, () => alphabet[Math.floor(Math.random() * 32)]).join(''));
    const monitors = [...suffixes].map((suffix, i) => ({
      name: `bench ${i}`,
      type: 'http',
      target: `https://m${i}.example.com/health`,
      interval_seconds: 86400,
      paused: false,
      id: `mon_${suffix}`,
      status: 'up',
      created_at: at,
      updated_at: at,
      last_check: { status: 'up', latency_ms: 20 + (i % 280), checked_at: at },
      report_id: `rpt_${suffix}`,
      extras: {},
    }));
    writeFileSync(
      file,
      JSON.stringify({ version: 1, accounts: { acct_dev: { monitors, channels: [] } }, issued_ids: [...suffixes] }),
    );
    return file;
  };
  const small = await startEmulatorProcess(['--import', stateOf(10)]);
  const large = await startEmulatorProcess(['--import', stateOf(big)]);
  const measure = (emu, path, connections, count) =>
    JSON.parse(run(node, [load, emu.base_url, emu.token, path, String(connections), String(count)]).stdout);
  try {
    // Pages of 10, so the small store's pages are as full as the large one's.
    for (const path of ['/monitors?limit=10', '/reports?limit=10']) {
      measure(large, path, 1, requests); // warm-up
      measure(small, path, 1, requests);
      const series = [[], []];
      for (let i = 0; i < FEW; i++)
        for (const [k, emu] of i % 2
          ? [
              [1, small],
              [0, large],
            ]
          : [
              [0, large],
              [1, small],
            ])
          series[k].push(median(measure(emu, path, 1, requests).times));
      report(
        `cpk emulator: GET ${path}, one page at ${big} monitors (ms)`,
        'the same page at 10 monitors',
        series,
        1.5,
      );
    }
    const rates = Array.from({ length: FEW }, () => measure(large, '/monitors?limit=20', 10, requests * 10).perSecond);
    report(
      `cpk emulator: GET /monitors?limit=20 at ${big} monitors, 10 connections (pages/s)`,
      'a floor of 2000 pages/s',
      [rates, [2000]],
      1,
      { atLeast: true },
    );
  } finally {
    await Promise.all([small.stop(), large.stop()]);
  }
}

// Creates with --persist (each on disk, fsynced, before its 201; concurrent
// ones share a write) against the same creates held in memory only: the
// price of durability, 16 in flight.
async function emulatorPersistRow() {
  const n = quick ? 50 : 5000;
  const memory = await startEmulatorProcess([]);
  const durable = await startEmulatorProcess(['--persist', join(dir, 'persist-bench.json')]);
  try {
    const creates = (emu) => () => [node, [pool, emu.base_url, emu.token, String(n)]];
    report(
      `cpk emulator --persist: ${n} creates, 16 in flight`,
      'the same creates without --persist (in memory)',
      compare(creates(durable), creates(memory)),
      2,
    );
  } finally {
    await Promise.all([memory.stop(), durable.stop()]);
  }
}

/**
 * The emulator's memory is bounded in bytes (docs/emulator.md, "Bounds"):
 * `posts` rejected creates of 1 MiB each (a blank name: 422, nothing
 * stored), 8 in flight, against an emulator of its own; its peak RSS stays
 * under 200 MiB, and it still answers a GET afterwards.
 */
async function emulatorRows() {
  const posts = quick ? 40 : 5000;
  const emu = await startEmulatorProcess([]);
  try {
    const headers = { authorization: `Bearer ${emu.token}`, 'content-type': 'application/json' };
    const payload = Buffer.from(JSON.stringify({ name: '', pad: 'x'.repeat(1024 * 1024 - 30) }));
    // The status of one request, or 0 when it failed.
    const send = (method, path, body) =>
      fetch(`${emu.base_url}${path}`, { method, headers, body }).then(
        async (res) => (await res.arrayBuffer(), res.status),
        () => 0,
      );
    let rejected = 0;
    for (let i = 0; i < posts; i += 8) {
      const statuses = await Promise.all(
        Array.from({ length: Math.min(8, posts - i) }, () => send('POST', '/monitors', payload)),
      );
      rejected += statuses.filter((s) => s === 422).length;
    }
    // The kernel's high-water mark of its resident memory.
    const peak = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${emu.pid}/status`, 'utf8'))[1]) / 1024;
    const answering = (await send('GET', '/monitors')) === 200;
    report(
      `cpk emulator: ${posts} rejected 1 MiB POSTs, peak RSS (MiB)`,
      'a bound of 200 MiB, then GET /monitors',
      [[peak], [200]],
      1,
      {
        cells: [peak.toFixed(1), `200 (${rejected} answered 422; ${answering ? 'answering' : 'NOT answering'} after)`],
        pass: answering && rejected === posts,
      },
    );
  } finally {
    await emu.stop();
  }
}

const text = [
  `cpk measured on Node ${lts.version} (start-up rows also on the machine's Node ${process.version}, without a target) on ${process.platform}/${process.arch}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}; ${quick ? 'QUICK RUN (figures meaningless)' : `${RUNS} runs each (bulk, lists, manifests and the emulator: ${FEW}), alternating`}; times in ms, median (min-max)`,
  '',
  '| what | against | cpk | baseline | ratio | target | result |',
  '|---|---|---|---|---|---|---|',
  ...rows,
].join('\n');
console.log(text);
if (options.out)
  writeFileSync(
    options.out,
    `# Benchmark results\n\nWritten by \`npm run bench -- --out bench/RESULTS.md\` on ${new Date().toISOString().slice(0, 10)}.\n\n${text}\n`,
  );
if (!quick && failed) process.exitCode = 1;
