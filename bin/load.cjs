// Loads dist/cli.cjs with its V8 code cache (dist/cli.cjs.<platform>-<arch>-<node
// version>.cache, made at build time by scripts/make-code-cache.cjs): start-up then skips most parsing and
// compiling (README, "Performance"). Node >= 22.1 has module.enableCompileCache
// for this; Node 20 has vm.Script's cachedData. Without the vm feature that
// lets the bundle use import(), or without a cache, it is a plain require.
'use strict';
const { readFileSync } = require('node:fs');
const { join, dirname } = require('node:path');
const vm = require('node:vm');
const { createRequire } = require('node:module');

const BUNDLE = join(__dirname, '..', 'dist', 'cli.cjs');
// Keyed by the exact Node build that made it: V8 checks only its own version,
// and Node 20.18 and 20.20 both run V8 11.3.244.8, yet each crashes (SIGSEGV)
// on the other's cache. Another Node finds no cache and compiles as usual.
const CACHE = `${BUNDLE}.${process.platform}-${process.arch}-${process.version}.cache`;

// The bundle's import() of packages (see scripts/build.mjs): resolved from here,
// which is the package's own location too.
globalThis[Symbol.for('cpk.import')] = (specifier) => import(specifier);

function load({ useCache = true } = {}) {
  const dynamicImport = vm.constants && vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER;
  if (!dynamicImport) return { cli: require(BUNDLE), script: undefined };
  let cachedData;
  if (useCache) {
    try {
      cachedData = readFileSync(CACHE);
    } catch {
      cachedData = undefined;
    }
  }
  const source = readFileSync(BUNDLE, 'utf8');
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: BUNDLE,
    cachedData,
    importModuleDynamically: dynamicImport,
  });
  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, createRequire(BUNDLE), mod, BUNDLE, dirname(BUNDLE));
  return { cli: mod.exports, script };
}

module.exports = { load, BUNDLE, CACHE };
