// Uncertain creates that resolve themselves: matching, the clock
// rule, narrowing parameters and ambiguity, over the emulator's own document
// and a fake list.
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_LIST_PAGES } from '../../src/core/api/list.js';
import { analyzeSpec } from '../../src/core/api/spec.js';
import { buildOpenApiDocument } from '../../src/emulator/openapi.js';
import {
  CLOCK_SKEW_MS,
  isCandidate,
  matchFields,
  narrowingParams,
  resolveUncertain,
} from '../../src/manifest/adopt.js';
import { parseManifest } from '../../src/manifest/positions.js';
import { StateStore } from '../../src/manifest/state.js';
import type { Api } from '../../src/core/api/client.js';

const spec = analyzeSpec(buildOpenApiDocument('http://127.0.0.1:1/v1'));
const since = '2026-01-01T00:00:00.000Z';
const at = (ms: number) => new Date(Date.parse(since) + ms).toISOString();

describe('matchFields', () => {
  it('keeps the fields the document declares for a create, leaving custom ones out', () => {
    expect(matchFields(spec, { name: 'a', type: 'http', interval_seconds: 60, team: 'web' })).toEqual({
      name: 'a',
      type: 'http',
      interval_seconds: 60,
    });
  });
  it("without a declared create body, uses the interface's fields", () => {
    expect(matchFields(analyzeSpec(null), { name: 'a', target: 't', paused: true, team: 'web' })).toEqual({
      name: 'a',
      target: 't',
    });
  });
});

describe('narrowingParams', () => {
  const op = spec.list('monitors')!;
  it.each([
    [{ name: 'a', type: 'http' }, [['type', 'http']]],
    [{ name: 'a' }, []],
    // A value outside the declared enum would be refused: no filter, not an error.
    [{ name: 'a', type: 'carrier-pigeon' }, []],
  ])('%j -> %j', (fields, params) => {
    expect(narrowingParams(op, fields)).toEqual(params);
  });
});

describe('isCandidate', () => {
  const fields = { name: 'a', type: 'http' };
  it.each([
    ['same fields, made after the marker', { name: 'a', type: 'http', created_at: at(1) }, true],
    [
      'made within the clock-skew allowance before it',
      { name: 'a', type: 'http', created_at: at(-CLOCK_SKEW_MS) },
      true,
    ],
    ['made before it, beyond the allowance', { name: 'a', type: 'http', created_at: at(-CLOCK_SKEW_MS - 1) }, false],
    ['another field differs', { name: 'a', type: 'tcp', created_at: at(1) }, false],
    ['a field missing', { name: 'a', created_at: at(1) }, false],
    ['an unreadable creation time does not rule it out', { name: 'a', type: 'http', created_at: 'soon' }, true],
  ])('%s', (_what, item, expected) => {
    expect(isCandidate(item, fields, since, 'created_at')).toBe(expected);
  });
  it('without a declared creation time, the fields decide', () => {
    expect(isCandidate({ name: 'a', type: 'http', created_at: at(-3_600_000) }, fields, since, undefined)).toBe(true);
  });
});

describe('resolveUncertain', () => {
  async function setup(items: unknown[], markers: Record<string, string>, headers: Record<string, string> = {}) {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-adopt-unit-'));
    const manifest = parseManifest(
      'monitors:\n  a:\n    name: A\n  b:\n    name: B\n  c:\n    name: A\n  d:\n    name: D\n',
      join(dir, 'cpk.yaml'),
    );
    const state = await StateStore.load(join(dir, 'cpk.state.json'), 'http://x/v1');
    const sent = (key: string) => manifest.monitors.find((m) => m.key === key)?.body ?? {};
    for (const [key, value] of Object.entries(markers))
      state.setRecord(
        key,
        value.startsWith('mon_') ? { id: value } : { create_started_at: value, create_body: sent(key) },
      );
    const queries: unknown[] = [];
    const api = {
      baseUrl: 'http://x/v1',
      listPage: async (
        path: string,
        query: Array<[string, string]>,
        onHeaders?: (headers: Record<string, string>) => void,
      ) => {
        queries.push([path, query]);
        onHeaders?.(headers);
        return { data: items, next_cursor: null };
      },
    } as unknown as Api;
    return { manifest, state, api, queries };
  }

  it('adopts a single match, reports none and several, and never adopts a managed monitor', async () => {
    const { manifest, state, api, queries } = await setup(
      [
        { id: 'mon_b1', name: 'B', created_at: at(5) },
        { id: 'mon_b2', name: 'B', created_at: at(6) },
        { id: 'mon_a1', name: 'A', created_at: at(5) },
        { id: 'mon_d0', name: 'D', created_at: at(5) },
      ],
      { a: since, b: since, d: 'mon_d0' },
    );
    expect(await resolveUncertain(manifest, state, api, spec)).toEqual([
      { kind: 'adopt', key: 'a', since, id: 'mon_a1' },
      { kind: 'unsure', key: 'b', since, ids: ['mon_b1', 'mon_b2'] },
    ]);
    // One listing for both (no narrowing field set), the declared maximum page size.
    expect(queries).toEqual([['/monitors', [['limit', '100']]]]);
    // It changes nothing.
    expect(state.record('a')).toEqual({ create_started_at: since, create_body: { name: 'A' } });
  });

  it('one monitor that could be the one of two entries is neither`s', async () => {
    const { manifest, state, api } = await setup([{ id: 'mon_a1', name: 'A', created_at: at(5) }], {
      a: since,
      c: since,
    });
    expect(await resolveUncertain(manifest, state, api, spec)).toEqual([
      { kind: 'unsure', key: 'a', since, ids: ['mon_a1'] },
      { kind: 'unsure', key: 'c', since, ids: ['mon_a1'] },
    ]);
  });

  it('nothing to do without a declared list or without an uncertain entry', async () => {
    const { manifest, state, api, queries } = await setup([], { a: since });
    expect(await resolveUncertain(manifest, state, api, analyzeSpec(null))).toEqual([]);
    state.setRecord('a', { id: 'mon_x' });
    expect(await resolveUncertain(manifest, state, api, spec)).toEqual([]);
    expect(queries).toEqual([]);
  });

  it('a service clock behind ours (its Date header) widens the allowance by as much: the monitor is still found', async () => {
    // Our clock runs 5 minutes ahead of the service's, as it did when the marker was written.
    const ahead = 5 * 60_000;
    const serviceNow = new Date(Date.now() - ahead);
    const marker = new Date(Date.now() - 30_000).toISOString();
    // Made when the marker was written, by the service's clock.
    const created = new Date(Date.parse(marker) - ahead).toISOString();
    const { manifest, state, api } = await setup(
      [{ id: 'mon_d', name: 'D', created_at: created }],
      { d: marker },
      { date: serviceNow.toUTCString() },
    );
    expect(await resolveUncertain(manifest, state, api, spec)).toEqual([
      { kind: 'adopt', key: 'd', since: marker, id: 'mon_d' },
    ]);
  });

  it('a list whose cursor never runs out ends with an error after MAX_LIST_PAGES pages, changing nothing', async () => {
    const { manifest, state } = await setup([], { a: since });
    let pages = 0;
    const api = {
      baseUrl: 'http://x/v1',
      listPage: async () => {
        pages++;
        return { data: [{ id: `mon_endless${pages}`, name: `endless ${pages}` }], next_cursor: `c${pages}` };
      },
    } as unknown as Api;
    await expect(resolveUncertain(manifest, state, api, spec)).rejects.toThrow(
      `the service sent more than ${MAX_LIST_PAGES} pages while listing http://x/v1/monitors; stopped to avoid a loop`,
    );
    expect(pages).toBe(MAX_LIST_PAGES);
    expect(state.record('a')).toEqual({ create_started_at: since, create_body: { name: 'A' } });
  });

  it('absent when nothing matches', async () => {
    const { manifest, state, api } = await setup([{ id: 'mon_zz', name: 'Z', created_at: at(5) }], { d: since });
    expect(await resolveUncertain(manifest, state, api, spec)).toEqual([{ kind: 'absent', key: 'd', since }]);
  });
});

describe('adoption in the plan', () => {
  it('counts as a change, and plan and apply --json list it', async () => {
    const { hasChanges } = await import('../../src/manifest/plan.js');
    const { applyJson, renderPlan, renderPlanMarkdown } = await import('../../src/manifest/render.js');
    const { planDocument } = await import('../../src/manifest/saved.js');
    const meta = { createdAt: '2026-11-23T00:00:00.000Z', token: undefined, stateDigest: 'sha256:0' };
    const planJson = (p: Parameters<typeof planDocument>[0]) => planDocument(p, meta);
    const plan = {
      manifest: 'cpk.yaml',
      state: 'cpk.state.json',
      baseUrl: 'http://x/v1',
      monitors: [{ action: 'unchanged' as const, key: 'a', id: 'mon_a' }],
      channels: [],
      droppedChannels: [],
      allRecordedGone: false,
      observed: [],
    };
    expect(hasChanges(plan)).toBe(false);
    expect(planJson(plan)).not.toHaveProperty('adopted');
    const adopting = { ...plan, adopted: [{ key: 'a', id: 'mon_a', since }] };
    expect(hasChanges(adopting)).toBe(true);
    expect(planJson(adopting).adopted).toEqual([{ key: 'a', id: 'mon_a' }]);
    expect(applyJson(adopting, []).adopted).toEqual([{ key: 'a', id: 'mon_a' }]);
    const id = (text: string) => text;
    const plain = { add: id, change: id, remove: id, warn: id, dim: id };
    expect(renderPlan(adopting, plain)).toContain(
      'Plan: 0 to create, 0 to update, 0 to delete, 1 unchanged, 1 to adopt.',
    );
    const markdown = renderPlanMarkdown(adopting);
    expect(markdown).toContain('| to adopt | 1 |');
    expect(markdown).toContain(`! a: adopt mon_a (made by the uncertain create sent at ${since})`);
  });
});
