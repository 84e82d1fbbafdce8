#!/usr/bin/env node
// The shim: everything lives in dist/cli.cjs (built from src/main.ts), loaded
// with a V8 code cache by ./load.cjs. `--version` alone is answered here,
// without loading the CLI at all.
'use strict';
const argv = process.argv.slice(2);
if (argv.length === 1 && argv[0] === '--version') {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  require('./load.cjs')
    .load()
    .cli.main(argv)
    .then((code) => {
      process.exitCode = code;
    });
}
