// The action's install step (action/install.sh) speaks to the runner in
// workflow commands: its inputs reach the log only escaped as @actions/core
// escapes data, so a version or download-base holding a line break makes one
// ::error and no second command, and a token holding `%0A` or `%25` is masked
// as written. Each run stops before anything is downloaded or installed.
import { describe, expect, it } from 'vitest';
import { runActionStep } from '../helpers/action-runner.js';
import { unescapeData, workflowCommandsIn } from '../helpers/workflow-commands.js';

/** A release nobody can download: curl fails at once, without the network. */
const NOWHERE = 'file:///nonexistent/cpk-release';

describe("action.yml's install step escapes what it writes to the runner", () => {
  it.each([
    [
      'a version holding a line break',
      { version: '1.0.0\n::warning::forged' },
      'version "1.0.0\n::warning::forged" is not x.y.z',
    ],
    [
      'a download-base holding a line break',
      { 'download-base': `${NOWHERE}\n::warning::forged`, version: '1.0.0' },
      `could not download ${NOWHERE}\n::warning::forged/v1.0.0/SHA256SUMS`,
    ],
    [
      'a version holding %0A',
      { version: '1.0.0%0A::warning::forged' },
      'version "1.0.0%0A::warning::forged" is not x.y.z',
    ],
  ])('%s: one ::error, its text as the runner reads it back', async (_name, inputs, message) => {
    const r = await runActionStep('install', inputs);
    expect(r.code).toBe(1);
    const commands = workflowCommandsIn(r.stdout);
    expect(commands).toHaveLength(1);
    expect(r.stdout).toBe(`${commands[0]}\n`);
    const prefix = '::error title=cpk install::';
    expect(commands[0]!.startsWith(prefix)).toBe(true);
    expect(unescapeData(commands[0]!.slice(prefix.length))).toBe(message);
    expect(r.path).toEqual([]);
  });

  it('masks a token holding %0A and %25 as written: the runner unescapes the mask to the token itself', async () => {
    const token = 'cpk_a%0Ab%25c%0D';
    const r = await runActionStep('install', { token, 'download-base': NOWHERE });
    expect(r.code).toBe(1);
    const [mask, error] = r.stdout.split('\n');
    expect(mask).toBe('::add-mask::cpk_a%250Ab%2525c%250D');
    expect(unescapeData(mask!.slice('::add-mask::'.length))).toBe(token);
    expect(error).toMatch(/^::error title=cpk install::could not download /);
    expect(r.env).toBe('');
  });
});
