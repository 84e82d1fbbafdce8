// The benchmark is not part of the suite (timings on a shared machine are not
// behaviour); this only checks that `npm run bench` runs and reports every row.
// `npm run test:bench` runs it (vitest.bench.config.ts), `npm test` does not.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { baseEnv } from './helpers/cli.js';

describe('npm run bench', () => {
  it('runs (tiny --quick version) and prints every target with a ratio', async () => {
    const script = resolve(import.meta.dirname, '../scripts/bench.mjs');
    const child = spawn(process.execPath, [script, '--quick'], { env: baseEnv() });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(code).toBe(0);
    const rows = out.split('\n').filter((l) => /^\| (cpk|peak|bash|commander)/.test(l));
    expect(rows.map((r) => r.split('|')[1]!.trim())).toEqual([
      "commander's two-command --help",
      'cpk --version',
      'cpk --help',
      'cpk --help, against Node alone',
      'cpk monitors --help',
      'cpk monitors get ID --json',
      'cpk monitors get ID (table)',
      'cpk mcp: initialize and tools/list answered',
      'peak RSS of cpk monitors get ID --json (MiB)',
      "commander's two-command --help, machine's Node",
      "cpk --version, machine's Node",
      "cpk --help, machine's Node",
      "cpk --help, against Node alone, machine's Node",
      "cpk monitors --help, machine's Node",
      "cpk monitors get ID --json, machine's Node",
      "cpk monitors get ID (table), machine's Node",
      "peak RSS of cpk monitors get ID --json (MiB), machine's Node",
      'cpk monitors delete - --concurrency 16 (20 ids)',
      'bash loop of curl (20 DELETEs) / cpk',
      'cpk monitors list: 2000 rows as a table',
      'peak RSS of cpk monitors list -o jsonl: 10000 rows (MiB)',
      'cpk apply --yes (20 new entries)',
      'cpk apply --yes (20 new entries), without the parse',
      'cpk plan (20 unchanged)',
      'cpk plan (20 unchanged), without the parse',
      'cpk apply --yes (20 unchanged)',
      'cpk plan (20 unchanged), control',
      'peak RSS of cpk apply: 4 and 20 new entries (MiB)',
      'cpk validate (2000 problems)',
      'cpk emulator --persist: 50 creates, 16 in flight',
      'cpk emulator: GET /monitors?limit=10, one page at 1000 monitors (ms)',
      'cpk emulator: GET /reports?limit=10, one page at 1000 monitors (ms)',
      'cpk emulator: GET /monitors?limit=20 at 1000 monitors, 10 connections (pages/s)',
      'cpk emulator: 40 rejected 1 MiB POSTs, peak RSS (MiB)',
    ]);
    for (const row of rows) expect(row).toMatch(/\| \d+\.\d\d \| ((<=|>=) [\d.]+x \| (pass|FAIL)|none \| -) \|$/);
  });
});
