// A service that answers a create with an id the state file cannot hold (one
// it already gave another entry, `..`, a control character): apply records
// no such id, says what is wrong, exits non-zero, and leaves a state file
// that the next run still reads.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCpk } from '../helpers/in-process.js';
import { startHostile } from '../helpers/hostile.js';
import { parseState } from '../../src/manifest/state.js';

async function applyAgainst(id: string, entries: number) {
  const server = await startHostile({ kind: 'raw', body: JSON.stringify({ id, status: 'pending' }) });
  try {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-hostile-ids-'));
    const file = join(dir, 'cpk.yaml');
    const body = Array.from({ length: entries }, (_, i) => `  m${i}:\n    name: m${i}\n`).join('');
    writeFileSync(file, `monitors:\n${body}`);
    const env = { CPK_BASE_URL: `${server.url}/v1`, CPK_TOKEN: 'cpk_hostile_ids_0001' };
    const apply = await runCpk(['apply', '-f', file, '--yes', '--concurrency', '1'], { env });
    const path = join(dir, 'cpk.state.json');
    // The state is readable, by the reader every later run uses, and records no id the service misused.
    const state = parseState(readFileSync(path, 'utf8'), path);
    const plan = await runCpk(['plan', '-f', file], { env });
    return { apply, state, plan };
  } finally {
    await server.close();
  }
}

describe('ids a service answers a create with are checked before they are recorded', () => {
  it.each([
    ['`..`', '..', 'invalid id ".."'],
    ['`.`', '.', 'invalid id "."'],
    ['a control character', 'mon_\u001b[2Jx', 'invalid id: it contains a control character'],
    ['an empty id', '', 'id must not be empty'],
  ])('%s: not recorded, the create is uncertain, exit 1, the state stays readable', async (_what, id, why) => {
    const { apply, state, plan } = await applyAgainst(id, 1);
    expect(apply.code, apply.stderr).toBe(1);
    expect(apply.stderr).toContain(`the service answered the create of "m0" with an id cpk cannot record (${why})`);
    expect(apply.stderr).not.toContain('\u001b');
    expect(state.monitors).toEqual({ m0: { create_started_at: expect.any(String), create_body: { name: 'm0' } } });
    expect(plan.stderr).not.toContain('damaged');
    expect(plan.stdout).toContain('! m0: uncertain');
  });

  it('an id the service already gave another entry: the first is recorded, the second stays uncertain', async () => {
    const { apply, state, plan } = await applyAgainst('mon_same', 2);
    expect(apply.code, apply.stderr).toBe(1);
    expect(apply.stderr).toContain(
      'the service answered the create of "m1" with an id cpk cannot record (mon_same, which "m0" already has)',
    );
    expect(state.monitors).toEqual({
      m0: { id: 'mon_same' },
      m1: { create_started_at: expect.any(String), create_body: { name: 'm1' } },
    });
    expect(plan.stderr).not.toContain('damaged');
  });
});
