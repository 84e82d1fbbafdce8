// Numbers a double cannot hold reach the service exactly as written, and come
// back exactly as the service wrote them, on both transports (each writes the
// request body and reads the answer itself): cpk in-process against the emulator.
// The cases for each way data enters cpk are test/cli/exact-numbers.test.ts's.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useEmulator } from '../helpers/emulator.js';
import { onEachTransport } from '../helpers/transports.js';

onEachTransport(() => {
  const f = useEmulator({}, { inProcess: true });

  describe('exact numbers over the wire', () => {
    it('create --from sends them as written; a manifest of the same values then plans no change', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'cpk-exact-e2e-'));
      const records = join(dir, 'm.ndjson');
      const one =
        '{"name":"exact e2e","discord_channel":1234567890123456789,"big":-9007199254740993,"n":[0.30000000000000000001]}';
      writeFileSync(records, `${one}\n`);
      const sent = f.mark();
      const created = await f.cpk(['monitors', 'create', '--from', records, '-q']);
      expect(created.stderr).toBe('');
      expect(created.code).toBe(0);
      // After a read of the service's document (create --from checks every line against it first).
      expect(
        sent()
          .filter((q) => q.method === 'POST')
          .map((q) => q.body),
      ).toEqual([one]);
      const id = created.stdout.trim();

      const got = await f.cpk(['monitors', 'get', id, '--json']);
      expect(got.stdout).toContain('"discord_channel": 1234567890123456789');
      expect(got.stdout).toContain('"big": -9007199254740993');

      const manifest = join(dir, 'cpk.yaml');
      writeFileSync(
        manifest,
        'monitors:\n  web:\n    name: exact e2e\n    discord_channel: 1234567890123456789\n    big: -9007199254740993\n',
      );
      expect((await f.cpk(['import', `web=${id}`, '-f', manifest])).code).toBe(0);
      const plan = await f.cpk(['plan', '-f', manifest]);
      expect(plan.stdout).toContain('(1 unchanged)');
      expect(plan.code).toBe(0);

      writeFileSync(manifest, 'monitors:\n  web:\n    name: exact e2e\n    discord_channel: 1234567890123456788\n');
      const patched = f.mark();
      expect((await f.cpk(['apply', '-f', manifest, '--yes'])).code).toBe(0);
      expect(
        patched()
          .filter((q) => q.method === 'PATCH')
          .map((q) => q.body),
      ).toEqual(['{"discord_channel":1234567890123456788}']);
    });
  });
});
