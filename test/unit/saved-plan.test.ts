// Saved plans: the digests that make a plan stale, the document
// read back into the steps apply carries out, and what -f names.
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  changesSince,
  monitorDigest,
  planDocument,
  readSavedPlan,
  stateDigest,
  type SavedPlan,
} from '../../src/manifest/saved.js';
import type { Api } from '../../src/core/api/client.js';
import { ApiError } from '../../src/core/errors.js';
import type { Plan } from '../../src/manifest/plan.js';
import { manifestFiles } from '../../src/manifest/load.js';
import { parseManifestFlags } from '../../src/cli/manifest-flags.js';
import { toJson } from '../../src/output/json.js';

const BASE = 'https://api.example.com/v1';

describe('plan digests', () => {
  it('a monitor digest ignores key order and what the service changes as it checks, and nothing else', () => {
    const body = { id: 'mon_1', name: 'a', tags: ['x', 'y'], http: { method: 'GET', headers: { a: '1', b: '2' } } };
    const same = { http: { headers: { b: '2', a: '1' }, method: 'GET' }, tags: ['x', 'y'], name: 'a', id: 'mon_1' };
    expect(monitorDigest(same)).toBe(monitorDigest(body));
    expect(monitorDigest({ ...body, status: 'up', last_check: { at: 'now' } })).toBe(monitorDigest(body));
    expect(monitorDigest({ ...body, name: 'b' })).not.toBe(monitorDigest(body));
    expect(monitorDigest({ ...body, tags: ['y', 'x'] })).not.toBe(monitorDigest(body));
    expect(monitorDigest(body)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('a state digest changes with any record', () => {
    const data = { version: 1, base_url: BASE, monitors: { a: { id: 'mon_1' } }, channels: {} };
    expect(stateDigest({ ...data, monitors: { a: { id: 'mon_1' } } })).toBe(stateDigest(data));
    expect(stateDigest({ ...data, monitors: { a: { id: 'mon_2' } } })).not.toBe(stateDigest(data));
  });
});

describe('the plan document', () => {
  it('reads back into the steps it was made from', async () => {
    const plan: Plan = {
      manifest: 'cpk.yaml',
      state: 'cpk.state.json',
      baseUrl: BASE,
      monitors: [
        { action: 'create', key: 'new', body: { name: 'n', interval_seconds: 60 } },
        { action: 'create', key: 'gone', body: { name: 'g' }, replaces: 'mon_9' },
        {
          action: 'update',
          key: 'web',
          id: 'mon_1',
          changes: [
            { field: 'name', from: 'w', to: 'w2' },
            { field: 'tags', to: ['a'] },
          ],
          patch: { name: 'w2', tags: ['a'] },
        },
        { action: 'unchanged', key: 'api', id: 'mon_2' },
        { action: 'delete', key: 'old', id: 'mon_3' },
        { action: 'orphaned', key: 'kept', id: 'mon_4' },
        { action: 'uncertain', key: 'maybe', uncertainSince: '2026-01-01T00:00:00.000Z' },
        { action: 'forget', key: 'lost', uncertainSince: '2026-01-02T00:00:00.000Z' },
      ],
      channels: [
        { action: 'update', id: 'ch_1', changes: [{ field: 'enabled', to: true }], patch: { enabled: true } },
        { action: 'unchanged', id: 'ch_2' },
      ],
      droppedChannels: ['ch_3'],
      allRecordedGone: false,
      observed: [
        { key: 'web', id: 'mon_1', body: { id: 'mon_1', name: 'w' } },
        { key: 'gone', id: 'mon_9', body: null },
      ],
    };
    const document = planDocument(plan, {
      createdAt: '2026-01-03T00:00:00.000Z',
      token: 'sha256:0123456789abcdef',
      stateDigest: `sha256:${'0'.repeat(64)}`,
    });
    const file = join(mkdtempSync(join(tmpdir(), 'cpk-plan-')), 'plan.json');
    writeFileSync(file, toJson(document, 2));
    const saved = await readSavedPlan(file);
    expect(saved.plan).toEqual({ ...plan, observed: [] });
    expect(saved.observed).toEqual([
      { key: 'web', id: 'mon_1', digest: monitorDigest({ id: 'mon_1', name: 'w' }) },
      { key: 'gone', id: 'mon_9', digest: null },
    ]);
    expect([saved.createdAt, saved.token, saved.stateDigest]).toEqual([
      '2026-01-03T00:00:00.000Z',
      'sha256:0123456789abcdef',
      `sha256:${'0'.repeat(64)}`,
    ]);
  });
});

describe('whether a saved plan still holds', () => {
  const state = { version: 1, base_url: BASE, monitors: { a: { id: 'mon_a' } }, channels: {} };
  const live: Record<string, object> = {
    mon_a: { id: 'mon_a', name: 'a', status: 'up' },
    mon_b: { id: 'mon_b', name: 'b, edited' },
    mon_d: { id: 'mon_d', name: 'd' },
  };
  const api = {
    getMonitor: async (id: string) => {
      if (live[id]) return live[id];
      throw new ApiError('monitor not found', { status: 404 } as never);
    },
  } as unknown as Api;
  const saved = (stateDigestWas: string): SavedPlan => ({
    plan: {
      manifest: 'cpk.yaml',
      state: 'cpk.state.json',
      baseUrl: BASE,
      monitors: [],
      channels: [],
      droppedChannels: [],
      allRecordedGone: false,
      observed: [],
    },
    createdAt: '2026-01-01T00:00:00.000Z',
    token: null,
    stateDigest: stateDigestWas,
    observed: [
      { key: 'a', id: 'mon_a', digest: monitorDigest({ id: 'mon_a', name: 'a', status: 'pending' }) },
      { key: 'b', id: 'mon_b', digest: monitorDigest({ id: 'mon_b', name: 'b' }) },
      { key: 'c', id: 'mon_c', digest: monitorDigest({ id: 'mon_c', name: 'c' }) },
      { key: 'd', id: 'mon_d', digest: null },
      { key: 'e', id: 'mon_e', digest: null },
    ],
  });

  it('names the state and each monitor that changed, in the plan order; a status change is not one', async () => {
    expect(await changesSince(saved(stateDigest(state)), state, api, { concurrency: 2 })).toEqual([
      'monitor b (mon_b) changed',
      'monitor c (mon_c) was deleted',
      'monitor d (mon_d) answers again',
    ]);
    expect(await changesSince(saved(`sha256:${'1'.repeat(64)}`), state, api, { concurrency: 8 })).toEqual([
      'the state file cpk.state.json changed',
      'monitor b (mon_b) changed',
      'monitor c (mon_c) was deleted',
      'monitor d (mon_d) answers again',
    ]);
  });
});

describe('-f', () => {
  it('repeats, and defaults to cpk.yaml', () => {
    expect(parseManifestFlags({}).files).toEqual(['cpk.yaml']);
    expect(parseManifestFlags({ file: ['a.yaml', 'dir'] }).files).toEqual(['a.yaml', 'dir']);
    expect(() => parseManifestFlags({ file: ['a.yaml', ' '] })).toThrow('--file must not be empty');
  });

  it('a directory is its manifests, sorted, without state files, saved plans, hidden files or subdirectories', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-dir-'));
    for (const name of [
      'b.yml',
      'a.yaml',
      'C.JSON',
      'cpk.state.json',
      'plan.json',
      'pr.plan.json',
      '.draft.yaml',
      'x.txt',
    ])
      writeFileSync(join(dir, name), '');
    mkdirSync(join(dir, 'sub.yaml'));
    expect(await manifestFiles([dir])).toEqual({
      files: ['C.JSON', 'a.yaml', 'b.yml'].map((name) => join(dir, name)),
      directory: dir,
    });
    expect(await manifestFiles([dir, 'other.yaml'])).toEqual({
      files: [...['C.JSON', 'a.yaml', 'b.yml'].map((name) => join(dir, name)), 'other.yaml'],
      directory: undefined,
    });
  });
});
