// `cpk monitors wait`: success, the timeout's exit code (8) naming what did not
// match, a 404 (6), transient failures retried within the timeout.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { parseWaitOptions } from '../../src/commands/monitors/wait.js';

const f = useEmulator({}, { inProcess: true });

describe('cpk monitors wait', () => {
  it('exits 0 once every monitor matches (any field path), printing what matched', async () => {
    const a = await f.create({ name: 'a', target: 'https://a.example.com' });
    const b = await f.create({ name: 'b', target: 'https://b.example.com' });
    const r = await f.cpk(['monitors', 'wait', a, b, '--for', 'status=up', '--every', '1s', '--timeout', '20s']);
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: 'all 2 monitors: status=up\n' });
    const json = await f.cpk(['monitors', 'wait', a, '--for', 'last_check.status=up', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([{ id: a, 'last_check.status': 'up' }]);
  });

  it('exits 8 when the timeout passes, naming each monitor that did not match and its last value', async () => {
    const id = await f.create({ name: 'stays-up', target: 'https://ok.example.com' });
    const r = await f.cpk(['monitors', 'wait', id, '--for', 'status=down', '--every', '1s', '--timeout', '2s']);
    expect(r.code).toBe(8);
    expect(r.stderr).toBe(`cpk: timed out after 2s waiting for status=down: ${id} status=up\n`);
  });

  it('a 404 ends the wait with 6 at once', async () => {
    const r = await f.cpk(['monitors', 'wait', 'mon_nothere', '--for', 'status=up', '--timeout', '1m']);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/^cpk: monitor not found/);
  });

  it('retries a server failure within the timeout', async () => {
    const id = await f.create({ name: 'flaky-wait', target: 'https://ok.example.com' });
    f.emu.injectFault({ method: 'GET', path: `/v1/monitors/${id}`, status: 500, times: 3 });
    const r = await f.cpk([
      'monitors',
      'wait',
      id,
      '--for',
      'status=up',
      '--every',
      '1s',
      '--timeout',
      '30s',
      '--retries',
      '0',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`^warning: ${id}: .*checking again in 1s\\n${id}: status=up\\n$`));
  });

  it('parses --for and --every strictly; --timeout is the whole wait (default 5m)', () => {
    expect(parseWaitOptions(['m'], { for: 'a.b=1', every: '5s' }, { timeoutSeconds: 30 })).toEqual({
      ids: ['m'],
      path: ['a', 'b'],
      value: '1',
      timeoutSeconds: 300,
      everySeconds: 5,
    });
    expect(parseWaitOptions(['m'], { for: 'status=' }, { timeoutSeconds: 90, timeoutGiven: true }).timeoutSeconds).toBe(
      90,
    );
    expect(() => parseWaitOptions(['m'], { for: 'status' }, { timeoutSeconds: 30 })).toThrow(
      '--for needs FIELD=VALUE, e.g. --for status=up (got "status")',
    );
    expect(() => parseWaitOptions(['m'], { for: 'a..b=1' }, { timeoutSeconds: 30 })).toThrow('an empty part');
  });
});
