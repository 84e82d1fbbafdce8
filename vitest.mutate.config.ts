import { defineConfig } from 'vitest/config';
import suite from './vitest.config.js';

// The unit tests that guard the security rules, for `npm run mutate`
// (stryker.config.json): redaction, sanitizing (for a terminal and for a CI
// log), the path rule and the retry rule. Only unit tests: a mutant must be killed by a test of the rule itself,
// not by an end-to-end run that happens to cross it.
export default defineConfig({
  // The suite's plugins (the emulator's OpenAPI documents are YAML imported as data).
  plugins: suite.plugins,
  test: {
    include: [
      'test/unit/redact.test.ts',
      'test/unit/output-guard.test.ts',
      'test/unit/output.test.ts',
      'test/unit/sanitize.test.ts',
      'test/unit/ci-log.test.ts',
      'test/unit/path-rule.test.ts',
      'test/unit/retry.test.ts',
      'test/unit/http.test.ts',
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The suite's own temporary directory, removed at the end (test/global-setup.ts): the fake IOs' private
    // HOMEs land there instead of staying in the system's /tmp after every mutant's run.
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup-tmpdir.ts'],
  },
});
