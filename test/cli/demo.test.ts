// The README's first command: `npm run demo` must be a real, passing walkthrough.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { baseEnv } from '../helpers/cli.js';

describe('npm run demo', () => {
  // Run as an agent would run it (CLAUDECODE=1): the walkthrough still shows what a person sees.
  it('walks through every command against the emulator and exits 0', () => {
    const script = resolve(import.meta.dirname, '../../scripts/demo.mjs');
    const env = baseEnv({ CLAUDECODE: '1' });
    const r = spawnSync(process.execPath, [script], { env, encoding: 'utf8', timeout: 100_000 });
    expect(r.stderr).toMatch(/cpk: monitor not found: mon_\w+ \(request id: req_/);
    expect(r.status).toBe(0);
    for (const step of [
      '$ cpk monitors create',
      '$ cpk monitors get',
      '$ cpk monitors update',
      '$ cpk reports get',
      '$ cpk channels update',
      '$ cpk monitors delete',
    ]) {
      expect(r.stdout).toContain(step);
    }
    expect(r.stdout).toContain('"deleted": true');
    // What the demo itself prints (its comments and the commands it echoes) fits 80 columns.
    const own = r.stdout.split('\n').filter((line) => /^(#|\$ cpk| {4}-)/.test(line));
    expect(own.filter((line) => line.length > 80)).toEqual([]);
    expect(r.stdout).toMatch(/^\$ cpk monitors create --name 'Checkout API' --type http \\\n {4}--target /m);
    // It ends where the README's Quick start begins: cpk emulator, and the one variable.
    const quickStart = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');
    for (const step of ['cpk emulator', 'export CPK_TOKEN=cpk_dev_emulator_token']) {
      expect(quickStart).toContain(`\n${step} `);
      expect(r.stdout.replace(/\n# /g, ' ')).toContain(`\`${step}\``);
    }
  });
});
