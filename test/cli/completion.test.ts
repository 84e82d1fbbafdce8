// `cpk completion SHELL` through the built CLI: it prints exactly the files
// `npm run gen` wrote (so both come from the same tree), and rejects other shells.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runCpk } from '../helpers/in-process.js';
import { COMPLETION_FILES, SHELLS } from '../../src/completion/shells.js';

const ROOT = resolve(import.meta.dirname, '../..');

describe('cpk completion', () => {
  it('prints the generated script of each shell, on stdout only', async () => {
    const results = await Promise.all(SHELLS.map((shell) => runCpk(['completion', shell])));
    SHELLS.forEach((shell, i) => {
      const r = results[i]!;
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(readFileSync(resolve(ROOT, COMPLETION_FILES[shell]), 'utf8'));
    });
  });

  it('an unknown shell is a usage error naming the choices', async () => {
    const r = await runCpk(['completion', 'tcsh']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      "cpk: command-argument value 'tcsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish, powershell. (see --help)\n",
    );
  });
});
