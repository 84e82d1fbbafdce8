// Untrusted sizes and nesting end in a usage error or a result, never in
// "Maximum call stack size exceeded": ids on stdin, --set keys, state files.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';

const f = useEmulator({}, { inProcess: true });

describe('sizes and nesting that once overflowed the stack', () => {
  it('150,000 ids on stdin (2.3 MB) are read: a dry run prints a request for each', async () => {
    const ids = Array.from({ length: 150_000 }, (_, i) => `mon_${String(i).padStart(8, '0')}`);
    const sent = f.mark();
    const r = await f.cpk(['monitors', 'delete', '-', '--dry-run'], {
      input: `${ids.join('\n')}\n`,
      timeoutMs: 60_000,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(ids.length);
    expect(lines.at(-1)).toContain('/monitors/mon_00149999');
    expect(sent()).toEqual([]);
  });

  it.each([65, 1000, 3000, 5000])('a --set key of %i segments is a usage error (exit 2), nothing sent', async (n) => {
    const key = Array.from({ length: n }, () => 'k').join('.');
    const sent = f.mark();
    const r = await f.cpk(['monitors', 'create', '--name', 'deep', '--set', `${key}=1`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `cpk: invalid --set key "${key.slice(0, 40)}…": ${n} segments, more than the 64 a key may have\n`,
    );
    expect(sent()).toEqual([]);
  });

  it.each([1500, 100_000])('a state file nested %i deep is damaged (exit 2), not a crash', async (depth) => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-deep-state-'));
    writeFileSync(join(dir, 'cpk.yaml'), 'monitors:\n  web:\n    name: Web\nchannels:\n  ch_ops:\n    enabled: true\n');
    const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const state = `{"version":1,"base_url":"${f.emu.baseUrl}","monitors":{},"channels":{"ch_ops":{"applied":{"enabled":${deep}}}}}`;
    const statePath = join(dir, 'cpk.state.json');
    writeFileSync(statePath, state);
    for (const command of ['plan', 'apply']) {
      const r = await f.cpk([command, '-f', join(dir, 'cpk.yaml'), ...(command === 'apply' ? ['--yes'] : [])]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `cpk: the state file ${statePath} is damaged: nested deeper than 1000 levels; restore it from version control\n`,
      );
    }
    expect(readFileSync(statePath, 'utf8')).toBe(state);
  });
});
