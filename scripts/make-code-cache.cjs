// Runs the freshly built bundle through its hot paths (help, and a request
// that fails fast against a closed port) so that V8 has compiled what start-up
// uses, then saves the code cache beside the bundle (see scripts/build.mjs).
'use strict';
const { writeFileSync } = require('node:fs');
const { load, CACHE } = require('../bin/load.cjs');

const sink = { write: () => true };
const io = (env) => ({
  stdout: sink,
  stderr: sink,
  stdin: process.stdin,
  stdinIsTTY: false,
  stdoutIsTTY: false,
  stderrIsTTY: false,
  env,
});
const env = {
  CPK_TOKEN: 'cpk_code_cache_warmup',
  CPK_BASE_URL: 'http://127.0.0.1:9',
  CPK_CONFIG_DIR: '/nonexistent/cpk-code-cache',
};

(async () => {
  const { cli, script } = load({ useCache: false });
  for (const argv of [
    ['--help'],
    ['monitors', '--help'],
    ['monitors', 'get', 'x', '--json', '--retries', '0'],
    ['monitors', 'get', 'x', '--retries', '0'],
  ]) {
    await cli.main(argv, io(env), { handleSignals: false });
  }
  writeFileSync(CACHE, script.createCachedData());
})().catch((error) => {
  // No cache is a slower start, not a broken build.
  process.stderr.write(`warning: no code cache: ${error.message}\n`);
});
