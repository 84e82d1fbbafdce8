// What a command loads: heavy and stateful modules only where they are used
// (README, "Performance"). Runs the built CLI with a preload that records every
// require and every package import.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { useEmulator } from '../helpers/emulator.js';

const PRELOAD = resolve(import.meta.dirname, '../fixtures/record-loads.cjs');
const f = useEmulator();

async function loads(args: string[], env: Record<string, string | undefined> = {}): Promise<string[]> {
  // The automatic transport choice, whatever the suite's CPK_TRANSPORT.
  const r = await f.cpk(args, { nodeArgs: ['-r', PRELOAD], env: { CPK_TRANSPORT: undefined, ...env } });
  const line = r.stderr.split('\n').find((l) => l.startsWith('LOADED '));
  expect(line, r.stderr).toBeDefined();
  return JSON.parse(line!.slice('LOADED '.length)) as string[];
}

const HEAVY = [
  'undici',
  'undici/lib/dispatcher/agent.js',
  'conf',
  '@napi-rs/keyring',
  'proper-lockfile',
  'ora',
  'cli-table3',
  'chalk',
  'jmespath',
  'yaml',
  'ajv',
  'child_process',
  // node:crypto is not here: on Node 20 bin/load.cjs hashes the bundle (0.5 ms)
  // to key this machine's compile cache.
  'readline',
];

describe('start-up', () => {
  it.each([[['--help']], [['monitors', '--help']], [['--version']]])(
    '%j loads none of the heavy modules',
    async (args) => {
      const loaded = await loads(args);
      for (const name of HEAVY) expect(loaded, name).not.toContain(name);
    },
  );

  it('after the first run, --help loads no crypto, no fs/promises and no stdin stream (bin/load.cjs remembers the bundle hash)', async () => {
    await loads(['--help']); // the first run of this bundle in this cache directory may hash it
    const loaded = await loads(['--help']);
    expect(loaded).not.toContain('builtin:crypto');
    expect(loaded).not.toContain('builtin:fs/promises');
    expect(loaded).not.toContain('process.stdin');
    expect(loaded).not.toContain('builtin:os'); // the cache directory is found from $HOME
    expect(loaded).toContain('builtin:path'); // the check sees Node's own modules
  });

  it.each([[['--help']], [['monitors', '--help']], [['help', 'monitors', 'get']], [['--version']]])(
    '%j writes its help without making the stdout stream: no stream or net module',
    async (args) => {
      const loaded = await loads(args);
      for (const name of ['builtin:stream', 'builtin:net', 'builtin:internal/streams/writable'])
        expect(loaded, name).not.toContain(name);
    },
  );

  it('one `monitors get --json` loads no HTTP library, config library, keychain or widget', async () => {
    const id = (await f.cpk(['monitors', 'create', '--name', 'startup', '-q'])).stdout.trim();
    await loads(['monitors', 'get', id, '--json']); // the first run in this cache directory may hash the bundle
    const loaded = await loads(['monitors', 'get', id, '--json']);
    for (const name of HEAVY) expect(loaded, name).not.toContain(name);
    expect(loaded).toContain('http');
    // An http:// base URL: node:https and tls (~2 ms) are loaded for https only.
    expect(loaded).not.toContain('builtin:https');
    expect(loaded).not.toContain('builtin:tls');
    // The inventory names its file by a SHA-256 computed in JavaScript (src/config/sha256.ts), and
    // writes it under a temporary name made without node:crypto (src/atomic-file.ts): node:crypto
    // costs ~2.5% of a get (issue 13: the inventory must not slow simple commands).
    expect(loaded).not.toContain('builtin:crypto');
  });

  it('several ids use the undici keep-alive pool', async () => {
    const id = (await f.cpk(['monitors', 'create', '--name', 'startup', '-q'])).stdout.trim();
    const loaded = await loads(['monitors', 'get', id, id, '--json']);
    // The Agent and request API alone, not undici's index (src/http/undici-transport.ts).
    expect(loaded).toContain('undici/lib/dispatcher/agent.js');
    expect(loaded).not.toContain('undici');
    // llhttp is compiled by the baseline compiler only: with TurboFan, Node 20
    // waits ~120 ms at exit for the background optimization (baselineWasmOnly).
    expect(loaded).toContain('wasm');
    expect(loaded.indexOf('v8:--liftoff-only')).toBeGreaterThanOrEqual(0);
    expect(loaded.indexOf('v8:--liftoff-only')).toBeLessThan(loaded.indexOf('wasm'));
  });

  it('apply takes the state lock without loading graceful-fs or importing proper-lockfile (it is bundled, given node:fs)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-startup-'));
    const file = join(dir, 'cpk.yaml');
    writeFileSync(file, 'monitors:\n  m0:\n    name: startup lock\n');
    const argv = ['apply', '-f', file, '--yes'];
    await f.cpk(argv); // creates it: the second run has nothing to change, and still locks
    const loaded = await loads(argv);
    expect(loaded).not.toContain('graceful-fs');
    expect(loaded).not.toContain('proper-lockfile');
  });

  it('plan of a valid manifest reads it without loading the yaml package (js-yaml reads it; yaml is for positions)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-startup-'));
    const file = join(dir, 'cpk.yaml');
    writeFileSync(file, 'monitors:\n  m0:\n    name: startup yaml\n    interval: 5m\n');
    const valid = await loads(['plan', '-f', file]);
    expect(valid).toContain('js-yaml');
    expect(valid).not.toContain('yaml');
    // Against a service whose document declares nothing, the manifest's own schema is checked by
    // code compiled ahead of time (npm run gen): neither yaml nor ajv is loaded.
    const alone = await loads(['validate', '-f', file], { CPK_BASE_URL: 'http://127.0.0.1:9/v1' });
    expect(alone).toContain('js-yaml');
    expect(alone).not.toContain('yaml');
    expect(alone).not.toContain('ajv');
    // A manifest with a problem is read again with positions: then it is loaded.
    writeFileSync(file, 'monitors:\n  m0:\n    name: [not, a, string]\n');
    expect(await loads(['plan', '-f', file])).toContain('yaml');
  });
});
