#!/usr/bin/env node
// The shim: the CLI is dist/cli.cjs (built from src/cli/main.ts). On Node >= 22.1
// it is compiled through Node's own compile cache, kept in cpk's cache
// directory; CPK_NO_COMPILE_CACHE (or Node's NODE_DISABLE_COMPILE_CACHE)
// turns that off. `--version` alone is answered from package.json without
// loading the CLI; if that write fails, the CLI judges the failure as for any
// output (a closed pipe: 141; a full disk: one line and 74).
'use strict';
const argv = process.argv.slice(2);

function cli() {
  const { enableCompileCache } = require('node:module');
  const off = (value) => value !== undefined && value !== '' && value !== '0';
  if (enableCompileCache && !off(process.env.CPK_NO_COMPILE_CACHE)) {
    try {
      const { cacheDir } = require('../dist/paths.cjs');
      enableCompileCache(require('node:path').join(cacheDir(process.env), 'compile'));
    } catch {
      // An unusable cache directory: a slower start, never a failure.
    }
  }
  return require('../dist/cli.cjs');
}

if (argv.length === 1 && argv[0] === '--version') {
  process.stdout.once('error', (error) => {
    process.exitCode = cli().outputVerdict(0, error, false, process.stderr);
  });
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  cli()
    .main(argv)
    .then((code) => {
      process.exitCode = code;
    });
}
