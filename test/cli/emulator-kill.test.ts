// `cpk emulator --persist FILE` killed (SIGKILL) at random moments during
// concurrent creates: every create that was answered 201 is there after a
// restart, and nothing is there twice.
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killAllTracked } from '../helpers/children.js';
import { startEmulatorProcess, type EmulatorProcess } from '../helpers/emulator-process.js';

const start = (file: string) => startEmulatorProcess(['--persist', file]);

/** Every monitor of the development account, page by page. */
async function listAll(emu: EmulatorProcess): Promise<Array<{ id: string; name: string }>> {
  const out: Array<{ id: string; name: string }> = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const res = await fetch(`${emu.baseUrl}/monitors?limit=100${query}`, {
      headers: { authorization: `Bearer ${emu.token}` },
    });
    expect(res.status).toBe(200);
    const page = (await res.json()) as { data: Array<{ id: string; name: string }>; next_cursor: string | null };
    out.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor !== null);
  return out;
}

describe('cpk emulator --persist under SIGKILL', () => {
  // An emulator of a round that failed or timed out is not left running.
  afterEach(killAllTracked);

  it('keeps every acknowledged create, and none twice, across 10 kills at random moments', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-kill-'));
    const file = join(dir, 'state.json');
    const acknowledged = new Map<string, string>(); // id -> name
    // Each round is a process start (most of the round's CPU) and about 30 creates, a dozen of them in flight
    // when the kill comes.
    const ROUNDS = 10;
    let lost = 0;
    let duplicated = 0;
    let kept = 0;

    const temporary = () => readdirSync(dir).filter((n) => n.endsWith('.tmp'));
    /** `leftovers`: the temporary files there before this emulator started. */
    const verify = async (emu: EmulatorProcess, leftovers: string[]) => {
      const monitors = await listAll(emu);
      const ids = new Set(monitors.map((m) => m.id));
      const names = new Set(monitors.map((m) => m.name));
      duplicated += monitors.length - ids.size + (monitors.length - names.size);
      lost = [...acknowledged.keys()].filter((id) => !ids.has(id)).length;
      kept = acknowledged.size - lost;
      // A start leaves no temporary file of an interrupted write behind. Only
      // those: a save of this emulator's own (its scheduled checks) may be
      // under way, with a temporary file of a new name.
      expect(temporary().filter((n) => leftovers.includes(n))).toEqual([]);
    };

    for (let round = 0; round < ROUNDS; round++) {
      // A leftover of an interrupted write, as a crash at the wrong moment leaves it.
      writeFileSync(join(dir, `.state.json.left-${round}.tmp`), '{"half": ');
      const leftovers = temporary();
      const emu = await start(file);
      await verify(emu, leftovers);
      let stop = false;
      let serial = 0;
      const worker = async (w: number) => {
        while (!stop) {
          const name = `r${round}-w${w}-${serial++}`;
          try {
            const res = await fetch(`${emu.baseUrl}/monitors`, {
              method: 'POST',
              headers: { authorization: `Bearer ${emu.token}`, 'content-type': 'application/json' },
              body: JSON.stringify({ name }),
            });
            if (res.status !== 201) return;
            const body = (await res.json()) as { id: string };
            acknowledged.set(body.id, name);
          } catch {
            return; // the emulator is gone: this create was not acknowledged
          }
        }
      };
      const workers = Array.from({ length: 12 }, (_, w) => worker(w));
      await new Promise((r) => setTimeout(r, 20 + Math.floor(Math.random() * 180)));
      emu.child.kill('SIGKILL');
      await emu.exited;
      stop = true;
      await Promise.all(workers);
    }
    const leftovers = temporary();
    const last = await start(file);
    await verify(last, leftovers);
    last.child.kill('SIGTERM');
    await last.exited;

    console.log(
      `kill test: ${ROUNDS} rounds, ${acknowledged.size} acknowledged creates, ${kept} kept, ${lost} lost, ${duplicated} duplicated`,
    );
    expect(acknowledged.size).toBeGreaterThan(ROUNDS);
    expect({ lost, duplicated }).toEqual({ lost: 0, duplicated: 0 });
  }, 180_000);
});
