// The local inventory (src/config/inventory.ts): what this machine knows, per base URL and token.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync, mkdirSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  InventoryRecorder,
  inventoryPath,
  MAX_ENTRIES,
  TRIM_BATCH,
  tokenFingerprint,
} from '../../src/config/inventory.js';
import { Api } from '../../src/core/api/client.js';
import { ApiError } from '../../src/core/errors.js';
import type { HttpClient } from '../../src/core/http/client.js';

const base = 'http://127.0.0.1:9/v1';
const token = 'cpk_secret_token_value';
const env = () => ({ CPK_DATA_DIR: mkdtempSync(join(tmpdir(), 'cpk-inv-')) });
const readInventory = (baseUrl: string, token: string, e: Record<string, string>) =>
  new InventoryRecorder(baseUrl, token, e).entries();

describe('inventory', () => {
  it('remembers monitors seen and forgets deleted ones, per base URL and token, never storing the token', async () => {
    const e = env();
    const rec = new InventoryRecorder(base, token, e, undefined, () => 1000);
    rec.seen({ id: 'mon_a', name: 'A' });
    rec.seen({ id: 'mon_b', name: 'B' });
    rec.seen({ id: 'mon_c' });
    rec.gone('mon_b');
    await rec.flush();
    expect(readInventory(base, token, e).map((m) => [m.id, m.name])).toEqual([
      ['mon_a', 'A'],
      ['mon_c', undefined],
    ]);
    expect(readInventory(base, 'cpk_other_token', e)).toEqual([]);
    expect(readInventory('http://127.0.0.1:10/v1', token, e)).toEqual([]);
    const text = readFileSync(inventoryPath(base, token, e), 'utf8');
    expect(text).not.toContain(token);
    expect(text).toContain(tokenFingerprint(token));
  });

  it('a whole list forgets the ids it did not hold, not one another command saw while it was read', async () => {
    const e = env();
    let t = 1000;
    const earlier = new InventoryRecorder(base, token, e, undefined, () => t);
    earlier.seen({ id: 'mon_gone', name: 'Gone' });
    earlier.seen({ id: 'mon_listed', name: 'Listed' });
    earlier.seen({ id: 'ch_gone', name: 'Channel' }, 'channels');
    await earlier.flush();
    t = 2000;
    const lister = new InventoryRecorder(base, token, e, undefined, () => t);
    const since = lister.mark();
    t = 2001;
    const other = new InventoryRecorder(base, token, e, undefined, () => t);
    other.seen({ id: 'mon_made_meanwhile', name: 'New' });
    await other.flush();
    lister.seen({ id: 'mon_listed', name: 'Listed' });
    lister.wholeList('monitors', since);
    await lister.flush();
    expect(readInventory(base, token, e).map((m) => m.id)).toEqual(['mon_listed', 'mon_made_meanwhile']);
    // Only the kind that was listed: the channels stay.
    expect(new InventoryRecorder(base, token, e).entries('channels').map((c) => [c.id, c.name])).toEqual([
      ['ch_gone', 'Channel'],
    ]);
  });

  // An upgrade must find the inventory an older cpk wrote: its file name is a
  // fixed function of the base URL and the token's fingerprint.
  it('names its file as every earlier version did', () => {
    const e = { CPK_DATA_DIR: '/data' };
    expect(tokenFingerprint('cpk_live_abc123')).toBe('5fa18b7b3968cd48');
    expect(inventoryPath('https://api.example.com/v1', 'cpk_live_abc123', e)).toBe(
      join('/data', 'inventory', '1b610c3c78f2b55b.json'),
    );
    expect(inventoryPath('http://127.0.0.1:8080/v1', undefined, e)).toBe(
      join('/data', 'inventory', '541926aee9bf73e8.json'),
    );
  });

  it('keeps a known name when an update answers only id and status; skips writes that change nothing', async () => {
    const e = env();
    const first = new InventoryRecorder(base, token, e, undefined, () => 1000);
    first.seen({ id: 'mon_a', name: 'A' });
    await first.flush();
    const path = inventoryPath(base, token, e);
    const second = new InventoryRecorder(base, token, e, undefined, () => 2000);
    second.seen({ id: 'mon_a' });
    second.seen({ id: 'mon_a', name: 'A' });
    await second.flush();
    expect(JSON.parse(readFileSync(path, 'utf8')).monitors.mon_a).toEqual({ name: 'A', seen: 1000 });
  });

  it('loses no update when several processes write at once', async () => {
    const e = env();
    const recorders = Array.from({ length: 12 }, (_, i) => {
      const r = new InventoryRecorder(base, token, e);
      r.seen({ id: `mon_${i}`, name: `n${i}` });
      return r;
    });
    await Promise.all(recorders.map((r) => r.flush()));
    expect(readInventory(base, token, e)).toHaveLength(12);
    expect(readdirSync(dirname(inventoryPath(base, token, e)))).toEqual([
      inventoryPath(base, token, e).split('/').pop(),
    ]);
  });

  it('is bounded: the least recently seen go first', async () => {
    const e = env();
    let t = 0;
    const rec = new InventoryRecorder(base, token, e, undefined, () => t++);
    for (let i = 0; i < MAX_ENTRIES + 5; i++) rec.seen({ id: `mon_${i}` });
    await rec.flush();
    const ids = readInventory(base, token, e).map((m) => m.id);
    expect(ids).toHaveLength(MAX_ENTRIES);
    expect(ids).not.toContain('mon_0');
    expect(ids[0]).toBe(`mon_${MAX_ENTRIES + 4}`);
  });

  it('holds at most MAX_ENTRIES ids while a long list goes on, and writes the most recently seen', async () => {
    const e = env();
    let t = 0;
    const rec = new InventoryRecorder(base, token, e, undefined, () => t++);
    const api = new Api({} as HttpClient, rec);
    const listed = 3 * MAX_ENTRIES;
    for (let page = 0; page < listed / 1000; page++)
      api.sawList(
        'monitors',
        Array.from({ length: 1000 }, (_, i) => ({ id: `mon_${page * 1000 + i}`, name: `n${i}` })),
      );
    expect(rec.size).toBeLessThanOrEqual(MAX_ENTRIES + TRIM_BATCH);
    // Seen again: moved to the most recent, not counted twice.
    const size = rec.size;
    rec.seen({ id: `mon_${listed - MAX_ENTRIES}` });
    expect(rec.size).toBe(size);
    await rec.flush();
    const ids = readInventory(base, token, e).map((m) => m.id);
    expect(ids).toHaveLength(MAX_ENTRIES);
    expect(ids[0]).toBe(`mon_${listed - MAX_ENTRIES}`);
    expect(ids.at(-1)).toBe(`mon_${listed - MAX_ENTRIES + 1}`);
  });

  it('never fails a command: a corrupt file or an unwritable directory is a --debug line', async () => {
    const e = env();
    const path = inventoryPath(base, token, e);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '{not json');
    const lines: string[] = [];
    const rec = new InventoryRecorder(base, token, e, (l) => lines.push(l));
    rec.seen({ id: 'mon_a' });
    await rec.flush();
    expect(lines.join('\n')).toMatch(/^inventory: not updated/);
    const file = join(mkdtempSync(join(tmpdir(), 'cpk-inv-')), 'file');
    writeFileSync(file, 'x');
    const rec2 = new InventoryRecorder(base, token, { CPK_DATA_DIR: file }, (l) => lines.push(l));
    rec2.seen({ id: 'mon_a' });
    await rec2.flush();
    expect(lines).toHaveLength(2);
    if (process.getuid?.() !== 0) {
      const ro = env();
      mkdirSync(join(ro.CPK_DATA_DIR, 'inventory'));
      chmodSync(join(ro.CPK_DATA_DIR, 'inventory'), 0o500);
      const rec3 = new InventoryRecorder(base, token, ro, (l) => lines.push(l));
      rec3.seen({ id: 'mon_a' });
      await rec3.flush();
      expect(lines).toHaveLength(3);
    }
  });

  it('takes over the lock of a crashed process', async () => {
    const e = env();
    const path = inventoryPath(base, token, e);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(`${path}.lock`, '');
    const old = new Date(Date.now() - 60_000);
    (await import('node:fs')).utimesSync(`${path}.lock`, old, old);
    const rec = new InventoryRecorder(base, token, e);
    rec.seen({ id: 'mon_a' });
    await rec.flush();
    expect(readInventory(base, token, e)).toHaveLength(1);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('Api tells its observer of monitors returned and of 404s and deletes', async () => {
    const seen: unknown[] = [];
    const gone: string[] = [];
    const responses: Array<() => unknown> = [
      () => ({ status: 201, body: { id: 'mon_a', status: 'pending' } }),
      () => ({ status: 200, body: { id: 'mon_a', name: 'A', status: 'up' } }),
      () => {
        throw new ApiError('not found', { status: 404, method: 'GET', url: 'u' });
      },
      () => ({ status: 204, body: undefined }),
    ];
    const http = { request: async () => responses.shift()!() } as unknown as HttpClient;
    const api = new Api(http, { seen: (m) => seen.push(m), gone: (id) => gone.push(id) });
    await api.createMonitor({ name: 'A' });
    await api.getMonitor('mon_a');
    await expect(api.getMonitor('mon_x')).rejects.toThrow('not found');
    await api.deleteMonitor('mon_a');
    expect(seen).toEqual([
      { id: 'mon_a', status: 'pending', name: 'A' },
      { id: 'mon_a', name: 'A', status: 'up' },
    ]);
    expect(gone).toEqual(['mon_x', 'mon_a']);
  });

  it('Api tells its observer of the channels a list returned and of a channel an update found gone', async () => {
    const told: unknown[][] = [];
    const http = {
      request: async () => {
        throw new ApiError('not found', { status: 404, method: 'PATCH', url: 'u' });
      },
    } as unknown as HttpClient;
    const api = new Api(http, {
      seen: (...args) => told.push(['seen', ...args]),
      gone: (...args) => told.push(['gone', ...args]),
    });
    api.sawList('channels', [{ id: 'ch_ops', name: 'Ops' }]);
    await expect(api.updateChannel('ch_old', { enabled: false })).rejects.toThrow('not found');
    expect(told).toEqual([
      ['seen', { id: 'ch_ops', name: 'Ops' }, 'channels'],
      ['gone', 'ch_old', 'channels'],
    ]);
  });
});
