import { defineConfig } from 'vitest/config';
import { parse } from 'yaml';
import WaitersFirst from './test/sequencer.js';

// test/e2e/ holds the cases a transport can change: hostile servers, retries
// and timeouts, keep-alive, proxies and TLS, and what reaches stdout and stderr
// when a server or proxy echoes a secret. Each of its files runs its cases
// twice, with cpk choosing its transport (node:http for one request, undici for
// many) and with CPK_TRANSPORT=undici (test/helpers/transports.ts), one after
// the other in one worker: a project of their own cost a worker's start, and
// its import of src/, for each file. End-to-end tests that the transport cannot
// change live in test/cli/ and run once: commands and their output, exit
// codes, rendering, completion, help, config files and sign-in, manifests and
// bulk commands.
export default defineConfig({
  // The emulator's OpenAPI documents are YAML files imported as data, as the
  // build does (scripts/build.mjs).
  plugins: [
    {
      name: 'yaml-as-data',
      transform(code: string, id: string) {
        if (!id.endsWith('.yaml')) return undefined;
        return { code: `export default ${JSON.stringify(parse(code))};`, map: null };
      },
    },
  ],
  test: {
    // Only to catch a hang: tests that spawn the CLI wait on processes a busy
    // machine can slow tenfold, and a generous limit costs nothing when they pass.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup-tmpdir.ts'],
    pool: 'forks',
    // Test files share their worker's module cache instead of importing src/
    // and vitest again for each file: on two cores that is ~40 s of CPU, a
    // third of the run. The tests keep no global state between files (no
    // module mocks; the one spy restores itself), so isolation buys nothing here.
    isolate: false,
    // Three on two cores: a fourth imported src/ once more and added about 30 s of CPU, while two left the
    // cores idle during the end-to-end cases' waits (a quiet 2-core machine, 2026-11-28: 103 s with three,
    // 109 s with four, 136 s with two).
    maxWorkers: 3,
    sequence: { sequencer: WaitersFirst },
    include: ['test/**/*.test.ts'],
    // The bench's smoke run measures speed, not behaviour: `npm run test:bench`.
    exclude: ['test/bench.test.ts'],
  },
});
