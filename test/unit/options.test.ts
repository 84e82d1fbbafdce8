// Each command's parse step (commander's raw values -> a typed options
// object), called directly: no CLI spawned (the options/run split).
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { parseGetOptions } from '../../src/commands/monitors/get.js';
import { parseDeleteOptions } from '../../src/commands/monitors/delete.js';
import { parseUpdateOptions } from '../../src/commands/monitors/update.js';
import { parseCreateOptions } from '../../src/commands/monitors/create.js';
import { parseChannelUpdateOptions } from '../../src/commands/channels/update.js';
import { parseApiOptions } from '../../src/commands/api/api.js';
import { parseReportGetOptions } from '../../src/commands/reports/get.js';
import { parseEmulatorOptions } from '../../src/commands/emulator/emulator.js';
import { parseLoginOptions } from '../../src/commands/auth/login.js';
import { parseProfileArgs } from '../../src/commands/profile/use.js';

const stdin = (text = '') => Readable.from(text === '' ? [] : [text]);

describe('typed options, parsed without the CLI', () => {
  it('monitors get: ids from arguments and stdin, --concurrency', async () => {
    expect(await parseGetOptions(['m1', 'm2'], { concurrency: '4' }, { stdin: stdin() })).toEqual({
      ids: ['m1', 'm2'],
      single: false,
      concurrency: 4,
      manifest: false,
      gate: { asserts: [] },
    });
    expect(await parseGetOptions(['-'], { manifest: true }, { stdin: stdin('a\n# c\nb\n') })).toEqual({
      ids: ['a', 'b'],
      single: false,
      concurrency: 8,
      manifest: true,
      gate: { asserts: [] },
    });
    await expect(parseGetOptions(['m1'], { concurrency: '0' }, { stdin: stdin() })).rejects.toThrow(
      'invalid --concurrency "0": expected a whole number from 1 to 64',
    );
  });

  it('monitors delete: --yes is needed off a terminal, and checked before stdin is read', async () => {
    await expect(parseDeleteOptions(['m1'], {}, { stdin: stdin(), stdinIsTTY: false })).rejects.toThrow(
      'refusing to delete monitor m1 without --yes (stdin is not a terminal); nothing was sent',
    );
    await expect(parseDeleteOptions(['-'], {}, { stdin: stdin('m1\n'), stdinIsTTY: true })).rejects.toThrow(
      'ids from stdin (-) need --yes',
    );
    expect(await parseDeleteOptions(['m1'], { dryRun: true }, { stdin: stdin(), stdinIsTTY: false })).toEqual({
      ids: ['m1'],
      single: true,
      yes: false,
      dryRun: true,
      concurrency: 8,
    });
  });

  it('monitors update: named flags over --set over --data', async () => {
    const opts = await parseUpdateOptions(
      ['m1'],
      { data: '{"name":"a","x":1}', set: ['x=2', 'notify.email="o@e.com"'], name: 'b', interval: '5m' },
      stdin(),
    );
    expect(opts).toEqual({
      id: 'm1',
      changes: { name: 'b', x: 2, notify: { email: 'o@e.com' }, interval_seconds: 300 },
      dryRun: false,
      quiet: false,
    });
    await expect(parseUpdateOptions(['m1'], {}, stdin())).rejects.toThrow(/^nothing to update/);
    await expect(parseUpdateOptions(['..'], { name: 'x' }, stdin())).rejects.toThrow('invalid monitor id ".."');
  });

  it('monitors create: one, or many with --from (which takes no body flags)', async () => {
    expect(await parseCreateOptions({ name: 'api', setString: ['n=1'], quiet: true }, stdin())).toEqual({
      body: { n: '1', name: 'api' },
      quiet: true,
      dryRun: false,
    });
    const many = await parseCreateOptions({ from: '-', concurrency: '2' }, stdin('{"name":"a"}\n{"name":"b"}\n'));
    expect(many.records?.map((r) => r.value)).toEqual([{ name: 'a' }, { name: 'b' }]);
    expect(many.concurrency).toBe(2);
    await expect(parseCreateOptions({ from: '-', name: 'x' }, stdin())).rejects.toThrow(
      '--from cannot be combined with --name: put the fields in the file',
    );
    await expect(parseCreateOptions({ name: 'x', concurrency: '2' }, stdin())).rejects.toThrow(
      '--concurrency applies to --from only',
    );
    await expect(parseCreateOptions({}, stdin())).rejects.toThrow('--name is required');
  });

  it('channels update: the shared body flags', async () => {
    expect(
      await parseChannelUpdateOptions(['ch_ops'], { data: '-', set: ['enabled=false'] }, stdin('{"a":1}')),
    ).toEqual({ id: 'ch_ops', changes: { a: 1, enabled: false }, dryRun: false });
    await expect(parseChannelUpdateOptions(['ch_ops'], {}, stdin())).rejects.toThrow(
      'nothing to update: give --set, --set-string or --data',
    );
  });

  it('api: method, body and --include/--query', async () => {
    expect(await parseApiOptions(['post', '/monitors'], { set: ['name=x'] }, { stdin: stdin() })).toEqual({
      method: 'POST',
      path: '/monitors',
      body: { name: 'x' },
      include: false,
      dryRun: false,
    });
    await expect(parseApiOptions(['get', '/x'], { data: '{}' }, { stdin: stdin() })).rejects.toThrow(
      'a GET request carries no body',
    );
    await expect(parseApiOptions(['get', '/x'], { include: true }, { stdin: stdin(), query: 'id' })).rejects.toThrow(
      '--include and --query cannot be combined',
    );
    await expect(parseApiOptions(['g t', '/x'], {}, { stdin: stdin() })).rejects.toBeInstanceOf(UsageError);
  });

  it('reports get, emulator, auth login, profile use/remove', () => {
    expect(parseReportGetOptions(['rpt_1'], { watch: true, every: '10s' })).toEqual({
      id: 'rpt_1',
      watchSeconds: 10,
      gate: { asserts: [] },
    });
    expect(() => parseReportGetOptions(['rpt_1'], { every: '10s' })).toThrow('--every only applies with --watch');
    expect(parseEmulatorOptions({ host: '127.0.0.1', port: '0', latency: '0', failRate: '0.5' })).toMatchObject({
      host: '127.0.0.1',
      port: 0,
      latencyMs: 0,
      failRate: 0.5,
      quiet: false,
    });
    expect(() => parseEmulatorOptions({ host: 'h', port: '70000', latency: '0', failRate: '0' })).toThrow(UsageError);
    expect(parseLoginOptions({ verify: false })).toEqual({ withToken: false, verify: false, insecureStorage: false });
    expect(parseProfileArgs(['staging'])).toEqual({ name: 'staging' });
    expect(() => parseProfileArgs(['bad name'])).toThrow(UsageError);
  });
});
