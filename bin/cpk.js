#!/usr/bin/env node
// The shim: everything lives in dist/cli.cjs (built from src/main.ts), loaded
// by ./load.cjs with a compile cache made on this machine. `--version` alone
// is answered here, without loading the CLI at all, and written with write(2)
// so that not even Node's stdout stream is made (docs/performance.md). If that
// write fails (a closed pipe, a full disk, a full non-blocking pipe), nothing
// was written and the CLI answers instead: it owns the exit codes of a failed
// output (141, 74) and their one-line messages (issue 12 item 10).
'use strict';
const argv = process.argv.slice(2);
if (!(argv.length === 1 && argv[0] === '--version' && printVersion())) {
  const loaded = require('./load.cjs').load();
  loaded.cli.main(argv).then(async (code) => {
    process.exitCode = code;
    // After a cache miss: write this machine's cache for the next start (never fails).
    await loaded.save();
  });
}

function printVersion() {
  try {
    require('node:fs').writeSync(1, `${require('../package.json').version}\n`);
    return true;
  } catch {
    return false;
  }
}
