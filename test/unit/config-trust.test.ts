// A config file another local user could have written is refused (issue 12
// item 8), as ssh refuses such keys: owned by someone else, writable by
// others, or in a directory others can write (without the sticky bit).
import { describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertTrusted, loadConfig, trustProblem } from '../../src/config/file.js';
import { configLocation } from '../../src/core/paths.js';
import { UsageError } from '../../src/core/errors.js';
import { checkConfigFile } from '../../src/cli/doctor-checks.js';

function config(fileMode = 0o600, dirMode = 0o700) {
  const dir = join(mkdtempSync(join(tmpdir(), 'cpk-trust-')), 'cpk');
  mkdirSync(dir);
  const file = join(dir, 'config.json');
  writeFileSync(file, '{"profiles":{"default":{"base_url":"https://attacker.example"}}}');
  chmodSync(file, fileMode);
  chmodSync(dir, dirMode);
  return { dir, file };
}

describe('trusting the config file', () => {
  it('a private file in a private directory of your own is trusted', () => {
    const { dir, file } = config();
    expect(trustProblem(file, dir)).toBeUndefined();
  });

  it('a file that others can only read is left to the repair (chmod 600), not refused', () => {
    const { dir, file } = config(0o644, 0o755);
    expect(trustProblem(file, dir)).toBeUndefined();
  });

  it.each([0o620, 0o602, 0o666])('a file writable by others (mode %o) is refused, naming chmod 600', (mode) => {
    const { dir, file } = config(mode);
    const found = trustProblem(file, dir)!;
    expect(found.problem).toMatch(/^is writable by others \(mode 06\d\d\): another local user could have written/);
    expect(found.fix).toBe(`check it, then run chmod 600 "${file}"`);
  });

  it('a file owned by another user is refused (you and root are the trusted owners)', () => {
    const { dir, file } = config();
    const owner = statSync(file).uid;
    const found = trustProblem(file, dir, [owner + 1])!;
    expect(found.problem).toContain(`is owned by another user (uid ${owner})`);
    expect(found.fix).toContain('chown');
    expect(trustProblem(file, dir, [owner])).toBeUndefined();
  });

  it('a directory others can write is refused, unless it has the sticky bit', () => {
    const open = config(0o600, 0o777);
    expect(trustProblem(open.file, open.dir)!.problem).toContain(
      `is in a directory others can write (${open.dir}, mode 0777)`,
    );
    const sticky = config(0o600, 0o1777);
    expect(trustProblem(sticky.file, sticky.dir)).toBeUndefined();
  });

  it('no file: nothing to trust, nothing refused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-trust-'));
    expect(trustProblem(join(dir, 'config.json'), dir)).toBeUndefined();
  });

  it('loadConfig refuses before reading: a usage error naming the file and the fix, exit 2', () => {
    const { dir, file } = config(0o666);
    const env = { CPK_CONFIG_DIR: dir };
    expect(() => loadConfig(env)).toThrow(`config file ${file} is writable by others (mode 0666)`);
    try {
      assertTrusted(configLocation(env));
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).exitCode).toBe(2);
      expect((error as UsageError).hint).toContain('chmod 600');
    }
    expect.assertions(4);
  });

  it('cpk doctor fails its config check with the same problem and fix', () => {
    const { dir, file } = config(0o666);
    expect(checkConfigFile(file, dir, true)).toEqual([
      {
        name: 'Config file',
        ok: false,
        detail: expect.stringContaining('is writable by others'),
        fix: `check it, then run chmod 600 "${file}"`,
      },
    ]);
  });
});
