// `cpk import --all`: every monitor of the account that no key
// manages becomes a manifest entry and a state record; plan then shows no
// changes, and a second run is a no-op. Against a service that declares no
// list: one line, exit 2, nothing written.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useEmulator } from '../helpers/emulator.js';
import { runCpk } from '../helpers/in-process.js';
import { useReferenceServer } from '../helpers/reference-server.js';

const f = useEmulator({}, { inProcess: true });

async function post(body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${f.emu.baseUrl}/monitors`, {
    method: 'POST',
    headers: { authorization: `Bearer ${f.emu.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { monitors: Record<string, unknown> };

describe('cpk import --all against a service that declares a list of monitors', () => {
  it('adds an entry and a record for each unmanaged monitor; plan shows no changes; a second run changes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-import-all-'));
    const file = join(dir, 'cpk.yaml');
    const state = join(dir, 'cpk.state.json');
    writeFileSync(
      file,
      '# our monitors\nmonitors:\n  home:\n    name: Home # the front page\n    target: https://example.com\n',
    );
    const applied = await f.cpk(['apply', '-f', file, '--yes']);
    expect(applied.code, applied.stderr).toBe(0);
    const home = readJson(state).monitors.home as { id: string };

    const a = await post({ name: 'Checkout API', target: 'https://shop.example.com/health', interval_seconds: 300 });
    const b = await post({ name: 'Checkout API', type: 'tcp', target: 'db.example.com:5432' });
    const c = await post({ name: 'Search', target: 'https://search.example.com', team: 'web', paused: true });
    const d = await post({ name: 'Home' }); // no target; its name's key is taken by the manifest
    const ids = [a, b, c, d];
    // The two "Checkout API" are keyed in the list's order (by id): the first gets the plain slug.
    const [first, second] = [a, b].sort();
    const keys: Record<string, string> = {
      [first!]: 'checkout-api',
      [second!]: 'checkout-api-2',
      [c]: 'search',
      [d]: 'home-2',
    };
    const byId = (id: string) => keys[id];

    const requests = f.mark();
    const r = await f.cpk(['import', '--all', '-f', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    // In the list's order (by id); keys from names, made unique.
    const order = [...ids].sort();
    expect(r.stderr).toBe(
      [
        ...order.map((id) => `imported ${byId(id)}: ${id}`),
        `added 4 entries to ${file} and recorded them in ${state}; run cpk plan to check them`,
        '',
      ].join('\n'),
    );
    // Listed (every page), nothing changed on the service.
    expect(requests().filter((q) => q.method !== 'GET')).toEqual([]);
    expect(requests().some((q) => q.path.startsWith('/v1/monitors?'))).toBe(true);

    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('# our monitors\nmonitors:\n  home:\n    name: Home # the front page\n')).toBe(true);
    expect(text).toContain(
      `  ${byId(a)}:\n    name: Checkout API\n    type: http\n    target: https://shop.example.com/health\n    interval: 5m\n    paused: false\n`,
    );
    expect(text).toContain('  search:\n    name: Search\n');
    expect(text).toContain('    team: web\n');
    expect(text).toContain('  home-2:\n    name: Home\n    type: http\n    interval: 1m\n    paused: false\n');
    expect(readJson(state).monitors).toEqual({
      home: { id: home.id },
      'checkout-api': { id: first },
      'checkout-api-2': { id: second },
      search: { id: c },
      'home-2': { id: d },
    });

    const plan = await f.cpk(['plan', '-f', file]);
    expect(plan.code, plan.stdout).toBe(0);
    expect(plan.stdout).toContain('No changes');

    const stateText = readFileSync(state, 'utf8');
    const again = await f.cpk(['import', '--all', '-f', file]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toBe(`nothing to import: ${state} manages every monitor of the account\n`);
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(readFileSync(state, 'utf8')).toBe(stateText);

    // A manifest that does not exist yet is written; --json says what was done.
    const fresh = join(dir, 'all.yaml');
    const json = await f.cpk(['import', '--all', '-f', fresh, '--json']);
    expect(json.code, json.stderr).toBe(0);
    const out = JSON.parse(json.stdout) as { imported: Array<{ key: string; id: string }> };
    expect(out).toEqual({
      manifest: fresh,
      state: join(dir, 'all.state.json'),
      imported: expect.any(Array),
      skipped: [],
    });
    expect(out.imported.map((i) => i.id).sort()).toEqual([...ids, home.id].sort());
    expect((await f.cpk(['plan', '-f', fresh])).code).toBe(0);
  });

  it('a manifest written as JSON stays JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-import-all-'));
    const file = join(dir, 'cpk.json');
    writeFileSync(file, '{"monitors": {}}\n');
    const r = await f.cpk(['import', '--all', '-f', file]);
    expect(r.code, r.stderr).toBe(0);
    const manifest = readJson(file);
    expect(Object.keys(manifest.monitors).length).toBe(f.emu.monitors().length);
    expect((await f.cpk(['plan', '-f', file])).code).toBe(0);
  });

  it('refuses while an entry has an uncertain create (its monitor could be imported twice): exit 2, nothing written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-import-all-'));
    const file = join(dir, 'cpk.yaml');
    writeFileSync(file, 'monitors:\n  m0:\n    name: M0\n');
    const state = {
      version: 1,
      base_url: f.emu.baseUrl,
      monitors: { m0: { create_started_at: new Date().toISOString() } },
    };
    writeFileSync(join(dir, 'cpk.state.json'), JSON.stringify(state));
    const r = await f.cpk(['import', '--all', '-f', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `cpk: "m0" has an uncertain create in ${join(dir, 'cpk.state.json')}; nothing was imported`,
    );
    expect(readFileSync(file, 'utf8')).toBe('monitors:\n  m0:\n    name: M0\n');
  });

  it('usage: KEY=ID pairs or --all, not both and not neither', async () => {
    const none = await f.cpk(['import']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(
      'cpk: nothing to import: give KEY=ID pairs, or --all for every monitor no key manages',
    );
    const both = await f.cpk(['import', '--all', 'a=mon_1']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain(
      'cpk: --all imports every monitor no key manages: give KEY=ID pairs or --all, not both',
    );
  });

  it('a cached document that declares no list is asked of the service again before --all is refused', async () => {
    await f.serveOlderDocument((document) => delete document.paths['/monitors']!.get);
    expect((await f.cpk(['monitors', 'list'])).code).toBe(0); // the inventory, from the older document
    const file = join(mkdtempSync(join(tmpdir(), 'cpk-import-all-')), 'cpk.yaml');
    const r = await f.cpk(['import', '--all', '-f', file]);
    expect(r.stderr).not.toContain('declares none');
    expect(r.code).toBe(0);
    expect(Object.keys(readJson(join(file, '..', 'cpk.state.json')).monitors).length).toBeGreaterThan(0);
  });
});

describe('cpk import --all against a service that declares nothing', () => {
  const ref = useReferenceServer();

  it('one line, exit 2, nothing written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-import-all-ref-'));
    const file = join(dir, 'cpk.yaml');
    const r = await runCpk(['import', '--all', '-f', file], {
      env: { CPK_BASE_URL: ref.baseUrl, CPK_TOKEN: ref.token },
    });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `cpk: cpk import --all needs the service's list of monitors, and its document (${ref.baseUrl}/openapi.json) declares none; nothing was imported; adopt monitors one by one with \`cpk import KEY=ID\`\n`,
    );
    expect(existsSync(file)).toBe(false);
    expect(existsSync(join(dir, 'cpk.state.json'))).toBe(false);
  });
});
