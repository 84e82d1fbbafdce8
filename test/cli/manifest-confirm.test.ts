// On a terminal, apply asks before changing anything (#6), and a deletion takes
// `yes` typed in full. A terminal is a field of the IO, so most of this runs
// cpk's main in-process with a fake one; the deletion runs on a real pty.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { main } from '../../src/cli/main.js';
import type { IO } from '../../src/core/io.js';
import { useEmulator } from '../helpers/emulator.js';
import { baseEnv } from '../helpers/cli.js';
import { runInPty } from '../helpers/pty.js';

const f = useEmulator();

async function onTerminal(args: string[], answer: string) {
  const out = { stdout: '', stderr: '' };
  const io: IO = {
    stdout: { write: (s: string) => (out.stdout += s) },
    stderr: { write: (s: string) => (out.stderr += s) },
    stdin: Readable.from([answer]),
    stdinIsTTY: true,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    // The service's document is cached (validation, #15): in a directory of the test's own.
    // A private HOME too (baseEnv), so that the inventory of known monitors is the test's own.
    env: baseEnv({ CPK_BASE_URL: f.emu.baseUrl, CPK_TOKEN: f.emu.token, CPK_CACHE_DIR: cacheDir }),
  };
  const code = await main(args, io, { handleSignals: false });
  return { code, ...out };
}

const cacheDir = mkdtempSync(join(tmpdir(), 'cpk-tty-cache-'));

describe('apply on a terminal', () => {
  it('asks first: "n" changes nothing, "y" applies', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-tty-'));
    const file = join(dir, 'cpk.yaml');
    writeFileSync(file, 'monitors:\n  asked:\n    name: asked first\n');
    const sent = f.mark();
    const no = await onTerminal(['apply', '-f', file], 'n\n');
    expect(no.code).toBe(2);
    expect(no.stderr).toContain(`Apply these changes to ${f.emu.baseUrl}? [y/N] `);
    expect(no.stderr).toContain('cpk: apply cancelled; nothing was changed\n');
    // Nothing but the public document, read to validate the entries.
    expect(sent().filter((q) => q.path !== '/v1/openapi.json')).toEqual([]);

    const yes = await onTerminal(['apply', '-f', file], 'y\n');
    expect(yes.code).toBe(0);
    expect(yes.stdout).toContain('Apply: 1 created, 0 updated, 0 deleted, 0 unchanged, 0 failed.');
    expect(f.emu.monitors().filter((m) => m.name === 'asked first')).toHaveLength(1);

    // Nothing to change: nothing to ask.
    const none = await onTerminal(['apply', '-f', file], '');
    expect(none.code).toBe(0);
    expect(none.stderr).not.toContain('[y/N]');
  });

  it('a deletion takes "yes" typed in full, on a real terminal: "y" deletes nothing (exit 2), "yes" deletes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-tty-'));
    const file = join(dir, 'cpk.yaml');
    writeFileSync(file, 'monitors:\n  kept:\n    name: prune kept\n  old:\n    name: prune old\n');
    expect((await onTerminal(['apply', '-f', file, '--yes'], '')).code).toBe(0);
    const old = f.emu.monitors().find((m) => m.name === 'prune old')!.id as string;
    writeFileSync(file, 'monitors:\n  kept:\n    name: prune kept\n');
    const env = { CPK_BASE_URL: f.emu.baseUrl, CPK_TOKEN: f.emu.token, CPK_CACHE_DIR: cacheDir };

    const answer = async (typed: string) => {
      const pty = runInPty(['apply', '-f', file, '--prune'], { env });
      await pty.waitFor(/deleting 1 monitor\? Type yes to confirm: /);
      pty.type(`${typed}\r`);
      return pty.done;
    };
    const sent = f.mark();
    const declined = await answer('y');
    expect(declined.code, declined.output).toBe(2);
    expect(declined.output).toContain(
      'cpk: apply cancelled; nothing was changed; only yes, typed in full, confirms deleting monitors',
    );
    expect(sent().filter((q) => q.method !== 'GET')).toEqual([]);
    expect(f.emu.monitors().map((m) => m.id)).toContain(old);

    const confirmed = await answer('yes');
    expect(confirmed.code, confirmed.output).toBe(0);
    expect(confirmed.output).toContain('Apply: 0 created, 0 updated, 1 deleted, 1 unchanged, 0 failed.');
    expect(
      sent()
        .filter((q) => q.method !== 'GET')
        .map((q) => `${q.method} ${q.path}`),
    ).toEqual([`DELETE /v1/monitors/${old}`]);
    expect(f.emu.monitors().map((m) => m.id)).not.toContain(old);
  }, 60_000);
});
