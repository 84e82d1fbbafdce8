// Uncertain creates that resolve themselves: where the service
// declares a list of monitors, the run after an interrupted apply adopts the
// monitor a create made, creates again what made nothing, and reports several
// candidates. Against a service that declares nothing, nothing changes.
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { createServer, request } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { killTracked } from '../helpers/children.js';
import { useEmulator } from '../helpers/emulator.js';
import { startEmulator, type Emulator } from '../../src/emulator/server.js';
import { runCpk } from '../helpers/in-process.js';
import { useReferenceServer } from '../helpers/reference-server.js';
import { journalPathOf, parseState, replayJournal } from '../../src/manifest/state.js';

const f = useEmulator({}, { inProcess: true });

function setup(prefix: string, count: number): { dir: string; file: string; names: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'cpk-adopt-'));
  const names = Array.from({ length: count }, (_, i) => `${prefix} ${i}`);
  const body = names
    .map((name, i) => `  m${i}:\n    name: ${name}\n    type: http\n    target: https://m${i}.example.com\n`)
    .join('');
  const file = join(dir, 'cpk.yaml');
  writeFileSync(file, `monitors:\n${body}`);
  return { dir, file, names };
}

type Records = Record<string, { id?: string; create_started_at?: string; create_body?: Record<string, unknown> }>;

/** The state as the next run reads it: the state file, with the journal a killed run left replayed onto it. */
function readState(dir: string): Records {
  const path = join(dir, 'cpk.state.json');
  const data = parseState(readFileSync(path, 'utf8'), path);
  if (existsSync(journalPathOf(path))) replayJournal(readFileSync(journalPathOf(path), 'utf8'), data, path);
  return data.monitors;
}

function byName(prefix: string): Array<Record<string, unknown>> {
  return f.emu.monitors().filter((m) => String(m.name).startsWith(prefix));
}

function countByName(prefix: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of byName(prefix)) counts.set(String(m.name), (counts.get(String(m.name)) ?? 0) + 1);
  return counts;
}

/**
 * Between cpk and the emulator for the whole file: a proxy that passes every request and answer, except for
 * the run killDuringCreates starts. For that run, the first create's answer (the emulator has made the
 * monitor by then) is never passed on: cpk is killed instead, as a crash mid-request loses an answer, and
 * nothing it sent after that moment reaches the emulator. What did reach it is answered before the run ends.
 */
let killRun: (() => Promise<unknown>) | undefined;
let cut = false;
const doomed = new WeakSet<Socket>();
let inFlight = 0;
let drained: (() => void) | undefined;
beforeAll(async () => {
  const proxy = createServer((req, res) => {
    if (cut && doomed.has(req.socket)) return void res.destroy();
    inFlight++;
    const upstream = request(`${f.emu.url}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      if (req.method === 'POST' && killRun && doomed.has(req.socket)) {
        cut = true;
        answer.resume();
        return void killRun().then(() => res.destroy());
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    upstream.on('close', () => {
      if (--inFlight === 0) drained?.();
    });
    // A request cut off by the kill: the emulator gets no part of it.
    req.on('close', () => {
      if (!req.complete) upstream.destroy();
    });
    req.pipe(upstream);
  });
  proxy.on('connection', (socket) => {
    if (killRun) doomed.add(socket);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  f.env.CPK_BASE_URL = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1`;
  return () => {
    proxy.closeAllConnections();
    return new Promise<void>((resolve) => proxy.close(() => resolve()));
  };
});

/**
 * Kills an apply during its creates, after the emulator made their monitors and before cpk read a single
 * answer to one. Whatever the machine's speed, cpk never learns the ids, so every create it sent stays
 * uncertain in its state; on return, every create that reached the emulator has made its monitor.
 */
async function killDuringCreates(file: string, prefix: string, concurrency: string): Promise<void> {
  let cpk: ChildProcess | undefined;
  let killed: Promise<unknown> | undefined;
  cut = false;
  killRun = () => (killed ??= cpk ? killTracked(cpk) : Promise.resolve());
  try {
    const result = await f.spawned(['apply', '-f', file, '--yes', '--concurrency', concurrency], {
      onSpawn: (child) => (cpk = child),
    });
    expect(result.signal).toBe('SIGKILL');
  } finally {
    killRun = undefined;
  }
  if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
  drained = undefined;
  expect(byName(prefix).length).toBeGreaterThan(0);
}

async function post(body: Record<string, unknown>, emu: Emulator = f.emu): Promise<string> {
  const res = await fetch(`${emu.baseUrl}/monitors`, {
    method: 'POST',
    headers: { authorization: `Bearer ${emu.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

describe('uncertain creates against a service that declares a list of monitors', () => {
  it('after SIGKILL during creates, the next apply adopts what was made and creates the rest: one monitor per entry', async () => {
    const { dir, file, names } = setup('adopt', 6);
    await killDuringCreates(file, 'adopt ', '4');
    const before = readState(dir);
    const uncertain = Object.keys(before).filter((k) => before[k]?.id === undefined);
    expect(uncertain.length).toBeGreaterThan(0);
    const made = byName('adopt ').map((m) => ({ key: `m${String(m.name).slice('adopt '.length)}`, id: String(m.id) }));
    expect(made.length).toBeGreaterThan(0);

    const requests = f.mark();
    const plan = await f.cpk(['plan', '-f', file]);
    expect(plan.code, plan.stderr).toBe(10);
    // One listing, narrowed by the declared `type` filter the entries set.
    expect(
      requests()
        .filter((r) => r.path.startsWith('/v1/monitors?'))
        .map((r) => r.path),
    ).toEqual(['/v1/monitors?type=http&limit=100']);
    expect(plan.stdout).toMatch(/Plan: \d+ to create, 0 to update, 0 to delete, \d+ unchanged, \d+ to adopt\./);
    for (const { key, id } of made.filter((m) => uncertain.includes(m.key)))
      expect(plan.stderr).toContain(`found ${id} for entry ${key}, made by the uncertain create sent at`);
    expect(plan.stdout).not.toContain('uncertain');
    const planJson = await f.cpk(['plan', '-f', file, '--json']);
    expect(
      (JSON.parse(planJson.stdout) as { adopted: Array<{ key: string; id: string }> }).adopted.sort((x, y) =>
        x.key.localeCompare(y.key),
      ),
    ).toEqual(made.filter((m) => uncertain.includes(m.key)).sort((x, y) => x.key.localeCompare(y.key)));
    // plan writes nothing: the markers are still there.
    expect(readState(dir)).toEqual(before);
    // A saved plan describes the state file as it is on disk: it adopts nothing, lists nothing, and says so.
    const listed = f.mark();
    const saved = await f.cpk(['plan', '-f', file, '--out', join(dir, 'plan.json')]);
    expect(saved.code, saved.stderr).toBe(10);
    expect(saved.stderr).toContain('a saved plan leaves uncertain creates as they are: run `cpk apply`');
    expect(listed().filter((r) => r.path.startsWith('/v1/monitors?'))).toEqual([]);
    const document = JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8')) as {
      adopted?: unknown;
      monitors: Array<{ key: string; action: string }>;
    };
    expect(document.adopted).toBeUndefined();
    expect(
      document.monitors
        .filter((m) => m.action === 'uncertain')
        .map((m) => m.key)
        .sort(),
    ).toEqual([...uncertain].sort());
    expect(readState(dir)).toEqual(before);

    const again = await f.cpk(['apply', '-f', file, '--yes']);
    expect(again.code, again.stderr).toBe(0);
    const adopted = made.filter((m) => uncertain.includes(m.key));
    expect(adopted.length).toBeGreaterThan(0);
    for (const { key, id } of adopted) expect(again.stderr).toContain(`adopted ${id} for entry ${key}\n`);
    const counts = countByName('adopt ');
    expect([...counts.keys()].sort()).toEqual(names);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    // None uncertain: every key records the id of the one monitor of its name.
    const after = readState(dir);
    expect(Object.keys(after).sort()).toEqual(names.map((_, i) => `m${i}`).sort());
    for (const m of byName('adopt ')) expect(after[`m${String(m.name).slice('adopt '.length)}`]).toEqual({ id: m.id });

    const plan2 = await f.cpk(['plan', '-f', file]);
    expect(plan2.code, plan2.stdout).toBe(0);
  });

  it('several candidates: reported with their ids and `cpk import`, nothing created, exit 1', async () => {
    const { dir, file } = setup('several', 1);
    await killDuringCreates(file, 'several ', '1');
    expect(readState(dir).m0).toEqual({ create_started_at: expect.any(String), create_body: expect.any(Object) });
    const first = String(byName('several ')[0]?.id);
    // Someone made the same monitor by hand since.
    const second = await post({ name: 'several 0', type: 'http', target: 'https://m0.example.com' });
    const ids = [first, second].sort();

    const plan = await f.cpk(['plan', '-f', file, '--json']);
    expect(plan.code, plan.stderr).toBe(10);
    const json = JSON.parse(plan.stdout) as { monitors: Array<Record<string, unknown>> };
    expect(json.monitors).toEqual([
      { key: 'm0', action: 'uncertain', uncertain_since: expect.any(String), candidates: ids },
    ]);

    const apply = await f.cpk(['apply', '-f', file, '--yes']);
    expect(apply.code).toBe(1);
    expect(apply.stdout).toContain(`! m0: uncertain`);
    expect(apply.stdout).toContain(`it could be ${ids.join(', ')}: adopt the right one with: cpk import m0=ID`);
    expect(apply.stderr).toContain(`2 monitors could be the one it made: ${ids.join(', ')}`);
    expect(apply.stderr).toContain(`adopt the right one with \`cpk import m0=${ids[0]}\``);
    expect(byName('several ').length).toBe(2);
    expect(readState(dir).m0).toEqual({ create_started_at: expect.any(String), create_body: expect.any(Object) });
  });

  it("a matching monitor made before the marker is not the create's: the create is sent again", async () => {
    // A service whose one matching monitor was made 10 minutes ago (an emulator restored from a file).
    const dir = mkdtempSync(join(tmpdir(), 'cpk-adopt-older-'));
    const persist = join(dir, 'emulator.json');
    const first = await startEmulator({ port: 0, persistFile: persist });
    const old = await post({ name: 'older 0', type: 'http', target: 'https://m0.example.com' }, first);
    await first.close();
    const saved = JSON.parse(readFileSync(persist, 'utf8')) as {
      accounts: Record<string, { monitors: Array<Record<string, unknown>> }>;
    };
    const tenMinutesAgo = new Date(Date.now() - 10 * 60_000).toISOString();
    for (const account of Object.values(saved.accounts))
      for (const m of account.monitors) m.created_at = m.updated_at = tenMinutesAgo;
    writeFileSync(persist, JSON.stringify(saved));
    const emu = await startEmulator({ port: 0, persistFile: persist });
    try {
      const file = join(dir, 'cpk.yaml');
      const body = { name: 'older 0', type: 'http', target: 'https://m0.example.com' };
      writeFileSync(file, 'monitors:\n  m0:\n    name: older 0\n    type: http\n    target: https://m0.example.com\n');
      const since = new Date(Date.now() - 1000).toISOString();
      const state = {
        version: 1,
        base_url: emu.baseUrl,
        monitors: { m0: { create_started_at: since, create_body: body } },
        channels: {},
      };
      writeFileSync(join(dir, 'cpk.state.json'), JSON.stringify(state));
      const env = { CPK_BASE_URL: emu.baseUrl, CPK_TOKEN: emu.token };
      // A monitor with other fields made after it is no candidate either.
      await post({ name: 'older 0', type: 'http', target: 'https://elsewhere.example.com' }, emu);

      const apply = await runCpk(['apply', '-f', file, '--yes'], { env });
      expect(apply.code, apply.stderr).toBe(0);
      expect(apply.stderr).toContain(
        `no monitor matches entry m0: the uncertain create sent at ${since} made none, so apply creates it again`,
      );
      const id = readState(dir).m0?.id;
      expect(id).toMatch(/^mon_/);
      expect(id).not.toBe(old);
      expect(emu.monitors().filter((m) => m.name === 'older 0').length).toBe(3);
    } finally {
      await emu.close();
    }
  });

  it('after a kill and an edit of the entry, the monitor is found by the body that was sent: adopted and updated, never made twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-adopt-'));
    const file = join(dir, 'cpk.yaml');
    const entry = (interval: number) =>
      `monitors:\n  web:\n    name: edited 0\n    type: http\n    target: https://web.example.com\n    interval_seconds: ${interval}\n`;
    writeFileSync(file, entry(60));
    await killDuringCreates(file, 'edited ', '1');
    expect(readState(dir).web).toEqual({
      create_started_at: expect.any(String),
      create_body: { name: 'edited 0', type: 'http', target: 'https://web.example.com', interval_seconds: 60 },
    });
    const made = String(byName('edited ')[0]?.id);
    writeFileSync(file, entry(300));

    const apply = await f.cpk(['apply', '-f', file, '--yes']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stderr).toContain(`adopted ${made} for entry web\n`);
    expect(apply.stdout).toContain('Apply: 0 created, 1 updated');
    expect(byName('edited ').map((m) => [m.id, m.interval_seconds])).toEqual([[made, 300]]);
    expect(readState(dir).web).toEqual({ id: made });
  });

  it('a marker of an older cpk (no body kept) that matches nothing stays uncertain: the entry may have been edited', async () => {
    const { dir, file } = setup('nobody', 1);
    const since = new Date(Date.now() - 1000).toISOString();
    const state = {
      version: 1,
      base_url: f.env.CPK_BASE_URL,
      monitors: { m0: { create_started_at: since } },
      channels: {},
    };
    writeFileSync(join(dir, 'cpk.state.json'), JSON.stringify(state));
    // The create made a monitor from the entry as it read then; the entry was edited since.
    await post({ name: 'nobody 0', type: 'http', target: 'https://before-the-edit.example.com' });

    const apply = await f.cpk(['apply', '-f', file, '--yes']);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain(
      'entry m0 stays uncertain: no monitor matches the entry as it reads now, but its marker (written by an older cpk) does not keep what was sent',
    );
    expect(apply.stderr).toContain('if its monitor exists, adopt it with `cpk import m0=ID`');
    expect(byName('nobody ').length).toBe(1);
    expect(readState(dir).m0).toEqual({ create_started_at: since });
  });

  it("a marker later than the service's clock by more than 60 s stays uncertain, saying why: never created again", async () => {
    const { dir, file } = setup('ahead', 1);
    const body = { name: 'ahead 0', type: 'http', target: 'https://m0.example.com' };
    // The create was sent by a machine whose clock ran 5 minutes ahead of the service's.
    const made = await post(body);
    const since = new Date(Date.now() + 5 * 60_000).toISOString();
    const state = {
      version: 1,
      base_url: f.env.CPK_BASE_URL,
      monitors: { m0: { create_started_at: since, create_body: body } },
      channels: {},
    };
    writeFileSync(join(dir, 'cpk.state.json'), JSON.stringify(state));

    const plan = await f.cpk(['plan', '-f', file, '--json']);
    expect(plan.code, plan.stderr).toBe(10);
    expect((JSON.parse(plan.stdout) as { monitors: unknown[] }).monitors).toEqual([
      {
        key: 'm0',
        action: 'uncertain',
        uncertain_since: since,
        candidates: [made],
        unresolved: expect.stringContaining("its marker is later than the service's clock"),
      },
    ]);
    const apply = await f.cpk(['apply', '-f', file, '--yes']);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain("entry m0 stays uncertain: its marker is later than the service's clock (");
    expect(apply.stderr).toContain(
      `by more than 60 s (written by a clock that ran ahead), so creation times cannot tell which monitor it made (it could be ${made})`,
    );
    expect(apply.stderr).not.toContain('made none');
    expect(byName('ahead ').map((m) => m.id)).toEqual([made]);
    expect(readState(dir).m0).toEqual(state.monitors.m0);
  });

  it("--create-uncertain skips the search: today's behaviour, on request", async () => {
    const { dir, file } = setup('forced', 1);
    await post({ name: 'forced 0', type: 'http', target: 'https://m0.example.com' });
    const state = {
      version: 1,
      base_url: f.env.CPK_BASE_URL,
      monitors: { m0: { create_started_at: new Date(Date.now() - 1000).toISOString() } },
      channels: {},
    };
    writeFileSync(join(dir, 'cpk.state.json'), JSON.stringify(state));
    const requests = f.mark();
    const apply = await f.cpk(['apply', '-f', file, '--yes', '--create-uncertain']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(requests().filter((r) => r.method === 'GET' && r.path.startsWith('/v1/monitors?'))).toEqual([]);
    expect(byName('forced ').length).toBe(2);
    expect(readState(dir).m0?.id).toMatch(/^mon_/);
  });
});

describe('uncertain creates against a service that declares nothing', () => {
  const ref = useReferenceServer();

  it('stay uncertain: no listing, no adoption, apply refuses as before', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-adopt-ref-'));
    const file = join(dir, 'cpk.yaml');
    writeFileSync(file, 'monitors:\n  m0:\n    name: ref 0\n    target: https://m0.example.com\n');
    const env = { CPK_BASE_URL: ref.baseUrl, CPK_TOKEN: ref.token };
    const since = new Date(Date.now() - 1000).toISOString();
    const state = { version: 1, base_url: ref.baseUrl, monitors: { m0: { create_started_at: since } }, channels: {} };
    writeFileSync(join(dir, 'cpk.state.json'), JSON.stringify(state));
    // The create did make it.
    ref.monitors.set('ref_mon_x', { id: 'ref_mon_x', name: 'ref 0', target: 'https://m0.example.com', status: 'up' });

    const plan = await runCpk(['plan', '-f', file], { env });
    expect(plan.code, plan.stderr).toBe(10);
    expect(plan.stdout).toContain('! m0: uncertain');
    const apply = await runCpk(['apply', '-f', file, '--yes'], { env });
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('never got its answer recorded, so the monitor may already exist');
    expect(apply.stderr).toContain('if it exists, adopt it with `cpk import m0=ID`');
    expect(ref.requests.filter((r) => r.method !== 'GET' || r.path.split('?')[0] !== '/v1/openapi.json')).toEqual([]);
    expect(ref.monitors.size).toBe(1);
    expect(readState(dir).m0).toEqual({ create_started_at: since });
  });
});
