// The emulator's list operations: cursor pagination over ids,
// filters, 400 for what it does not accept, isolation between accounts.
import { describe, expect, it } from 'vitest';
import { call, useEmulator } from './helpers.js';

const emu = useEmulator();

async function createN(n: number, target = 'https://example.com'): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await call(emu(), 'POST', 'monitors', { body: { name: `m${i}`, target } });
    ids.push(res.json.id);
  }
  return ids;
}

describe('GET /v1/monitors', () => {
  it('pages by cursor through every monitor once, in id order, with next_cursor null at the end', async () => {
    const ids = await createN(7);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await call(emu(), 'GET', `monitors?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.json.data.length).toBeLessThanOrEqual(3);
      seen.push(...res.json.data.map((m: { id: string }) => m.id));
      cursor = res.json.next_cursor;
      pages++;
    } while (cursor !== null);
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(seen).toEqual([...seen].sort());
    for (const id of ids) expect(seen.filter((s) => s === id)).toHaveLength(1);
  });

  it('a page boundary survives the deletion of the cursor monitor', async () => {
    await createN(3);
    const first = await call(emu(), 'GET', 'monitors?limit=1');
    const [gone] = first.json.data;
    expect((await call(emu(), 'DELETE', `monitors/${gone.id}`)).status).toBe(204);
    const next = await call(emu(), 'GET', `monitors?limit=1&cursor=${first.json.next_cursor}`);
    expect(next.status).toBe(200);
    expect(next.json.data[0].id > gone.id).toBe(true);
  });

  it('filters by status and type', async () => {
    const [down] = await createN(1, 'https://down.example.com');
    await call(emu(), 'GET', `monitors/${down}`); // runs the simulated check: down
    const res = await call(emu(), 'GET', 'monitors?status=down&limit=100');
    expect(res.json.data.map((m: { id: string }) => m.id)).toContain(down);
    expect(res.json.data.every((m: { status: string }) => m.status === 'down')).toBe(true);
    const tcp = await call(emu(), 'GET', 'monitors?type=tcp');
    expect(tcp.json).toEqual({ data: [], next_cursor: null });
  });

  it.each([
    ['limit=0', 'invalid limit: expected an integer from 1 to 100'],
    ['limit=101', 'invalid limit: expected an integer from 1 to 100'],
    ['limit=x', 'invalid limit: expected an integer from 1 to 100'],
    ['cursor=%%%', 'invalid cursor'],
    ['status=sleeping', 'invalid status: expected one of pending, up, down, paused'],
    ['sort=name', 'unknown query parameter sort; allowed: limit, cursor, status, type'],
  ])('?%s is a 400: %s', async (query, error) => {
    const res = await call(emu(), 'GET', `monitors?${query}`);
    expect(res.status).toBe(400);
    expect(res.json.error).toBe(error);
  });

  it("another account's monitors are not listed", async () => {
    const [mine] = await createN(1);
    const res = await call(emu(), 'GET', 'monitors?limit=100', { token: 'cpk_test_other' });
    expect(res.status).toBe(200);
    expect(res.json.data.map((m: { id: string }) => m.id)).not.toContain(mine);
  });
});

describe('GET /v1/channels and /v1/reports', () => {
  it('lists the seeded channels', async () => {
    const res = await call(emu(), 'GET', 'channels');
    expect(res.status).toBe(200);
    expect(res.json.data.map((c: { id: string }) => c.id)).toEqual(['ch_oncall', 'ch_ops', 'ch_slack']);
    expect(res.json.next_cursor).toBeNull();
  });

  it('lists the summary and one report per monitor; a token without channels:read is 403', async () => {
    const [id] = await createN(1);
    const res = await call(emu(), 'GET', 'reports?limit=100');
    const ids = res.json.data.map((r: { id: string }) => r.id);
    expect(ids).toContain('rpt_summary');
    expect(ids).toContain(id?.replace('mon_', 'rpt_'));
    expect((await call(emu(), 'GET', 'channels', { token: 'cpk_test_readonly' })).status).toBe(403);
  });
});

describe('paging while monitors come and go', () => {
  const own = useEmulator();

  it('each monitor present throughout is listed once, in order; one deleted ahead is not; a new one only past the cursor', async () => {
    const make = async () => (await call(own(), 'POST', 'monitors', { body: { name: 'p' } })).json.id as string;
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push(await make());
    const seen: string[] = [];
    const goneAhead = new Set<string>();
    const created: Array<{ id: string; cursorAt: string }> = [];
    let cursor: string | null = null;
    for (let page = 0; page === 0 || cursor !== null; page++) {
      const res = await call(own(), 'GET', `monitors?limit=4${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...res.json.data.map((m: { id: string }) => m.id));
      cursor = res.json.next_cursor;
      if (page > 2 || cursor === null) continue; // changes after the last page would go unseen
      // Between pages: a monitor not yet listed goes, one already listed goes, and two new ones come.
      const last = seen.at(-1)!;
      const ahead = ids.find((id) => id > last && !goneAhead.has(id));
      if (ahead !== undefined) goneAhead.add(ahead);
      for (const id of [ahead, seen[page]])
        if (id !== undefined) expect((await call(own(), 'DELETE', `monitors/${id}`)).status).toBe(204);
      for (let i = 0; i < 2; i++) created.push({ id: await make(), cursorAt: last });
    }
    expect(seen).toEqual([...new Set(seen)].sort());
    expect(goneAhead.size).toBeGreaterThan(0);
    for (const id of ids) expect([id, seen.includes(id)]).toEqual([id, !goneAhead.has(id)]);
    for (const { id, cursorAt } of created) expect([id, seen.includes(id)]).toEqual([id, id > cursorAt]);
  });
});
