// Issue 15, "Scale": a valid manifest is read by a fast parser; apply appends each change to a journal beside the state
// (group commit: one fsync per batch of markers), compacts it into the state
// file at the end, and the next run replays a journal a killed run left.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { journalPathOf, parseState, replayJournal, StateStore, type StateData } from '../../src/manifest/state.js';
import { parseManifest } from '../../src/manifest/positions.js';
import { buildPlan } from '../../src/manifest/plan.js';
import { applyPlan, MARK_AHEAD } from '../../src/manifest/apply.js';
import type { Api } from '../../src/core/api/client.js';

const BASE = 'https://api.example.com/v1';

async function freshStore(): Promise<StateStore> {
  const dir = mkdtempSync(join(tmpdir(), 'cpk-journal-'));
  const path = join(dir, 'cpk.state.json');
  writeFileSync(
    path,
    JSON.stringify({ version: 1, base_url: BASE, monitors: { old: { id: 'mon_old' } }, channels: {} }),
  );
  return StateStore.load(path, BASE);
}

const empty = (): StateData => ({ version: 1, base_url: BASE, monitors: {}, channels: {} });

describe('the state journal', () => {
  it('replays sets and removals in order, and ignores a last line a crash cut short', () => {
    const data = empty();
    const text = [
      '{"m":"a","r":{"create_started_at":"T0"}}',
      '{"m":"b","r":{"create_started_at":"T1"}}',
      '{"m":"a","r":{"id":"mon_a"}}',
      '{"c":"ch","r":{"applied":{"on":true}}}',
      '{"m":"b","r":null}',
      '{"m":"c","r":{"crea',
    ].join('\n');
    expect(replayJournal(text, data, 'j')).toBe(5);
    expect(data.monitors).toEqual({ a: { id: 'mon_a' } });
    expect(data.channels).toEqual({ ch: { applied: { on: true } } });
  });

  it('a damaged line that is not the last is an error naming the journal and the line', () => {
    expect(() =>
      replayJournal('{"m":"a","r":{"id":"x"}}\nnot json\n{"m":"b","r":null}\n', empty(), 'j.journal'),
    ).toThrow('the state file j.journal is damaged: line 2 is not valid JSON');
    expect(() => replayJournal('{"x":1,"r":null}\n', empty(), 'j')).toThrow('line 1 is not a change');
  });

  it('markers committed together share one write and one fsync, and a later run replays them', async () => {
    const store = await freshStore();
    const commits: Array<Promise<void>> = [];
    for (let i = 0; i < 8; i++) {
      store.markCreating(`k${i}`, { name: `k${i}` }, new Date('2026-01-01T00:00:00Z'));
      commits.push(store.commit(true));
    }
    await Promise.all(commits);
    expect(store.stats).toEqual({ saves: 0, journalWrites: 1, journalSyncs: 1 });
    // A run killed now: the state file has none of them, the journal all.
    expect(Object.keys(parseState(readFileSync(store.path, 'utf8'), store.path).monitors)).toEqual(['old']);
    const next = await StateStore.load(store.path, BASE);
    expect(next.recovered).toBe(8);
    expect(next.record('k7')).toEqual({ create_started_at: '2026-01-01T00:00:00.000Z', create_body: { name: 'k7' } });
    expect(next.record('old')).toEqual({ id: 'mon_old' });
    // Compaction: everything in the state file, the journal gone.
    await next.save();
    expect(existsSync(journalPathOf(store.path))).toBe(false);
    expect(Object.keys(parseState(readFileSync(store.path, 'utf8'), store.path).monitors)).toHaveLength(9);
  });

  it('an id is written without waiting for an fsync; a marker always waits for one', async () => {
    const store = await freshStore();
    store.setId('a', 'mon_a');
    await store.commit(false);
    expect(store.stats).toEqual({ saves: 0, journalWrites: 1, journalSyncs: 0 });
    expect(readFileSync(journalPathOf(store.path), 'utf8')).toBe('{"m":"a","r":{"id":"mon_a"}}\n');
    store.markCreating('b', { name: 'b' });
    await store.commit(true);
    expect(store.stats).toEqual({ saves: 0, journalWrites: 2, journalSyncs: 1 });
  });

  it('apply of many creates rewrites the state file once, not once per change, and sends none before its marker', async () => {
    const store = await freshStore();
    const n = 50;
    const manifest = parseManifest(
      `monitors:\n${Array.from({ length: n }, (_, i) => `  m${i}: {name: M${i}}\n`).join('')}`,
      'cpk.yaml',
    );
    let made = 0;
    const markedBeforeSent: boolean[] = [];
    const api = {
      createMonitor: async (body: { name: string }) => {
        const key = `m${body.name.slice(1)}`;
        // The marker is in the journal on disk when the request leaves.
        const journal = readFileSync(journalPathOf(store.path), 'utf8');
        markedBeforeSent.push(journal.includes(`{"m":"${key}","r":{"create_started_at"`));
        await new Promise((done) => setTimeout(done, 1));
        return { id: `mon_${made++}`, status: 'pending' };
      },
    } as unknown as Api;
    const { plan } = await buildPlan(manifest, store, api, { prune: false, createUncertain: false, concurrency: 8 });
    const { outcomes } = await applyPlan(plan, store, api, { concurrency: 8 });
    expect(outcomes.filter((o) => o.result === 'done')).toHaveLength(n);
    expect(markedBeforeSent).toEqual(Array.from({ length: n }, () => true));
    expect(store.stats.saves).toBe(1);
    expect(store.stats.journalSyncs).toBeLessThanOrEqual(n);
    expect(existsSync(journalPathOf(store.path))).toBe(false);
    const saved = parseState(readFileSync(store.path, 'utf8'), store.path).monitors;
    expect(Object.keys(saved)).toHaveLength(n + 1);
    expect(Object.values(saved).every((r) => r.id !== undefined)).toBe(true);
  });
});

describe('markers written ahead', () => {
  it('are written in chunks, one fsync per chunk, with a bounded number marked and not yet answered', async () => {
    const store = await freshStore();
    const n = 200;
    const concurrency = 8;
    const manifest = parseManifest(
      `monitors:\n${Array.from({ length: n }, (_, i) => `  m${i}: {name: M${i}}\n`).join('')}`,
      'cpk.yaml',
    );
    let made = 0;
    let mostMarked = 0;
    const api = {
      createMonitor: async () => {
        const marked = Object.values(store.data.monitors).filter((r) => r.create_started_at !== undefined).length;
        mostMarked = Math.max(mostMarked, marked);
        await new Promise((done) => setTimeout(done, 1));
        return { id: `mon_${made++}`, status: 'pending' };
      },
    } as unknown as Api;
    const { plan } = await buildPlan(manifest, store, api, { prune: false, createUncertain: false, concurrency });
    await applyPlan(plan, store, api, { concurrency });
    expect(made).toBe(n);
    // One fsync per chunk of MARK_AHEAD x concurrency markers (ids are written, not fsynced on their own).
    expect(store.stats.journalSyncs).toBeGreaterThan(0);
    expect(store.stats.journalSyncs).toBeLessThanOrEqual(Math.ceil(n / (MARK_AHEAD * concurrency)));
    // What a run killed at the worst moment leaves uncertain.
    expect(mostMarked).toBeGreaterThan(concurrency);
    expect(mostMarked).toBeLessThanOrEqual((MARK_AHEAD + 2) * concurrency);
  });

  it('creates marked ahead but never sent (interrupted) are unmarked: nothing is left uncertain', async () => {
    const store = await freshStore();
    const manifest = parseManifest(
      `monitors:\n${Array.from({ length: 10 }, (_, i) => `  m${i}: {name: M${i}}\n`).join('')}`,
      'cpk.yaml',
    );
    const stop = new AbortController();
    let made = 0;
    const api = {
      createMonitor: async () => {
        stop.abort();
        return { id: `mon_${made++}`, status: 'pending' };
      },
    } as unknown as Api;
    const { plan } = await buildPlan(manifest, store, api, { prune: false, createUncertain: false, concurrency: 4 });
    const { outcomes } = await applyPlan(plan, store, api, { concurrency: 4, stop: stop.signal });
    expect(outcomes.filter((o) => o.result === 'done')).toHaveLength(made);
    const saved = parseState(readFileSync(store.path, 'utf8'), store.path).monitors;
    expect(Object.values(saved).filter((r) => r.create_started_at !== undefined)).toEqual([]);
    expect(Object.keys(saved)).toHaveLength(made + 1);
  });
});

describe('reading a manifest', () => {
  it('keeps the file order of keys JavaScript would sort first', () => {
    const text = 'monitors:\n  "10": {name: Ten}\n  "2": {name: Two}\n';
    expect(parseManifest(text, 'm.yaml').monitors.map((m) => m.key)).toEqual(['10', '2']);
  });
});
