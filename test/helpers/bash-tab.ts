// Tab in a real interactive bash on a pseudo-terminal, with cpk's generated
// completion script loaded: what the line became, and what bash listed.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BIN, baseEnv } from './cli.js';
import { runCommandInPty } from './pty.js';

const ROOT = resolve(import.meta.dirname, '../..');

export interface TabResult {
  /** The command line after Tab, read back from history (never run). */
  line: string;
  /** What the terminal showed from typing the line to reading it back (the listed candidates). */
  shown: string;
}

/**
 * Types each line and presses Tab in one interactive bash with the generated
 * script loaded, in `cwd` (an empty directory unless given, where bash's file
 * fallback finds nothing), then turns the completed line into a comment
 * (Ctrl-A, "# ", Enter: nothing of it runs) and reads it back from the
 * history. Keys typed after Tab wait in the terminal until the completion is done.
 */
export async function pressTab(
  env: Record<string, string>,
  lines: string[],
  cwd = mkdtempSync(join(tmpdir(), 'cpk-cwd-')),
): Promise<TabResult[]> {
  const home = mkdtempSync(join(tmpdir(), 'cpk-bash-'));
  const rc = join(home, 'rc');
  writeFileSync(
    rc,
    [
      "PS1='$ '",
      'HISTFILE=/dev/null',
      `PATH=${env.PATH}`,
      "bind 'set show-all-if-ambiguous on'",
      "bind 'set completion-query-items 0'",
      "bind 'set page-completions off'",
      "bind 'set bell-style none'",
      `source ${join(ROOT, 'completions/cpk.bash')}`,
      `cd ${cwd}`,
      'echo READY',
      '',
    ].join('\n'),
  );
  const bash = runCommandInPty(['bash', '--noprofile', '--rcfile', rc, '-i'], {
    env: { ...env, HISTFILE: '/dev/null' },
    columns: 400,
    rows: 50,
    timeoutMs: 60_000,
  });
  const results: TabResult[] = [];
  try {
    await bash.waitFor(/READY\r?\n/);
    for (const [i, line] of lines.entries()) {
      const from = bash.output().length;
      bash.type(`${line}\t`);
      bash.type(`\x01# \r`);
      bash.type(`echo "<${i}<$(fc -ln -1)>${i}>"\r`);
      const read = new RegExp(`<${i}<\\s*# (.*)>${i}>\\r?\\n`);
      await bash.waitFor(read, from);
      const text = bash.output().slice(from);
      const match = read.exec(text)!;
      results.push({ line: match[1]!, shown: text.slice(0, match.index) });
    }
    bash.type('exit\r');
    await bash.done;
  } finally {
    bash.signal('TERM');
  }
  return results;
}

/**
 * The environment of a user with `cpk` on PATH (a shim running the built
 * CLI), private data and cache directories (the inventory and the service's
 * cached document), and `extra` (the service to complete against).
 */
export function withCpkOnPath(extra: Record<string, string | undefined>): Record<string, string> {
  const bin = mkdtempSync(join(tmpdir(), 'cpk-bin-'));
  writeFileSync(join(bin, 'cpk'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'cpk'), 0o755);
  const env = baseEnv({
    ...extra,
    CPK_DATA_DIR: mkdtempSync(join(tmpdir(), 'cpk-data-')),
    CPK_CACHE_DIR: mkdtempSync(join(tmpdir(), 'cpk-cache-')),
  });
  env.PATH = `${bin}:${env.PATH}`;
  return env;
}
