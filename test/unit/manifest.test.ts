// Monitors as code (#6): the pure pieces. Manifest parsing and positions,
// the diff, durations, the state file, planning and applying over a fake API.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManifestError, validate } from '../../src/manifest/positions.js';
import { validate as wholeValidator } from '../../src/manifest/manifest-validator.generated.js';
import { parseManifest } from '../../src/manifest/positions.js';
import { covers, diffFields, patchOf } from '../../src/manifest/diff.js';
import { entryFor, formatDuration, keyFor, manifestFor } from '../../src/manifest/entry.js';
import { defaultStatePath, parseState, replayJournal, serializeState, StateStore } from '../../src/manifest/state.js';
import { writeFileAtomic } from '../../src/core/atomic-file.js';
import { buildPlan, hasChanges, type MonitorStep } from '../../src/manifest/plan.js';
import { applyPlan, certainlyNotCreated } from '../../src/manifest/apply.js';
import { parseDuration } from '../../src/parse/duration.js';
import { ApiError, AuthError, InterruptedError, NetworkError, UsageError } from '../../src/core/errors.js';
import type { Api } from '../../src/core/api/client.js';
import { parseConcurrency } from '../../src/parse/concurrency.js';
import { parseImportOptions } from '../../src/commands/manifest/import.js';

function problems(text: string): string[] {
  try {
    parseManifest(text, 'm.yaml');
  } catch (error) {
    if (error instanceof ManifestError) return error.lines();
    throw error;
  }
  return [];
}

describe('validate: the schema a few entries at a time', () => {
  it('finds the same problems as one call of the whole manifest, across slices and sections', () => {
    const monitors: Record<string, unknown> = {};
    for (let i = 0; i < 700; i++)
      monitors[`m${i}`] = i % 3 === 0 ? { nme: 'x' } : { name: `M${i}`, interval: i % 5 ? '1m' : 'soon' };
    const channels: Record<string, unknown> = { ch_a: { enabled: 'yes' }, '..': {} };
    const value = { monitors, channels, custom_fields: [1], extra: true };
    const key = (e: { instancePath: string; keyword: string; params: unknown }) =>
      `${e.instancePath} ${e.keyword} ${JSON.stringify(e.params)}`;
    expect(wholeValidator(value)).toBe(false);
    const whole = (wholeValidator.errors ?? []).map(key).sort();
    expect(whole.length).toBeGreaterThan(300);
    expect(validate(value).map(key).sort()).toEqual(whole);
    expect(validate({ monitors: { a: { name: 'A' } } })).toEqual([]);
    expect(validate([]).length).toBe(1);
  });
});

describe('parseManifest', () => {
  it('turns interval into interval_seconds in place and keeps every other field as given, in file order', () => {
    const m = parseManifest(
      [
        'monitors:',
        '  b:',
        '    name: B',
        '    interval: 1h30m',
        '    tags: [x]',
        '  "2":',
        '    name: Two',
        '    interval: 90',
        '  a:',
        '    name: A',
        '    interval_seconds: 30',
        'channels:',
        '  ch_ops: {enabled: true}',
      ].join('\n'),
      'm.yaml',
    );
    expect(m.monitors).toEqual([
      { key: 'b', body: { name: 'B', interval_seconds: 5400, tags: ['x'] } },
      { key: '2', body: { name: 'Two', interval_seconds: 90 } },
      { key: 'a', body: { name: 'A', interval_seconds: 30 } },
    ]);
    expect(Object.keys(m.monitors[0]!.body)).toEqual(['name', 'interval_seconds', 'tags']);
    expect(m.channels).toEqual([{ id: 'ch_ops', settings: { enabled: true } }]);
  });

  it('accepts JSON, anchors, $schema and empty sections', () => {
    expect(parseManifest('{"$schema": "./schema.json", "monitors": {"a": {"name": "A"}}}', 'm.json').monitors).toEqual([
      { key: 'a', body: { name: 'A' } },
    ]);
    const anchored = parseManifest(
      'monitors:\n  a: &base\n    name: A\n    type: http\n  b:\n    <<: *base\n    name: B\n  c: *base\n',
      'm.yaml',
    );
    expect(anchored.monitors.find((e) => e.key === 'c')!.body).toEqual({ name: 'A', type: 'http' });
    expect(parseManifest('monitors:\nchannels:\n', 'm.yaml')).toMatchObject({
      path: 'm.yaml',
      monitors: [],
      channels: [],
      customFields: [],
    });
  });

  it.each([
    ['', ['m.yaml:1:1: the manifest must be a mapping with monitors: and/or channels:']],
    ['- a\n- b\n', ['m.yaml:1:1: the manifest must be a mapping with monitors: and/or channels:']],
    [
      'monitor:\n  a: {name: A}\n',
      ['m.yaml:1:1: unknown field "monitor" (expected monitors, channels, custom_fields or $schema)'],
    ],
    ['monitors:\n  a:\n    name: ""\n', ['m.yaml:3:11: monitors.a.name must not be empty']],
    [
      'monitors:\n  a:\n    name: A\n    status: up\n',
      ['m.yaml:4:5: monitors.a.status is set by the service and cannot be in a manifest'],
    ],
    [
      'monitors:\n  a:\n    name: A\n    interval: [1]\n',
      ['m.yaml:4:15: monitors.a.interval must be seconds (60) or a duration such as 90s, 5m, 1h or 1h30m'],
    ],
    [
      'monitors:\n  a:\n    name: A\n    interval_seconds: -5\n',
      ['m.yaml:4:23: monitors.a.interval_seconds must be at least 0'],
    ],
    ['monitors:\n  a:\n', ['m.yaml:2:3: monitors.a must be a mapping']],
    [
      'monitors:\n  -bad:\n    name: A\n',
      [
        "m.yaml:2:3: monitors.-bad: a monitor key is 1 to 100 letters, digits, '.', '_' or '-', starting with a letter or digit",
      ],
    ],
    [
      'channels:\n  "..": {enabled: true}\n',
      ["m.yaml:2:3: channels.\"..\": a channel id must not be empty, '.', '..' or contain control characters"],
    ],
    [
      'channels:\n  ch_ops:\n    events: [down, down]\n',
      ['m.yaml:3:13: channels.ch_ops.events must not list an item twice'],
    ],
    ['monitors:\n  a:\n    name: A\n    weight: .nan\n', ['m.yaml:4:13: monitors.a.weight must be a finite number']],
    [
      'monitors:\n  a: {name: A\n',
      ['m.yaml:3:1: Flow map in block collection must be sufficiently indented and end with a }'],
    ],
    ['monitors:\n  a: {name: A}\n  a: {name: B}\n', ['m.yaml:3:3: Map keys must be unique']],
  ])('%j -> %j', (text, expected) => {
    expect(problems(text)).toEqual(expected);
  });

  it('reports every problem at once, sorted by position, as a usage error', () => {
    const text = 'monitors:\n  b:\n    name: 1\n  a:\n    type: 2\n';
    expect(() => parseManifest(text, 'm.yaml')).toThrow(UsageError);
    expect(problems(text)).toEqual([
      'm.yaml:3:11: monitors.b.name must be a string',
      'm.yaml:4:3: monitors.a: missing required field "name"',
      'm.yaml:5:11: monitors.a.type must be a string',
    ]);
  });
});

describe('diff', () => {
  it.each([
    [{ a: 1, b: 2 }, { a: 1 }, true],
    [{ a: 1 }, { a: 2 }, false],
    [{ a: 1 }, { b: 1 }, false],
    [{ n: { x: 1, y: 2 } }, { n: { x: 1 } }, true],
    [{ n: { x: 1 } }, { n: { x: 1, y: 2 } }, false],
    [{ t: ['a', 'b'] }, { t: ['a', 'b'] }, true],
    [{ t: ['a', 'b'] }, { t: ['b', 'a'] }, false],
    [{ t: ['a', 'b'] }, { t: ['a'] }, false],
    [{ v: null }, { v: null }, true],
    [{ v: 1 }, { v: '1' }, false],
    [{ v: [1] }, { v: { 0: 1 } }, false],
  ])('covers(%j, %j) is %s', (actual, desired, expected) => {
    expect(covers(actual, desired)).toBe(expected);
  });

  it('names only the fields the manifest names, each with the whole manifest value', () => {
    const actual = {
      id: 'mon_1',
      status: 'up',
      name: 'A',
      interval_seconds: 60,
      notify: { email: 'a@x', sms: true },
      last_check: null,
    };
    const changes = diffFields(actual, { name: 'A', interval_seconds: 300, notify: { email: 'b@x' }, tags: ['p'] });
    expect(changes).toEqual([
      { field: 'interval_seconds', from: 60, to: 300 },
      { field: 'notify', from: { email: 'a@x', sms: true }, to: { email: 'b@x' } },
      { field: 'tags', to: ['p'] },
    ]);
    expect(patchOf(changes)).toEqual({ interval_seconds: 300, notify: { email: 'b@x' }, tags: ['p'] });
    expect(diffFields(actual, { name: 'A' })).toEqual([]);
  });
});

describe('manifest entries from monitors', () => {
  it.each([
    [0, '0'],
    [45, '45s'],
    [60, '1m'],
    [90, '1m30s'],
    [3600, '1h'],
    [86400, '1d'],
    [90061, '1d1h1m1s'],
  ])('formatDuration(%d) is %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });

  it('property: formatDuration reads back to the same seconds', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000_000 }), (n) => parseDuration(formatDuration(n)) === n));
  });

  it.each([
    [{ name: 'Checkout API', id: 'mon_1' }, 'checkout-api'],
    [{ name: '  Ümlaut -- Café!! ', id: 'mon_1' }, 'uemlaut-cafe'],
    [{ name: '***', id: 'mon_abc' }, 'mon_abc'],
    [{ id: 'weird/id' }, 'monitor'],
    // Transliterated where Latin letters say it, never `gro-e`; another script gives the id.
    [{ name: 'Zahlungsdienst Größe', id: 'mon_1' }, 'zahlungsdienst-groesse'],
    [{ name: 'Ærø Łódź straße', id: 'mon_1' }, 'aero-lodz-strasse'],
    [{ name: 'Zahlungsdienst Größe 東京', id: 'mon_tokyo' }, 'mon_tokyo'],
    [{ name: 'Проверка', id: 'mon_ru' }, 'mon_ru'],
    // At most 40 characters, cut between words; one long word is cut at 40.
    [
      { name: 'The checkout service in production behind the eu-west load balancer, with retries', id: 'mon_1' },
      'the-checkout-service-in-production',
    ],
    [{ name: 'x'.repeat(100), id: 'mon_1' }, 'x'.repeat(40)],
  ])('keyFor(%j) is %s', (monitor, key) => {
    expect(keyFor(monitor)).toBe(key);
  });

  it('leaves out what the service owns and makes keys unique', () => {
    const monitor = {
      id: 'mon_1',
      status: 'up',
      created_at: 't',
      updated_at: 't',
      last_check: null,
      report_id: 'rpt_1',
      name: 'A',
      interval_seconds: 120,
      tags: [],
    };
    expect(entryFor(monitor)).toEqual({ name: 'A', interval: '2m', tags: [] });
    const { document, keys } = manifestFor([monitor, { ...monitor, id: 'mon_2' }]);
    expect(Object.keys(document.monitors as object)).toEqual(['a', 'a-2']);
    expect(keys).toEqual([
      { key: 'a', id: 'mon_1' },
      { key: 'a-2', id: 'mon_2' },
    ]);
  });
});

describe('state file', () => {
  const good = {
    version: 1,
    base_url: 'https://api.example.com/v1',
    monitors: { b: { id: 'mon_b' }, a: { create_started_at: '2025-01-01T00:00:00Z' } },
    channels: { ch: { applied: { enabled: true } } },
  };

  it.each([
    ['cpk.yaml', 'cpk.state.json'],
    ['infra/prod.yml', join('infra', 'prod.state.json')],
    ['monitors.json', 'monitors.state.json'],
  ])('defaultStatePath(%s) is %s', (manifest, state) => {
    expect(defaultStatePath(manifest)).toBe(state);
  });

  it('serializes with sorted keys, and parses back to the same state', () => {
    const text = serializeState(parseState(JSON.stringify(good), 's.json'));
    expect(text).toBe(
      `${JSON.stringify({ ...good, monitors: { a: good.monitors.a, b: good.monitors.b } }, null, 2)}\n`,
    );
    expect(parseState(text, 's.json')).toEqual(good);
  });

  it.each([
    ['{', /not valid JSON/],
    ['[]', /not a JSON object/],
    [JSON.stringify({ ...good, version: 2 }), /written by a newer cpk/],
    [JSON.stringify({ ...good, version: undefined }), /"version" must be 1/],
    [JSON.stringify({ ...good, base_url: 3 }), /"base_url" must be a string/],
    [JSON.stringify({ ...good, monitors: { a: {} } }), /neither "id" nor "create_started_at"/],
    [JSON.stringify({ ...good, monitors: { a: { id: '..' } } }), /invalid monitors\.a\.id/],
    [
      JSON.stringify({ ...good, monitors: { a: { id: 'mon_1' }, b: { id: 'mon_1' } } }),
      /monitors\.a and monitors\.b have the same id mon_1/,
    ],
    [JSON.stringify({ ...good, channels: { ch: { enabled: true } } }), /channels\.ch\.applied must be an object/],
  ])('refuses %s as a usage error', (text, message) => {
    expect(() => parseState(text, 's.json')).toThrow(UsageError);
    expect(() => parseState(text, 's.json')).toThrow(message);
  });

  it('refuses a state file or journal line nested deeper than 1000 levels as damaged, before anything recurses', () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const text = JSON.stringify({ ...good, channels: { ch: { applied: { x: 'DEEP' } } } }).replace('"DEEP"', deep);
    expect(() => parseState(text, 's.json')).toThrow(
      /^the state file s\.json is damaged: nested deeper than 1000 levels$/,
    );
    const data = parseState(JSON.stringify(good), 's.json');
    expect(() => replayJournal(`{"c":"ch","r":{"applied":{"x":${deep}}}}\n`, data, 's.json')).toThrow(
      /^the state file s\.json is damaged: line 1 is nested deeper than 1000 levels$/,
    );
  });

  it('is refused for another base URL unless it records nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-state-'));
    const path = join(dir, 'cpk.state.json');
    writeFileSync(path, JSON.stringify(good));
    await expect(StateStore.load(path, 'https://other.example.com/v1')).rejects.toThrow(
      /records monitors of https:\/\/api\.example\.com\/v1/,
    );
    writeFileSync(
      path,
      JSON.stringify({ version: 1, base_url: 'https://api.example.com/v1', monitors: {}, channels: {} }),
    );
    const rebound = await StateStore.load(path, 'https://other.example.com/v1');
    expect(rebound.data.base_url).toBe('https://other.example.com/v1');
    const fresh = await StateStore.load(join(dir, 'none.json'), 'https://x.example.com/v1');
    expect(fresh.data).toEqual({ version: 1, base_url: 'https://x.example.com/v1', monitors: {}, channels: {} });
  });

  it('saves one whole file at a time, the last save winning, and leaves no temporary file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-state-'));
    const path = join(dir, 'cpk.state.json');
    const store = await StateStore.load(path, 'https://api.example.com/v1');
    const saves: Array<Promise<void>> = [];
    for (let i = 0; i < 20; i++) {
      store.setId(`k${i}`, `mon_${i}`);
      saves.push(store.save());
    }
    await Promise.all(saves);
    expect(Object.keys(parseState(readFileSync(path, 'utf8'), path).monitors)).toHaveLength(20);
    expect(readdirSync(dir)).toEqual(['cpk.state.json']);
  });

  it('writeFileAtomic replaces the content and cleans up when it cannot write', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-atomic-'));
    const path = join(dir, 'f.json');
    await writeFileAtomic(path, 'one');
    await writeFileAtomic(path, 'two');
    expect(readFileSync(path, 'utf8')).toBe('two');
    await expect(writeFileAtomic(join(dir, 'missing', 'f.json'), 'x')).rejects.toThrow(/ENOENT/);
    expect(readdirSync(dir)).toEqual(['f.json']);
  });
});

describe('certainlyNotCreated', () => {
  const api = (status: number) => new ApiError('x', { status, method: 'POST', url: 'u' });
  // The HTTP layer says whether a request may have reached the server (test/unit/api-layer.test.ts).
  const net = (mayHaveReachedServer: boolean) => new NetworkError('x', { mayHaveReachedServer });
  it.each([
    ['422', api(422), true],
    ['503', api(503), true],
    ['307 (not followed)', api(307), true],
    ['502 from a gateway', api(502), false],
    ['504 from a gateway', api(504), false],
    ['2xx of an unexpected shape', api(201), false],
    ['a cut-short answer (status 0)', api(0), false],
    ['connection refused (no byte left)', net(false), true],
    ['TLS handshake or proxy tunnel failed', net(false), true],
    ['timeout (may have reached)', net(true), false],
    ['a NetworkError that says nothing (may have reached)', new NetworkError('x'), false],
    ['interrupted', new InterruptedError(), false],
    ['no token', new AuthError('x'), true],
    ['something else', new Error('x'), false],
  ])('%s -> %s', (_name, error, expected) => {
    expect(certainlyNotCreated(error)).toBe(expected);
  });
});

describe('flags', () => {
  it('--concurrency is a whole number from 1 to 64, default 8', () => {
    expect(parseConcurrency(undefined)).toBe(8);
    expect(parseConcurrency('1')).toBe(1);
    expect(parseConcurrency('64')).toBe(64);
    for (const bad of ['0', '65', '1.5', 'x', '', '-1']) expect(() => parseConcurrency(bad)).toThrow(UsageError);
  });

  it('import takes KEY=ID pairs, each key and id once', () => {
    expect(parseImportOptions(['a=mon_1', 'b=x=y'], {}).pairs).toEqual([
      { key: 'a', id: 'mon_1' },
      { key: 'b', id: 'x=y' },
    ]);
    for (const bad of [['a'], ['=mon_1'], ['a='], ['a=mon_1', 'a=mon_2'], ['a=mon_1', 'b=mon_1'], ['a=..']]) {
      expect(() => parseImportOptions(bad, {}), bad.join(' ')).toThrow(UsageError);
    }
  });
});

// ---------------------------------------------------------------- plan and apply over a fake API

type Call = [string, string, unknown?];

function fakeApi(monitors: Record<string, Record<string, unknown>>, failures: Record<string, unknown> = {}) {
  const calls: Call[] = [];
  let next = 1;
  const fail = (what: string) => {
    if (what in failures) throw failures[what];
  };
  const notFound = (method: string, id: string) =>
    new ApiError('monitor not found', { status: 404, method, url: `u/${id}` });
  const api = {
    http: { buildUrl: () => 'u' },
    async getMonitor(id: string) {
      calls.push(['GET', id]);
      fail(`GET ${id}`);
      if (!monitors[id]) throw notFound('GET', id);
      return monitors[id]!;
    },
    async createMonitor(body: Record<string, unknown>) {
      calls.push(['POST', '', body]);
      fail(`POST ${String(body.name)}`);
      const id = `mon_new${next++}`;
      monitors[id] = { id, status: 'pending', ...body };
      return { id, status: 'pending' };
    },
    async updateMonitor(id: string, patch: Record<string, unknown>) {
      calls.push(['PATCH', id, patch]);
      return { id, status: 'up' };
    },
    async deleteMonitor(id: string) {
      calls.push(['DELETE', id]);
      if (!monitors[id]) throw notFound('DELETE', id);
      delete monitors[id];
      return { status: 204, body: undefined };
    },
    async updateChannel(id: string, patch: Record<string, unknown>) {
      calls.push(['PATCH channel', id, patch]);
      return { ok: true };
    },
  };
  return { api: api as unknown as Api, calls, monitors };
}

async function storeWith(
  monitors: Record<string, { id?: string; create_started_at?: string }>,
  channels: Record<string, { applied: Record<string, unknown> }> = {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'cpk-plan-'));
  const path = join(dir, 'cpk.state.json');
  writeFileSync(path, JSON.stringify({ version: 1, base_url: 'https://api.example.com/v1', monitors, channels }));
  return StateStore.load(path, 'https://api.example.com/v1');
}

const MANIFEST = parseManifest(
  [
    'monitors:',
    '  same: {name: Same, interval: 1m}',
    '  changed: {name: Changed, interval: 5m}',
    '  new: {name: New}',
    '  gone: {name: Gone}',
    '  unsure: {name: Unsure}',
    'channels:',
    '  ch_a: {enabled: true}',
    '  ch_b: {enabled: false, events: [down]}',
  ].join('\n'),
  'cpk.yaml',
);

describe('buildPlan', () => {
  it('sorts every key into what apply would do', async () => {
    const { api, calls } = fakeApi({
      mon_same: { id: 'mon_same', status: 'up', name: 'Same', interval_seconds: 60, last_check: { status: 'up' } },
      mon_changed: { id: 'mon_changed', status: 'up', name: 'Changed', interval_seconds: 60 },
      mon_old: { id: 'mon_old', name: 'Old' },
    });
    const state = await storeWith(
      {
        same: { id: 'mon_same' },
        changed: { id: 'mon_changed' },
        gone: { id: 'mon_gone' },
        unsure: { create_started_at: 'T' },
        old: { id: 'mon_old' },
        lost: { create_started_at: 'T0' },
      },
      {
        ch_a: { applied: { enabled: true } },
        ch_b: { applied: { enabled: true } },
        ch_removed: { applied: { enabled: true } },
      },
    );
    const { plan, failures } = await buildPlan(MANIFEST, state, api, {
      prune: false,
      createUncertain: false,
      concurrency: 2,
    });
    expect(failures).toEqual([]);
    expect(plan.monitors).toEqual([
      { action: 'unchanged', key: 'same', id: 'mon_same' },
      {
        action: 'update',
        key: 'changed',
        id: 'mon_changed',
        changes: [{ field: 'interval_seconds', from: 60, to: 300 }],
        patch: { interval_seconds: 300 },
      },
      { action: 'create', key: 'new', body: { name: 'New' } },
      { action: 'create', key: 'gone', body: { name: 'Gone' }, replaces: 'mon_gone' },
      { action: 'uncertain', key: 'unsure', uncertainSince: 'T' },
      { action: 'orphaned', key: 'lost', uncertainSince: 'T0' },
      { action: 'orphaned', key: 'old', id: 'mon_old' },
    ]);
    expect(plan.channels).toEqual([
      { action: 'unchanged', id: 'ch_a' },
      {
        action: 'update',
        id: 'ch_b',
        changes: [
          { field: 'enabled', from: true, to: false },
          { field: 'events', to: ['down'] },
        ],
        patch: { enabled: false, events: ['down'] },
      },
    ]);
    expect(plan.droppedChannels).toEqual(['ch_removed']);
    expect(plan.allRecordedGone).toBe(false);
    expect(calls.every(([method]) => method === 'GET')).toBe(true);

    const pruned = await buildPlan(MANIFEST, state, api, { prune: true, createUncertain: true, concurrency: 2 });
    expect(pruned.plan.monitors.slice(4)).toEqual([
      { action: 'create', key: 'unsure', body: { name: 'Unsure' }, uncertainSince: 'T' },
      { action: 'forget', key: 'lost', uncertainSince: 'T0' },
      { action: 'delete', key: 'old', id: 'mon_old' },
    ]);
  });

  it('a plan with only unchanged and kept monitors has no changes; failures to read are returned, in manifest order', async () => {
    const { api } = fakeApi(
      { mon_same: { name: 'Same', interval_seconds: 60 } },
      { 'GET mon_changed': new ApiError('boom', { status: 500, method: 'GET', url: 'u' }) },
    );
    const manifest = parseManifest('monitors:\n  same: {name: Same, interval: 60}\n', 'cpk.yaml');
    const state = await storeWith({ same: { id: 'mon_same' }, other: { id: 'mon_other' } });
    const { plan } = await buildPlan(manifest, state, api, { prune: false, createUncertain: false, concurrency: 1 });
    expect(hasChanges(plan)).toBe(false);
    const both = await buildPlan(
      MANIFEST,
      await storeWith({ changed: { id: 'mon_changed' }, same: { id: 'mon_same' } }),
      api,
      { prune: false, createUncertain: false, concurrency: 2 },
    );
    expect(both.failures.map((f) => f.key)).toEqual(['changed']);
  });

  it('notices when every recorded monitor answers 404, even one (another account?), and not when one of two does', async () => {
    const { api } = fakeApi({});
    const two = await buildPlan(MANIFEST, await storeWith({ new: { id: 'mon_a' }, gone: { id: 'mon_b' } }), api, {
      prune: false,
      createUncertain: false,
      concurrency: 2,
    });
    expect(two.plan.allRecordedGone).toBe(true);
    const one = await buildPlan(MANIFEST, await storeWith({ gone: { id: 'mon_b' } }), api, {
      prune: false,
      createUncertain: false,
      concurrency: 2,
    });
    expect(one.plan.allRecordedGone).toBe(true);
    const some = await buildPlan(
      MANIFEST,
      await storeWith({ same: { id: 'mon_same' }, gone: { id: 'mon_b' } }),
      fakeApi({ mon_same: { name: 'Same', interval_seconds: 60 } }).api,
      { prune: false, createUncertain: false, concurrency: 2 },
    );
    expect(some.plan.allRecordedGone).toBe(false);
  });
});

describe('applyPlan', () => {
  it('creates, updates and sets channels first, deletes last, and records each change', async () => {
    const { api, calls } = fakeApi({
      mon_changed: { name: 'Changed' },
      mon_old: { name: 'Old' },
      mon_same: { name: 'Same', interval_seconds: 60 },
    });
    const state = await storeWith(
      {
        same: { id: 'mon_same' },
        changed: { id: 'mon_changed' },
        gone: { id: 'mon_gone' },
        old: { id: 'mon_old' },
        lost: { create_started_at: 'T0' },
      },
      { ch_removed: { applied: {} } },
    );
    const manifest = parseManifest(
      'monitors:\n  same: {name: Same, interval: 1m}\n  changed: {name: Changed, paused: true}\n  new: {name: New}\n  gone: {name: Gone}\nchannels:\n  ch_a: {enabled: true}\n',
      'cpk.yaml',
    );
    const { plan } = await buildPlan(manifest, state, api, { prune: true, createUncertain: false, concurrency: 1 });
    calls.length = 0;
    const { outcomes } = await applyPlan(plan, state, api, { concurrency: 1 });
    expect(outcomes.map((o) => [o.step.action, o.result, o.id])).toEqual([
      ['update', 'done', 'mon_changed'],
      ['create', 'done', 'mon_new1'],
      ['create', 'done', 'mon_new2'],
      ['update', 'done', undefined],
      ['forget', 'done', undefined],
      ['delete', 'done', 'mon_old'],
    ]);
    expect(calls).toEqual([
      ['PATCH', 'mon_changed', { paused: true }],
      ['POST', '', { name: 'New' }],
      ['POST', '', { name: 'Gone' }],
      ['PATCH channel', 'ch_a', { enabled: true }],
      ['DELETE', 'mon_old'],
    ]);
    const saved = parseState(readFileSync(state.path, 'utf8'), state.path);
    expect(saved.monitors).toEqual({
      same: { id: 'mon_same' },
      changed: { id: 'mon_changed' },
      new: { id: 'mon_new1' },
      gone: { id: 'mon_new2' },
    });
    expect(saved.channels).toEqual({ ch_a: { applied: { enabled: true } } });
  });

  it('a create the service refused leaves no marker; one whose answer was lost stays uncertain; a delete of a gone monitor is done', async () => {
    const timeout = new NetworkError('timed out', { mayHaveReachedServer: true });
    const { api } = fakeApi(
      {},
      { 'POST Refused': new ApiError('invalid', { status: 422, method: 'POST', url: 'u' }), 'POST Lost': timeout },
    );
    const state = await storeWith({ gone: { id: 'mon_gone' } });
    const manifest = parseManifest(
      'monitors:\n  refused: {name: Refused}\n  lost: {name: Lost}\n  unsure: {name: Unsure}\n',
      'cpk.yaml',
    );
    state.markCreating('unsure', { name: 'Unsure' }, new Date('2025-01-01T00:00:00Z'));
    const { plan } = await buildPlan(manifest, state, api, { prune: true, createUncertain: false, concurrency: 1 });
    const { outcomes } = await applyPlan(plan, state, api, { concurrency: 1 });
    expect(outcomes.map((o) => [(o.step as MonitorStep).key, o.result, o.note])).toEqual([
      ['refused', 'failed', undefined],
      ['lost', 'failed', undefined],
      ['unsure', 'failed', undefined],
      ['gone', 'done', 'already gone'],
    ]);
    expect(String((outcomes[1]!.error as Error).message)).toMatch(
      /timed out; the create may have reached the service, so .* marks "lost" as uncertain/,
    );
    expect((outcomes[1]!.error as NetworkError).exitCode).toBe(3);
    const saved = parseState(readFileSync(state.path, 'utf8'), state.path);
    expect(saved.monitors).toEqual({
      lost: { create_started_at: expect.any(String), create_body: { name: 'Lost' } },
      unsure: { create_started_at: '2025-01-01T00:00:00.000Z', create_body: { name: 'Unsure' } },
    });
  });

  it('a create interrupted while its marker was written is not sent, and leaves no marker', async () => {
    const { api, calls } = fakeApi({});
    const state = await storeWith({});
    const { plan } = await buildPlan(parseManifest('monitors:\n  a: {name: A}\n', 'cpk.yaml'), state, api, {
      prune: false,
      createUncertain: false,
      concurrency: 1,
    });
    const stop = new AbortController();
    const commit = state.commit.bind(state);
    state.commit = (durable) => {
      stop.abort();
      return commit(durable);
    };
    const { outcomes } = await applyPlan(plan, state, api, { concurrency: 1, stop: stop.signal });
    expect(outcomes.map((o) => o.result)).toEqual(['skipped']);
    expect(calls).toEqual([]);
    expect(parseState(readFileSync(state.path, 'utf8'), state.path).monitors).toEqual({});
  });

  it('starts nothing once stopped, and reports what never started as skipped', async () => {
    const { api, calls } = fakeApi({});
    const state = await storeWith({});
    const manifest = parseManifest('monitors:\n  a: {name: A}\n  b: {name: B}\n', 'cpk.yaml');
    const { plan } = await buildPlan(manifest, state, api, { prune: false, createUncertain: false, concurrency: 1 });
    const stop = new AbortController();
    const { outcomes } = await applyPlan(plan, state, api, {
      concurrency: 1,
      stop: stop.signal,
      onOutcome: () => stop.abort(),
    });
    expect(outcomes.map((o) => [(o.step as MonitorStep).key, o.result])).toEqual([
      ['a', 'done'],
      ['b', 'skipped'],
    ]);
    expect(calls).toHaveLength(1);
  });
});
