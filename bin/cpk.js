#!/usr/bin/env node
// The shim: everything lives in dist/cli.cjs (built from src/main.ts), loaded
// by ./load.cjs with a compile cache made on this machine. `--version` alone
// is answered here, without loading the CLI at all.
'use strict';
const argv = process.argv.slice(2);
if (argv.length === 1 && argv[0] === '--version') {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  const loaded = require('./load.cjs').load();
  loaded.cli.main(argv).then(async (code) => {
    process.exitCode = code;
    // After a cache miss: write this machine's cache for the next start (never fails).
    await loaded.save();
  });
}
