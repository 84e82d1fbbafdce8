import { defineConfig } from 'vitest/config';

// `npm run test:bench`: a smoke run of `npm run bench` (its tiny --quick
// workload) that checks it runs and reports every row. Not part of `npm test`:
// it spawns a few dozen CLI processes to measure speed, and the suite tests
// behaviour. CI runs it after the suite (.ci/run). The time limit only
// catches a hang.
export default defineConfig({
  test: {
    include: ['test/bench.test.ts'],
    testTimeout: 300_000,
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup-tmpdir.ts'],
  },
});
