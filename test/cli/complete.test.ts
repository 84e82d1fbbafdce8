// Dynamic completion: the generated bash script asks `cpk __complete` for
// monitor ids (the local inventory), profile names and declared --type values,
// in a real bash, with cpk on PATH as a user has it.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { withCpkOnPath } from '../helpers/bash-tab.js';

const f = useEmulator();
const SCRIPT = readFileSync(resolve(import.meta.dirname, '../../completions/cpk.bash'), 'utf8');

const run = promisify(execFile);

/**
 * The words each line's COMPREPLY offers, sorted (a description bash lists beside a word, "id  (name)", left
 * out). The emulator runs in this process: every child is awaited, never run synchronously.
 */
async function bashComplete(env: Record<string, string>, lines: string[][]): Promise<string[][]> {
  const cases = lines.map((words) => `comp ${words.map((w) => `'${w}'`).join(' ')}`).join('\n');
  const driver = `${SCRIPT}
comp() { COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMPREPLY=(); _cpk; printf '%s\\n' "\${COMPREPLY[@]%% *}" | LC_ALL=C sort | tr '\\n' ' '; echo; }
${cases}`;
  const { stdout } = await run('bash', ['--norc', '--noprofile', '-c', driver], { encoding: 'utf8', env });
  return stdout
    .split('\n')
    .slice(0, lines.length)
    .map((line) => line.split(' ').filter(Boolean));
}

describe('dynamic completion in bash', () => {
  it('completes monitor ids known here, profile names and the declared --type values', async () => {
    const env = withCpkOnPath(f.env);
    const cpk = async (args: string[], input?: string) => {
      const child = run('cpk', args, { env, encoding: 'utf8' });
      if (input !== undefined) child.child.stdin!.end(input);
      else child.child.stdin!.end();
      return (await child).stdout;
    };
    const a = (await cpk(['monitors', 'create', '--name', 'Checkout API', '-q'])).trim();
    const b = (await cpk(['monitors', 'create', '--name', 'Search', '-q'])).trim();
    await cpk(
      ['auth', 'login', '--profile', 'work', '--with-token', '--no-verify', '--insecure-storage'],
      f.env.CPK_TOKEN,
    );
    await cpk(
      ['auth', 'login', '--profile', 'home', '--with-token', '--no-verify', '--insecure-storage'],
      f.env.CPK_TOKEN,
    );
    // Before any list, no document is cached: --type offers nothing (and never fetches).
    const [noTypes] = await bashComplete(env, [['cpk', 'monitors', 'create', '--type', '']]);
    expect(noTypes).toEqual([]);
    await cpk(['monitors', 'list', '--limit', '1']); // caches the service's document

    const [ids, prefixed, profiles, useProfile, types, deleteIds] = await bashComplete(env, [
      ['cpk', 'monitors', 'get', ''],
      ['cpk', 'monitors', 'get', a.slice(0, 6)],
      ['cpk', '--profile', ''],
      ['cpk', 'profile', 'use', ''],
      ['cpk', 'monitors', 'create', '--type', ''],
      ['cpk', 'monitors', 'delete', '--yes', ''],
    ]);
    expect(ids).toEqual(expect.arrayContaining([a, b]));
    expect(prefixed).toContain(a);
    expect((prefixed ?? []).every((id) => id.startsWith(a.slice(0, 6)))).toBe(true);
    expect(profiles).toEqual(['home', 'work']);
    expect(useProfile).toEqual(['home', 'work']);
    expect(types).toEqual(['dns', 'http', 'ping', 'tcp']);
    expect(deleteIds).toEqual(expect.arrayContaining([a, b]));
    // The candidates carry names as descriptions, for shells that show them.
    expect(await cpk(['__complete', 'monitor-ids', a])).toBe(`${a}\tCheckout API\n`);
    // Deleted here: no longer offered.
    await cpk(['monitors', 'delete', a, '--yes']);
    expect((await bashComplete(env, [['cpk', 'monitors', 'get', '']]))[0]).not.toContain(a);
    // It never reaches the network: no request arrives while it completes.
    const seen = f.mark();
    expect(await cpk(['__complete', 'monitor-ids'])).toContain(b);
    expect(seen()).toEqual([]);
  });
});
