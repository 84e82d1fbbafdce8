// The one lock (src/core/lock.ts) taken many times at once from one process,
// as concurrent writers of the inventory or the config do: every taker gets
// it in turn, none fails, and nothing is left beside the file. A queue of
// short holders is waited out however long it takes to pass, but one holder
// that keeps the lock ends the wait.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LockHeldError, takeLock } from '../../src/core/lock.js';

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

  // 12 holders of 250 ms each, one after another: the last one served waited
  // at least 2.75 s, more than the 2 s bound, yet no single holder came near it.
  it('perHolder: a queue that keeps moving is waited out past the bound', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-lock-'));
    try {
      const target = join(dir, 'file.json');
      const started = Date.now();
      const served: number[] = [];
      const outcomes = await Promise.allSettled(
        Array.from({ length: 12 }, async () => {
          const release = await takeLock(target, `${target}.lock`, {
            staleMs: 10_000,
            timeoutMs: 2_000,
            perHolder: true,
            command: 'test',
          });
          served.push(Date.now() - started);
          await new Promise((resolve) => setTimeout(resolve, 250));
          await release();
        }),
      );
      expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
      expect(Math.max(...served)).toBeGreaterThan(2_000);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('perHolder: one holder that keeps the lock for the whole bound ends the wait', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-lock-'));
    try {
      const target = join(dir, 'file.json');
      const options = { staleMs: 10_000, timeoutMs: 300, perHolder: true, command: 'test' };
      const release = await takeLock(target, `${target}.lock`, options);
      try {
        const error = await takeLock(target, `${target}.lock`, options).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(LockHeldError);
        expect((error as LockHeldError).holder).toMatchObject({ pid: process.pid, command: 'test' });
      } finally {
        await release();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
