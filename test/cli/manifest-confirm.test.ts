// On a terminal, apply asks before changing anything (#6). A terminal is a
// field of the IO, so this runs cpk's main in-process with a fake one.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { main } from '../../src/cli/main.js';
import type { IO } from '../../src/core/io.js';
import { useEmulator } from '../helpers/emulator.js';
import { baseEnv } from '../helpers/cli.js';

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
});
