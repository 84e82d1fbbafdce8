// Loads dist/cli.cjs, with a compile cache that is safe by construction
// (docs/performance.md, "Start-up"):
//
// - Nothing is shipped: the cache is made on the user's machine, by the Node
//   binary that reads it, in the user's cache directory ($CPK_CACHE_DIR, else
//   $XDG_CACHE_HOME/cpk, ~/.cache/cpk, ~/Library/Caches/cpk,
//   %LOCALAPPDATA%\cpk\Cache), under compile/.
// - Node >= 22.1: module.enableCompileCache(), which keys its entries by the
//   source's content and Node's own version.
// - Node 20: a V8 code cache through vm.Script's cachedData, in a file named
//   by a hash of the bundle's content and of the Node binary's identity
//   (version, execPath, the binary's size and mtime), holding that key in its
//   first line too (a file copied or planted under another name is ignored).
//   V8 itself checks only its version and the source's length: a cache from
//   another Node build with the same V8 can crash it, and one from an edited
//   bundle of the same length runs the old code. The key rules out both.
// - The bundle's content hash (SHA-256) is remembered for the bundle's exact
//   stat signature (device, inode, size, and mtime and ctime in nanoseconds),
//   as git's index remembers blob hashes: loading node:crypto and hashing
//   580 KB cost ~6 ms, a tenth of `cpk --help`. Any write to the file changes
//   its ctime, which no tool can set back, so an edit is always re-hashed.
// - A cache V8 rejects, or one that cannot be read or written, is ignored:
//   cpk runs normally and writes a fresh one (atomically: a temporary file
//   renamed into place) after the command has run.
// - CPK_NO_COMPILE_CACHE=1, or Node's NODE_DISABLE_COMPILE_CACHE, turns it
//   off: a plain require.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const BUNDLE = path.join(__dirname, '..', 'dist', 'cli.cjs');

function disabled(env) {
  const off = (v) => v !== undefined && v !== '' && v !== '0';
  return off(env.CPK_NO_COMPILE_CACHE) || off(env.NODE_DISABLE_COMPILE_CACHE);
}

/** The directory of compile caches, as env-paths (src/config/paths.ts cacheDir) would name cpk's cache. */
function cacheDir(env) {
  if (env.CPK_CACHE_DIR && env.CPK_CACHE_DIR.trim())
    return path.join(path.resolve(env.CPK_CACHE_DIR.trim()), 'compile');
  // os.homedir() answers $HOME on POSIX when it is set: read it here, and load
  // node:os (~0.2 ms) only without it.
  const home = process.platform !== 'win32' && env.HOME ? env.HOME : require('node:os').homedir();
  let base;
  if (process.platform === 'darwin') base = path.join(home, 'Library', 'Caches', 'cpk');
  else if (process.platform === 'win32')
    base = path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'cpk', 'Cache');
  else base = path.join(env.XDG_CACHE_HOME || path.join(home, '.cache'), 'cpk');
  return path.join(base, 'compile');
}

/** Node >= 22.1 has a compile cache of its own. */
function nativeCompileCache() {
  const mod = require('node:module');
  return typeof mod.enableCompileCache === 'function' ? mod.enableCompileCache : undefined;
}

/**
 * Loads the bundle. Returns { cli, cache } where cache says what happened:
 * 'off', 'native', 'none' (no vm support), 'hit', 'miss' or 'rejected'; and
 * save(), which writes a fresh V8 cache after a miss or a rejection (a no-op otherwise).
 */
function load(env = process.env) {
  const noop = async () => {};
  if (disabled(env)) return { cli: require(BUNDLE), cache: 'off', save: noop };
  const native = nativeCompileCache();
  if (native) {
    try {
      native(cacheDir(env));
    } catch {
      // An unusable directory: Node runs without its cache.
    }
    return { cli: require(BUNDLE), cache: 'native', save: noop };
  }
  const vm = require('node:vm');
  const dynamicImport = vm.constants && vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER;
  if (!dynamicImport) return { cli: require(BUNDLE), cache: 'none', save: noop };

  const source = fs.readFileSync(BUNDLE, 'utf8');
  let binary = '';
  try {
    const st = fs.statSync(process.execPath);
    binary = `${st.size}:${st.mtimeMs}`;
  } catch {
    // An execPath that cannot be read: the version and path still key the cache.
  }
  const dir = cacheDir(env);
  const memo = contentHash(dir, source);
  const key = `${memo.hash.slice(0, 24)}${fnv64(`${process.version}\0${process.arch}\0${process.execPath}\0${binary}`)}`;
  const file = path.join(dir, `v8-${key}.cache`);
  const header = Buffer.from(`cpk-v8-cache ${key}\n`);
  let cachedData;
  try {
    const raw = fs.readFileSync(file);
    if (raw.length > header.length && raw.subarray(0, header.length).equals(header))
      cachedData = raw.subarray(header.length);
  } catch {
    cachedData = undefined;
  }

  // V8 drops a vm.Script's import() callback for functions that come from a
  // code cache (Node 20), so the bundle's import() of packages goes through a
  // function defined here, outside the vm (scripts/build.mjs rewrites the
  // bundle's `import("pkg")` into `__cpkImport("pkg")`, which falls back to a
  // plain import() when this loader is not the one running it). This stays as
  // long as the vm.Script path does (Node 20).
  globalThis[Symbol.for('cpk.import')] = (specifier) => import(specifier);
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: BUNDLE,
    cachedData,
    importModuleDynamically: dynamicImport,
  });
  const mod = { exports: {} };
  const { createRequire } = require('node:module');
  script.runInThisContext()(mod.exports, createRequire(BUNDLE), mod, BUNDLE, path.dirname(BUNDLE));
  const cache = cachedData === undefined ? 'miss' : script.cachedDataRejected ? 'rejected' : 'hit';
  const save = async () => {
    memo.save();
    if (cache === 'hit') return;
    try {
      const data = script.createCachedData();
      writeAtomic(dir, file, Buffer.concat([header, data]));
      prune(dir, file);
    } catch {
      // No cache is a slower start, never a failure.
    }
  };
  return { cli: mod.exports, cache, save, script, file };
}

/** Writes `file` in `dir` through a temporary file renamed into place; throws on failure. */
function writeAtomic(dir, file, data) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  try {
    fs.writeFileSync(temp, data, { mode: 0o600 });
    fs.renameSync(temp, file);
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

/** 64-bit FNV-1a of a short string, as 16 hex digits (two 32-bit lanes). */
function fnv64(text) {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (a >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/**
 * The SHA-256 of the bundle, from the memo file for its stat signature when
 * that file names the same signature; else computed (and save() records it).
 */
function contentHash(dir, source) {
  let signature = '';
  try {
    const st = fs.statSync(BUNDLE, { bigint: true });
    signature = `${BUNDLE}\0${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    // No signature: hash every time.
  }
  const file = path.join(dir, `bundle-${fnv64(signature)}.sha256`);
  if (signature) {
    try {
      const [line, hash] = fs.readFileSync(file, 'utf8').split('\n');
      if (line === signature && /^[0-9a-f]{64}$/.test(hash)) return { hash, save: () => {} };
    } catch {
      // No memo yet, or an unreadable one.
    }
  }
  const hash = require('node:crypto').createHash('sha256').update(source).digest('hex');
  const save = () => {
    if (!signature) return;
    try {
      writeAtomic(dir, file, `${signature}\n${hash}\n`);
      prune(dir, file, /^bundle-[0-9a-f]+\.sha256$/);
    } catch {
      // No memo is a slower start, never a failure.
    }
  };
  return { hash, save };
}

/** Keeps the three most recent caches (other bundles and Nodes), or memos; never fails. */
function prune(dir, keep, pattern = /^v8-[0-9a-f]+\.cache$/) {
  try {
    const caches = fs
      .readdirSync(dir)
      .filter((n) => pattern.test(n))
      .map((n) => path.join(dir, n))
      .filter((p) => p !== keep)
      .map((p) => ({ p, t: fs.statSync(p).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    for (const { p } of caches.slice(2)) fs.rmSync(p, { force: true });
  } catch {
    // Another cpk pruning at the same time, or an unreadable directory.
  }
}

module.exports = { load, BUNDLE, cacheDir };
