// What `cpk --help` (and every command) loads before its action runs: the
// static imports of the built entry, followed through cpk's own chunks.
// Heavy and stateful modules must only ever be imported where used.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const ENTRY = resolve(import.meta.dirname, '../../dist/cli.js');

function staticImports(file: string, seen = new Set<string>(), packages = new Set<string>()): Set<string> {
  if (seen.has(file)) return packages;
  seen.add(file);
  const code = readFileSync(file, 'utf8');
  // `import x from "y"`, `import { a } from "y"`, `import "y"`; not `import("y")`.
  for (const match of code.matchAll(/^import\s+(?:[^'"()]*?\s+from\s+)?["']([^"']+)["']/gm)) {
    const spec = match[1]!;
    if (spec.startsWith('.')) staticImports(join(dirname(file), spec), seen, packages);
    else packages.add(spec);
  }
  return packages;
}

describe('start-up', () => {
  it('loads no config, keychain, lock, HTTP or terminal-widget module before a command needs it', () => {
    const loaded = staticImports(ENTRY);
    expect(loaded.has('commander')).toBe(true);
    for (const lazy of ['conf', '@napi-rs/keyring', 'proper-lockfile', 'env-paths', 'undici', 'ora', 'cli-table3', 'chalk', 'node:child_process', 'node:crypto']) {
      expect(loaded.has(lazy), lazy).toBe(false);
    }
  });
});
