// `cpk reports get ID --watch` through the built CLI, off a terminal: one JSON
// line per change, and Ctrl-C (SIGINT) ends it with exit 0.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { stdoutLines as lines } from '../helpers/cli.js';

const f = useEmulator({}, { inProcess: true });

describe('reports get --watch off a terminal', () => {
  it('prints a JSON line per refresh that changed something, and exits 0 on SIGINT', async () => {
    const id = await f.create({ name: 'watched', target: 'https://w.example.com' });
    const report = `rpt_${id.slice('mon_'.length)}`;
    const sent = f.mark();
    let script: Promise<void> = Promise.resolve();
    const run = f.spawned(['reports', 'get', report, '--watch', '--every', '1s'], {
      onSpawn: (child) => {
        const arrived = lines(child);
        script = (async () => {
          await arrived(1);
          const updated = await f.cpk(['monitors', 'update', id, '--set', 'paused=true']);
          expect(updated.code).toBe(0);
          await arrived(2);
          child.kill('SIGINT');
        })();
      },
    });
    const r = await run;
    await script;
    expect(r.stderr).toBe('');
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
    const out = r.stdout.split('\n');
    expect(out.pop()).toBe('');
    expect(out).toHaveLength(2);
    const [first, second] = out.map((line) => JSON.parse(line));
    expect(first).toMatchObject({ id: report, monitor_id: id });
    expect(first.monitor_status).not.toBe('paused');
    expect(second).toMatchObject({ id: report, monitor_id: id, monitor_status: 'paused' });
    const gets = sent().filter((q) => q.method === 'GET' && q.path === `/v1/reports/${report}`);
    expect(gets.length).toBeGreaterThanOrEqual(2);
  });

  it('rejects bad input and a missing report with their exit codes', async () => {
    const [noWatch, zero, missing] = await Promise.all([
      f.cpk(['reports', 'get', 'rpt_summary', '--every', '5s']),
      f.cpk(['reports', 'get', 'rpt_summary', '--watch', '--every', '0']),
      f.cpk(['reports', 'get', 'rpt_nothing_here', '--watch', '--every', '1s']),
    ]);
    expect([noWatch.code, noWatch.stderr]).toEqual([2, 'cpk: --every only applies with --watch\n']);
    expect([zero.code, zero.stderr]).toEqual([2, 'cpk: invalid --every "0": must be more than 0 seconds\n']);
    expect(missing.code).toBe(6);
    expect(missing.stderr).toMatch(/^cpk: report not found: rpt_nothing_here \(request id: req_[0-9a-f]+\)\n$/);
    expect(noWatch.stdout + zero.stdout + missing.stdout).toBe('');
  });
});
