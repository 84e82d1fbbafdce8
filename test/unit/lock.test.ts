// The one lock (src/core/lock.ts) taken many times at once from one process,
// as concurrent writers of the inventory or the config do: every taker gets
// it in turn, none fails, and nothing is left beside the file.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { takeLock } from '../../src/core/lock.js';

describe('takeLock', () => {
  it('serves 30 takers of one process in turn: none fails, one holder at a time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-lock-'));
    try {
      const target = join(dir, 'file.json');
      let holding = 0;
      let most = 0;
      const outcomes = await Promise.allSettled(
        Array.from({ length: 30 }, async () => {
          const release = await takeLock(target, `${target}.lock`, {
            staleMs: 10_000,
            timeoutMs: 60_000,
            command: 'test',
          });
          holding += 1;
          most = Math.max(most, holding);
          await new Promise((resolve) => setTimeout(resolve, 1));
          holding -= 1;
          await release();
        }),
      );
      expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
      expect(most).toBe(1);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
