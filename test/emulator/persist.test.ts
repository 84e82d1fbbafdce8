// --persist's state file and journal, in process: what a start reads back,
// and a change that cannot be saved is not acknowledged.
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/server.js';

const monitor = (id: string, name: string) => ({
  id,
  name,
  type: 'http',
  target: null,
  interval_seconds: 60,
  paused: false,
  status: 'pending',
  created_at: '2026-11-25T00:00:00.000Z',
  updated_at: '2026-11-25T00:00:00.000Z',
  last_check: null,
  report_id: `rpt_${id.slice(4)}`,
  extras: {},
});

function stateFile(generation: number) {
  const dir = mkdtempSync(join(tmpdir(), 'cpk-persist-unit-'));
  const file = join(dir, 'state.json');
  writeFileSync(
    file,
    JSON.stringify({
      version: 1,
      accounts: { acct_dev: { monitors: [monitor('mon_aaaaaaaaaaaa', 'in the state')], channels: [] } },
      issued_ids: ['aaaaaaaaaaaa'],
      journal_generation: generation,
    }),
  );
  return { dir, file };
}

const names = (emu: Awaited<ReturnType<typeof startEmulator>>) => emu.monitors().map((m) => m.name);

describe('--persist: state file and journal', () => {
  it("replays the journal of the state's generation, up to a last line cut short by a crash", async () => {
    const { file } = stateFile(3);
    const line = (m: unknown) => JSON.stringify({ account: 'acct_dev', monitor: m });
    writeFileSync(
      `${file}.journal`,
      `{"generation":3}\n${line(monitor('mon_bbbbbbbbbbbb', 'journaled'))}\n${line(monitor('mon_cccccccccccc', 'torn')).slice(0, 40)}`,
    );
    const emu = await startEmulator({ port: 0, persistFile: file });
    expect(names(emu)).toEqual(['in the state', 'journaled']);
    await emu.close();
  });

  it('ignores a journal of an older generation (the state was rewritten after it)', async () => {
    const { file } = stateFile(3);
    writeFileSync(
      `${file}.journal`,
      `{"generation":2}\n${JSON.stringify({ account: 'acct_dev', deleted: 'mon_aaaaaaaaaaaa' })}\n`,
    );
    const emu = await startEmulator({ port: 0, persistFile: file });
    expect(names(emu)).toEqual(['in the state']);
    await emu.close();
  });

  it('answers 500, not 201, when the change cannot be saved', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-persist-unit-'));
    const file = join(dir, 'state.json');
    const emu = await startEmulator({ port: 0, persistFile: file });
    // The state file's place is taken by a directory: the rename of a write fails.
    mkdirSync(join(file, 'in-the-way'), { recursive: true });
    try {
      const res = await fetch(`${emu.baseUrl}/monitors`, {
        method: 'POST',
        headers: { authorization: `Bearer ${emu.token}`, 'content-type': 'application/json' },
        body: '{"name":"unsaved"}',
      });
      expect(res.status).toBe(500);
      expect(res.headers.get('location')).toBeNull();
      const body = (await res.json()) as { error: string };
      expect(body.error).toMatch(/^the change could not be saved to the state file \((EISDIR|ENOTEMPTY|EEXIST)\)$/);
      expect(readdirSync(dir).sort()).toEqual(['state.json']); // no temporary file left behind
    } finally {
      await emu.close();
    }
  });
});
