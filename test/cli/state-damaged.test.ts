// A damaged state file is described by what is wrong and where (line and
// column), never quoted: the path may be a symlink to a file holding a secret
// (a dotenv file, a key), and its first bytes must not reach a terminal or a CI log.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseState } from '../../src/manifest/state.js';
import { jsonSyntaxErrorOffset } from '../../src/core/json.js';
import { useEmulator } from '../helpers/emulator.js';

const f = useEmulator({}, { inProcess: true });

describe('a damaged state file is never quoted', () => {
  it.each([
    ['AWS_SECRET=wJalrXUtnFEMI/K7MDENG\n', 'not valid JSON (line 1, column 1)'],
    ['{\n  "version": 1,\n  "base_url": sk_live_abcdefgh\n}', 'not valid JSON (line 3, column 15)'],
    ['{"version": 1, "base_url": "x"} trailing_secret_value', 'not valid JSON (line 1, column 33)'],
    ['{"version": 1, "base_url": "sk_live_abcdefgh', 'not valid JSON (line 1, column 45)'],
    ['{"version": 1, "base_url": ["sk_live_abcdefgh",', 'not valid JSON (it ends too early)'],
    ['-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA\n', 'not valid JSON (line 1, column 2)'],
  ])('%j', (text, what) => {
    expect(() => parseState(text, 's.json')).toThrow(`the state file s.json is damaged: ${what}`);
  });

  it('property: the message holds no run of the text it was given', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z_=]{12,40}$/), (secret) => {
        try {
          parseState(`{"version": 1, "base_url": ${secret}}`, 's.json');
        } catch (error) {
          expect((error as Error).message).not.toContain(secret.slice(0, 6));
          return;
        }
        throw new Error('accepted');
      }),
    );
  });

  it('property: the offset is found exactly when JSON.parse refuses the text', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.json(),
          fc.string(),
          fc.json().map((j) => j.slice(0, -1)),
        ),
        (text) => {
          let valid = true;
          try {
            JSON.parse(text);
          } catch {
            valid = false;
          }
          const offset = jsonSyntaxErrorOffset(text);
          if (valid) expect(offset).toBeUndefined();
          else expect(offset).toBeTypeOf('number');
        },
      ),
      { numRuns: 500 },
    );
  });

  it('cpk plan through a symlink to a secret file names the file and the place, not its bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-state-'));
    const secret = join(dir, 'secrets.env');
    writeFileSync(secret, 'DB_PASSWORD=hunter2-very-secret\n');
    symlinkSync(secret, join(dir, 'cpk.state.json'));
    const file = join(dir, 'cpk.yaml');
    writeFileSync(file, 'monitors:\n  a:\n    name: damaged-state a\n    url: https://example.com\n');
    const r = await f.cpk(['plan', '-f', file]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toContain('DB_PASSWORD');
    expect(r.stderr).not.toContain('hunter2');
    expect(r.stderr).toBe(
      `cpk: the state file ${join(dir, 'cpk.state.json')} is damaged: not valid JSON (line 1, column 1); restore it from version control\n`,
    );
  });
});
