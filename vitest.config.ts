import { defineConfig } from 'vitest/config';

// Two projects in one run: everything, with cpk choosing its transport
// (node:http for one request, undici for many), and the end-to-end suite again
// with CPK_TRANSPORT=undici, so both transports pass every end-to-end test
// (README, "Performance"). One run lets the two overlap while tests wait on
// the CLI processes they spawn. End-to-end tests that do not depend on the
// transport (rendering, completion, help, manifests' local logic) live in
// test/cli/ and run once, in the auto project, to keep `npm test` under two
// minutes on two cores.
export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    maxWorkers: 4,
    projects: [
      { extends: true, test: { name: 'auto', include: ['test/**/*.test.ts'] } },
      { extends: true, test: { name: 'undici', include: ['test/e2e/**/*.test.ts'], env: { CPK_TRANSPORT: 'undici' } } },
    ],
  },
});
