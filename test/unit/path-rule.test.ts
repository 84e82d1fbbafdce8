// The path rule lives where the URL is built (src/core/http/path.ts):
// `.`, `..` and empty segments are refused before anything is sent, for the
// programmatic client and for a command's run function alike, even when
// nothing upstream checked the id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, UsageError } from '../../src/index.js';
import { endpoints } from '../../src/core/api/client.js';
import { HttpClient } from '../../src/core/http/client.js';
import { segmentProblem } from '../../src/core/http/path.js';
import { checkId } from '../../src/parse/id.js';
import { startEmulator, type Emulator } from '../../src/emulator/server.js';
import { run as deleteMonitors } from '../../src/commands/monitors/delete.js';
import { run as getMonitors } from '../../src/commands/monitors/get.js';
import { fakeContext, fakeIO } from '../helpers/fake-io.js';

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(() => emu.close());

function mark(): () => Emulator['requests'] {
  const start = emu.requests.length;
  return () => emu.requests.slice(start);
}

const climbing = ['..', '.', ''];

describe('the path rule in the HTTP layer', () => {
  it.each(climbing)('createClient().deleteMonitor(%j) is refused and sends nothing', async (id) => {
    const cpk = createClient({ baseUrl: emu.baseUrl, token: emu.token, env: {} });
    const sent = mark();
    try {
      const error = await cpk.deleteMonitor(id).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(UsageError);
      expect((error as Error).message).toBe(
        id === ''
          ? 'refusing to send a request with an empty path segment (it would change the path); nothing was sent'
          : `refusing to send a request with a "${id}" path segment (it would change the path); nothing was sent`,
      );
    } finally {
      await cpk.close();
    }
    expect(sent()).toEqual([]);
  });

  it('every endpoint taking an id refuses ".." (getMonitor, updateMonitor, updateChannel, getReport)', async () => {
    const cpk = createClient({ baseUrl: emu.baseUrl, token: emu.token, env: {} });
    const sent = mark();
    try {
      for (const call of [
        () => cpk.getMonitor('..'),
        () => cpk.updateMonitor('..', { name: 'x' }),
        () => cpk.updateChannel('..', { enabled: false }),
        () => cpk.getReport('.'),
      ]) {
        await expect(call()).rejects.toBeInstanceOf(UsageError);
      }
    } finally {
      await cpk.close();
    }
    expect(sent()).toEqual([]);
  });

  it('a dry run (describe) is refused by the same rule', () => {
    const http = new HttpClient({
      baseUrl: 'https://api.example.com/v1',
      timeoutMs: 1000,
      userAgent: 'test',
      transport: () => Promise.reject(new Error('never used')),
    });
    expect(() => http.describe(endpoints.deleteMonitor('..'))).toThrow(UsageError);
    expect(http.describe(endpoints.deleteMonitor('a/..')).url).toBe('https://api.example.com/v1/monitors/a%2F..');
    expect(http.describe(endpoints.deleteMonitor('...')).url).toBe('https://api.example.com/v1/monitors/...');
  });

  it('a command run with ".." (past argument parsing) fails with a usage error and sends nothing', async () => {
    const env = { CPK_BASE_URL: emu.baseUrl, CPK_TOKEN: emu.token };
    const sent = mark();
    const io = fakeIO({ env });
    const ctx = fakeContext(io);
    await expect(
      deleteMonitors({ ids: ['..'], single: true, yes: true, dryRun: false, concurrency: 1 }, ctx),
    ).rejects.toThrow(
      new UsageError(
        'refusing to send a request with a ".." path segment (it would change the path); nothing was sent',
      ),
    );
    await expect(
      getMonitors(
        { ids: ['.'], single: true, concurrency: 1, manifest: false, gate: { asserts: [], junit: undefined } },
        ctx,
      ),
    ).rejects.toBeInstanceOf(UsageError);
    await ctx.close();
    expect(sent()).toEqual([]);
    expect(io.out).toBe('');
  });
});

describe('the path rule for an id given on the command line', () => {
  it('names the problem: an empty id, and a "." or ".." id, before anything is sent', () => {
    expect(segmentProblem('')).toBe('empty');
    expect(segmentProblem('.')).toBe('dot');
    expect(segmentProblem('..')).toBe('dot');
    expect(segmentProblem('...')).toBeUndefined();
    expect(() => checkId('', 'monitor id')).toThrow('monitor id must not be empty');
    expect(() => checkId('..', 'monitor id')).toThrow('invalid monitor id ".."');
    expect(checkId('mon_1.2')).toBe('mon_1.2');
  });
});
