#!/usr/bin/env node
// `npm run bench`: the speed targets of docs/performance.md, "Performance", measured as
// ratios against Node's own floor, side by side in one run. Runs alternate
// between the commands compared so that machine drift cancels out. Starts its
// own emulator on loopback and writes nothing outside a temp dir (unless
// `--out FILE` is given). `--quick` runs a tiny version (used by the test
// suite to check that the benchmark works; its figures mean nothing).
import { spawn, spawnSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { installNode } from './install-node.mjs';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const outIndex = args.indexOf('--out');
const outFile = outIndex >= 0 ? args[outIndex + 1] : undefined;
const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin/cpk.js');
const node = process.execPath;
const RUNS = quick ? 1 : 30;
const BULK_RUNS = quick ? 1 : 5;
const BULK_IDS = quick ? 20 : 1000;
/** The number after `flag`, or `fallback` when the flag is not given (a bad number is an error). */
function numberArg(flag, fallback) {
  const at = args.indexOf(flag);
  if (at < 0) return fallback;
  const value = Number(args[at + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${flag} takes a whole number, not ${args[at + 1]}`);
  return value;
}
// Monitors as code: entries per manifest, and runs of each comparison.
const MANIFEST_N = quick ? 20 : numberArg('--entries', 5000);
const MANIFEST_RUNS = quick ? 1 : 5;
// `--only startup|bulk|render|manifest|emulator` runs those rows alone (to measure before/after a change).
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
// Rendering at scale: rows of the listed table against the same list as jsonl.
const LIST_ROWS = quick ? 2000 : numberArg('--rows', 50_000);

const dir = mkdtempSync(join(tmpdir(), 'cpk-bench-'));
const env = { PATH: process.env.PATH, HOME: dir, CPK_CONFIG_DIR: join(dir, 'config'), LANG: 'C.UTF-8' };
delete env.NODE_EXTRA_CA_CERTS;

// --- the emulator, in its own process so it does not share the measured ones' CPU time accounting
const info = await startEmulatorProcess([]);
const apiEnv = { ...env, CPK_BASE_URL: info.base_url, CPK_TOKEN: info.token };

// --- baselines: minimal scripts doing the same work with Node alone
const undiciUrl = pathToFileURL(join(root, 'node_modules/undici/index.js')).href;
writeFileSync(
  join(dir, 'get-http.mjs'),
  `
import { request } from 'node:http';
const [url, token] = process.argv.slice(2);
request(url, { headers: { authorization: 'Bearer ' + token } }, (res) => {
  const chunks = [];
  res.on('data', (c) => chunks.push(c));
  res.on('end', () => process.stdout.write(Buffer.concat(chunks)));
}).end();
`,
);
writeFileSync(
  join(dir, 'delete-pool.mjs'),
  `
import { Pool } from ${JSON.stringify(undiciUrl)};
import { readFileSync } from 'node:fs';
const [base, token] = process.argv.slice(2);
const ids = readFileSync(0, 'utf8').split('\\n').filter(Boolean);
const url = new URL(base);
const pool = new Pool(url.origin, { connections: 16 });
let next = 0;
async function worker() {
  while (next < ids.length) {
    const id = ids[next++];
    const res = await pool.request({ method: 'DELETE', path: url.pathname + '/monitors/' + encodeURIComponent(id), headers: { authorization: 'Bearer ' + token } });
    await res.body.dump();
  }
}
await Promise.all(Array.from({ length: 16 }, worker));
await pool.close();
`,
);
writeFileSync(
  join(dir, 'create-pool.mjs'),
  `
import { Pool } from ${JSON.stringify(undiciUrl)};
const [base, token, count] = process.argv.slice(2);
const url = new URL(base);
const pool = new Pool(url.origin, { connections: 16 });
const ids = [];
let made = 0;
async function worker() {
  while (made < Number(count)) {
    made++;
    const res = await pool.request({ method: 'POST', path: url.pathname + '/monitors', headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' }, body: '{"name":"bench"}' });
    ids.push((await res.body.json()).id);
  }
}
await Promise.all(Array.from({ length: 16 }, worker));
await pool.close();
process.stdout.write(ids.join('\\n') + '\\n');
`,
);

function run(cmd, argv, options = {}) {
  const started = process.hrtime.bigint();
  const r = spawnSync(cmd, argv, {
    env: options.env ?? env,
    input: options.input,
    cwd: options.cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} exited ${r.status}: ${r.stderr.slice(0, 300)}`);
  return { ms, stdout: r.stdout };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Alternates a and b `runs` times (after one warm-up of each); returns both series. */
function compare(a, b, runs, prepare) {
  const ta = [];
  const tb = [];
  for (const x of [a, b]) run(...x(prepare?.()));
  for (let i = 0; i < runs; i++) {
    const [first, second] =
      i % 2
        ? [
            [b, tb],
            [a, ta],
          ]
        : [
            [a, ta],
            [b, tb],
          ];
    for (const [x, into] of [first, second]) into.push(run(...x(prepare?.())).ms);
  }
  return { a: ta, b: tb };
}

const rows = [];
function report(what, against, series, target, { lowerIsBetter = true } = {}) {
  const ma = median(series.a);
  const mb = median(series.b);
  const ratio = ma / mb;
  rows.push({
    what,
    against,
    cpk: `${ma.toFixed(1)} (${Math.min(...series.a).toFixed(1)}-${Math.max(...series.a).toFixed(1)})`,
    base: `${mb.toFixed(1)} (${Math.min(...series.b).toFixed(1)}-${Math.max(...series.b).toFixed(1)})`,
    ratio: ratio.toFixed(2),
    target: target === undefined ? 'none' : `<= ${target}x`,
    pass: target === undefined ? undefined : lowerIsBetter ? ratio <= target : ratio >= target,
  });
}

// Start-up is measured on the current LTS, Node 26 (installed from the npm
// registry's node package, as scripts/test-node.mjs installs one), with its
// compile cache warm, against that same Node; and on the machine's Node,
// without a target. --quick uses the machine's Node for both (no download).
const lts = quick ? { node, version: process.version } : installNode('26');
// Every row with a target measures cpk and its baseline on that Node (the
// speed targets are the current LTS's); the machine's Node gets the start-up
// rows without a target. The emulator and the list server run on the machine's Node.
const measured = lts.node;
const monitorId = JSON.parse(
  run(node, [bin, 'monitors', 'create', '--name', 'bench', '--target', 'https://example.com', '--json'], {
    env: apiEnv,
  }).stdout,
).id;
run(node, [bin, 'monitors', 'get', monitorId], { env: apiEnv });

// A server answering GET /monitors with LIST_ROWS monitors in pages of 1,000 (the
// emulator's own pages stop at 100, and creating 50,000 monitors would measure
// the emulator), and the emulator's document, which declares that list.
writeFileSync(join(dir, 'openapi.json'), await (await fetch(`${info.base_url}/openapi.json`)).text());
writeFileSync(
  join(dir, 'list-server.mjs'),
  `
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
const [docFile, count] = process.argv.slice(2);
const doc = readFileSync(docFile);
const PAGE = 1000;
const pages = [];
for (let from = 0; from < Number(count); from += PAGE) {
  const data = [];
  for (let i = from; i < Math.min(Number(count), from + PAGE); i++) {
    const id = 'mon_' + String(i).padStart(12, 'a');
    data.push({ id, name: 'Monitor number ' + i, type: 'http', target: 'https://m' + i + '.example.com/health',
      interval_seconds: 60, paused: false, status: i % 7 ? 'up' : 'down', created_at: '2026-11-22T00:00:00.000Z',
      updated_at: '2026-11-22T00:00:00.000Z', last_check: { status: 'up', latency_ms: 20 + (i % 280), checked_at: '2026-11-22T00:01:00.000Z' },
      report_id: 'rpt_' + id.slice(4), tags: ['bench', 'team ' + (i % 10)] });
  }
  pages.push(data);
}
const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname === '/v1/openapi.json') {
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end(doc);
  }
  if (url.pathname === '/v1/monitors') {
    const page = Number(url.searchParams.get('cursor') ?? 0);
    const next = page + 1 < pages.length ? String(page + 1) : null;
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end(JSON.stringify({ data: pages[page] ?? [], next_cursor: next }));
  }
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end('{"error":"not found"}');
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`,
);
const listServer =
  only === undefined || only === 'render'
    ? spawn(node, [join(dir, 'list-server.mjs'), join(dir, 'openapi.json'), String(LIST_ROWS)], {
        stdio: ['ignore', 'pipe', 'inherit'],
      })
    : undefined;
const listPort = listServer
  ? Number(await new Promise((resolve) => createInterface({ input: listServer.stdout }).once('line', resolve)))
  : 0;

try {
  if (only === undefined || only === 'startup') {
    startupRows(lts.node, `Node ${lts.version}, compile cache warm`, true);
    startupRows(node, `the machine's Node ${process.version}`, false);
  }
  if (only === undefined || only === 'bulk') bulkRows();
  if (only === undefined || only === 'render') renderRows();
  if (only === undefined || only === 'manifest') manifestRows();
  if (only === undefined || only === 'emulator') {
    await emulatorPersistRow();
    await emulatorRows();
  }
} finally {
  listServer?.kill('SIGTERM');
  // The emulator may still write Node's compile cache under dir as it exits: wait for it.
  await info.stop();
  rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}

/**
 * cpk's start-up against `node -e 0` and a node:http GET script, all on the
 * Node `nodeBin` (each compare() starts with a warm-up run: the compile cache is
 * then written). With `targets` false, the rows are reported without one.
 */
function startupRows(nodeBin, label, targets) {
  const suffix = targets ? '' : ", machine's Node";
  const target = (x) => (targets ? x : undefined);
  const floor = () => [nodeBin, ['-e', '0']];
  const cpk =
    (argv, runEnv = env) =>
    () => [nodeBin, [bin, ...argv], { env: runEnv }];
  const floorName = `node -e 0 (${label})`;
  report(`cpk --version${suffix}`, floorName, compare(cpk(['--version']), floor, RUNS), target(1.2));
  report(`cpk --help${suffix}`, floorName, compare(cpk(['--help']), floor, RUNS), target(1.5));
  report(`cpk monitors --help${suffix}`, floorName, compare(cpk(['monitors', '--help']), floor, RUNS), target(2.5));
  const httpGet = () => [nodeBin, [join(dir, 'get-http.mjs'), `${info.base_url}/monitors/${monitorId}`, info.token]];
  const httpName = `node:http GET script (${label})`;
  const get = cpk(['monitors', 'get', monitorId, '--json'], apiEnv);
  report(`cpk monitors get ID --json${suffix}`, httpName, compare(get, httpGet, RUNS), target(1.35));
  const table = cpk(['monitors', 'get', monitorId], apiEnv);
  report(`cpk monitors get ID (table)${suffix}`, httpName, compare(table, httpGet, RUNS), target(1.5));

  // Peak RSS, read by the kernel's rusage of each child (python3).
  const rssA = [];
  const rssB = [];
  for (let i = 0; i < (quick ? 1 : 10); i++) {
    rssA.push(peakRss([nodeBin, bin, 'monitors', 'get', monitorId, '--json'], apiEnv));
    rssB.push(peakRss([nodeBin, '-e', '0'], env));
  }
  if (rssA.every((x) => x !== undefined) && rssB.every((x) => x !== undefined)) {
    const ma = median(rssA);
    const mb = median(rssB);
    rows.push({
      what: `peak RSS of cpk monitors get ID --json (MiB)${suffix}`,
      against: floorName,
      cpk: ma.toFixed(1),
      base: mb.toFixed(1),
      ratio: (ma / mb).toFixed(2),
      target: targets ? '<= 1.4x' : 'none',
      pass: targets ? ma / mb <= 1.4 : undefined,
    });
  }
}

function bulkRows() {
  // Bulk: 1000 DELETEs from stdin, against a minimal undici Pool script with 16 in flight.
  const makeIds = () =>
    run(measured, [join(dir, 'create-pool.mjs'), info.base_url, info.token, String(BULK_IDS)]).stdout;
  const bulk = compare(
    (ids) => [measured, [bin, 'monitors', 'delete', '-', '--yes'], { env: apiEnv, input: ids }],
    (ids) => [measured, [join(dir, 'delete-pool.mjs'), info.base_url, info.token], { input: ids }],
    BULK_RUNS,
    makeIds,
  );
  report(`cpk monitors delete - --yes (${BULK_IDS} ids)`, 'undici Pool script, 16 in flight', bulk, 1.3);
  // A bash loop of curl, once (it is slow): cpk must be at least 5x faster.
  const curlIds = makeIds();
  const script = `while read -r id; do curl -s -o /dev/null -X DELETE -H "Authorization: Bearer $CPK_TOKEN" "$CPK_BASE_URL/monitors/$id"; done`;
  const curl = run('bash', ['-c', script], { env: apiEnv, input: curlIds });
  const cpkMedian = median(bulk.a);
  rows.push({
    what: `bash loop of curl (${BULK_IDS} DELETEs) / cpk`,
    against: 'cpk monitors delete -',
    cpk: cpkMedian.toFixed(1),
    base: curl.ms.toFixed(1),
    ratio: (curl.ms / cpkMedian).toFixed(2),
    target: '>= 5x',
    pass: curl.ms / cpkMedian >= 5,
  });
}

// A list of LIST_ROWS monitors as a table (held, measured, rendered) against the same list as jsonl (streamed).
function renderRows() {
  const listEnv = { ...env, CPK_BASE_URL: `http://127.0.0.1:${listPort}/v1`, CPK_TOKEN: 'cpk_bench_token' };
  const list = (format) => () => [measured, [bin, 'monitors', 'list', '-o', format], { env: listEnv }];
  const check = run(...list('table')());
  const lines = check.stdout.split('\n').length - 2; // the header and the final newline
  if (lines !== LIST_ROWS) throw new Error(`monitors list printed ${lines} rows, expected ${LIST_ROWS}`);
  report(
    `cpk monitors list: ${LIST_ROWS} rows as a table`,
    'the same list -o jsonl',
    compare(list('table'), list('jsonl'), quick ? 1 : 5),
    2,
  );
}

// Peak RSS (MiB) of one run, read by the kernel's rusage of the child (python3), or undefined.
function peakRss(argv, runEnv, cwd) {
  const py = spawnSync(
    'python3',
    [
      '-c',
      'import resource,subprocess,sys,os; r=subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=os.environ); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if r.returncode == 0 else -1)',
      ...argv,
    ],
    { env: runEnv, encoding: 'utf8', cwd },
  );
  const kib = Number(py.stdout.trim());
  return py.status !== 0 || !(kib > 0) ? undefined : kib / 1024;
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
    MANIFEST_RUNS,
    () => fresh(N),
  );
  report(`cpk apply --yes (${N} new entries)`, `cpk monitors create --from (${N})`, applyNew, 1.5);

  // One applied manifest for the unchanged rows.
  const applied = fresh(N);
  run(...cpkIn(applied, ['apply', '--yes', '-f', join(applied, 'cpk.yaml')]));
  const state = JSON.parse(readFileSync(join(applied, 'cpk.state.json'), 'utf8'));
  const ids = `${Object.values(state.monitors)
    .map((r) => r.id)
    .join('\n')}\n`;
  const plan = () => [measured, [bin, 'plan', '-f', join(applied, 'cpk.yaml')], { env: apiEnv, cwd: applied }];
  const getIds = () => [measured, [bin, 'monitors', 'get', '-', '--json'], { env: apiEnv, input: ids }];
  const planSeries = compare(plan, getIds, MANIFEST_RUNS);
  report(`cpk plan (${N} unchanged)`, `cpk monitors get - --json (${N} ids)`, planSeries, 1.3);
  const applyNothing = () => cpkIn(applied, ['apply', '--yes', '-f', join(applied, 'cpk.yaml')]);
  report(
    `cpk apply --yes (${N} unchanged)`,
    `cpk plan (${N} unchanged)`,
    compare(applyNothing, plan, MANIFEST_RUNS),
    1,
  );
  // The control of that row: apply with nothing to change does plan's work
  // plus taking the lock, so its ratio is 1 give or take the noise, which
  // this row (plan against itself, the same runs) shows. No target.
  const control = compare(plan, plan, MANIFEST_RUNS);
  rows.push({
    what: `cpk plan (${N} unchanged), control`,
    against: 'the same plan (the noise of the row above)',
    cpk: `${median(control.a).toFixed(1)} (${Math.min(...control.a).toFixed(1)}-${Math.max(...control.a).toFixed(1)})`,
    base: `${median(control.b).toFixed(1)} (${Math.min(...control.b).toFixed(1)}-${Math.max(...control.b).toFixed(1)})`,
    ratio: (median(control.a) / median(control.b)).toFixed(2),
    target: 'none',
    pass: undefined,
  });

  // Peak memory of apply at N/5 and N new entries: the slope is MiB per 1,000 entries.
  const small = Math.max(1, Math.round(N / 5));
  const rssOf = (n) => {
    const d = fresh(n);
    return peakRss([measured, bin, 'apply', '--yes', '-f', join(d, 'cpk.yaml')], apiEnv, d);
  };
  const rssSmall = rssOf(small);
  const rssBig = rssOf(N);
  if (rssSmall !== undefined && rssBig !== undefined) {
    const perThousand = ((rssBig - rssSmall) / (N - small)) * 1000;
    const base = rssSmall - (perThousand * small) / 1000;
    rows.push({
      what: `peak RSS of cpk apply: ${small} and ${N} new entries (MiB)`,
      against: 'MiB per 1,000 entries (slope)',
      cpk: `${rssSmall.toFixed(1)} / ${rssBig.toFixed(1)}`,
      base: `${perThousand.toFixed(1)} MiB per 1,000`,
      ratio: (rssBig / rssSmall).toFixed(2),
      // Linear: the fixed part plus N times the slope, far below N/small times the small run.
      target: `<= ${(N / small).toFixed(0)}x`,
      pass: base > 0 && rssBig / rssSmall <= N / small,
    });
  }
}

/** Starts `cpk emulator --port 0 --json --quiet ...extra` in its own process; resolves with its first line, its pid and a stop function. */
async function startEmulatorProcess(extra) {
  const child = spawn(node, [bin, 'emulator', '--port', '0', '--json', '--quiet', ...extra], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env,
  });
  const first = JSON.parse(
    await new Promise((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`emulator exited ${code}`)));
    }),
  );
  const stop = () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    return exited;
  };
  return { ...first, pid: child.pid, stop };
}

// Creates with --persist (each on disk, fsynced, before its 201; concurrent
// ones share a write) against the same creates held in memory only: the
// price of durability, 16 in flight.
async function emulatorPersistRow() {
  const n = quick ? 50 : 5000;
  const memory = await startEmulatorProcess([]);
  const durable = await startEmulatorProcess(['--persist', join(dir, 'persist-bench.json')]);
  try {
    const creates = (emu) => () => [node, [join(dir, 'create-pool.mjs'), emu.base_url, emu.token, String(n)]];
    report(
      `cpk emulator --persist: ${n} creates, 16 in flight`,
      'the same creates without --persist (in memory)',
      compare(creates(durable), creates(memory), quick ? 1 : 5),
      2,
    );
  } finally {
    await Promise.all([memory.stop(), durable.stop()]);
  }
}

/**
 * The emulator's memory is bounded in bytes (docs/emulator.md, "Bounds"):
 * EMULATOR_POSTS rejected creates of 1 MiB each (a blank name: 422, nothing
 * stored), 8 in flight, against an emulator of its own; its peak RSS (read
 * from /proc every 200 requests and at the end) stays under 300 MiB, and it
 * still answers a GET afterwards.
 */
async function emulatorRows() {
  const posts = quick ? 40 : 5000;
  const emu = await startEmulatorProcess([]);
  try {
    const headers = { authorization: `Bearer ${emu.token}` };
    const body = Buffer.from(JSON.stringify({ name: '', pad: 'x'.repeat(1024 * 1024 - 30) }));
    const send = (method, path, payload) =>
      new Promise((resolve) => {
        const req = httpRequest(
          `${emu.base_url}${path}`,
          { method, headers: payload ? { ...headers, 'content-type': 'application/json' } : headers },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode));
          },
        );
        req.on('error', () => resolve(0));
        req.end(payload);
      });
    const rss = () => {
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${emu.pid}/status`, 'utf8'));
      return m ? Number(m[1]) / 1024 : 0;
    };
    let peak = rss();
    let rejected = 0;
    for (let i = 0; i < posts; i += 8) {
      const statuses = await Promise.all(
        Array.from({ length: Math.min(8, posts - i) }, () => send('POST', '/monitors', body)),
      );
      rejected += statuses.filter((s) => s === 422).length;
      if (i % 200 === 0) peak = Math.max(peak, rss());
    }
    peak = Math.max(peak, rss());
    const answering = (await send('GET', '/monitors')) === 200;
    rows.push({
      what: `cpk emulator: ${posts} rejected 1 MiB POSTs, peak RSS (MiB)`,
      against: 'a bound of 300 MiB, then GET /monitors',
      cpk: peak.toFixed(1),
      base: `300 (${rejected} answered 422; ${answering ? 'answering' : 'NOT answering'} after)`,
      ratio: (peak / 300).toFixed(2),
      target: '<= 1x',
      pass: peak <= 300 && answering && rejected === posts,
    });
  } finally {
    await emu.stop();
  }
}

const lines = [
  `cpk measured on Node ${lts.version} (start-up rows also on the machine's Node ${process.version}, without a target) on ${process.platform}/${process.arch}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}; ${quick ? 'QUICK RUN (figures meaningless)' : `${RUNS} runs each (bulk: ${BULK_RUNS}; manifests: ${MANIFEST_RUNS}), alternating`}; times in ms, median (min-max)`,
  '',
  '| what | against | cpk | baseline | ratio | target | result |',
  '|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.what} | ${r.against} | ${r.cpk} | ${r.base} | ${r.ratio} | ${r.target} | ${r.pass === undefined ? '-' : r.pass ? 'pass' : 'FAIL'} |`,
  ),
];
const text = lines.join('\n');
console.log(text);
if (outFile)
  writeFileSync(
    outFile,
    `# Benchmark results\n\nWritten by \`npm run bench -- --out bench/RESULTS.md\` on ${new Date().toISOString().slice(0, 10)}.\n\n${text}\n`,
  );
if (!quick && rows.some((r) => r.pass === false)) process.exitCode = 1;
