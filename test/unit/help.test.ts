// Issue #2: `--help` has an example for every command.
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { allCommands, describeCommand } from '../../src/completion/tree.js';
import type { IO } from '../../src/core/io.js';

const sink = { write: () => true };
const io: IO = {
  stdout: sink,
  stderr: sink,
  stdin: process.stdin,
  stdinIsTTY: false,
  stdoutIsTTY: false,
  stderrIsTTY: false,
  env: {},
};

describe('help', () => {
  const commands = allCommands(describeCommand(buildProgram({ io }))).filter((c) => c.path.at(-1) !== 'help');
  it.each(commands.map((c) => [c.path.join(' ') || 'cpk', c] as const))('%s has examples', (_name, cmd) => {
    expect(cmd.helpAfter).toMatch(/Examples:\n {2}\$ .*\bcpk\b/);
  });
});

/** `cpk ...args` with stdout a terminal of `columns` columns (or not a terminal), as main() sees it. */
async function helpAt(args: string[], columns: number | undefined, env: Record<string, string> = {}) {
  const { main } = await import('../../src/cli/main.js');
  const { fakeIO } = await import('../helpers/fake-io.js');
  const fake = fakeIO({ tty: columns !== undefined, env });
  fake.stdoutColumns = columns;
  expect(await main(args, fake, { handleSignals: false })).toBe(0);
  return fake.out;
}

describe('help wraps as gh wraps it', () => {
  const all = allCommands(describeCommand(buildProgram({ io })));
  const paths = all.filter((c) => c.path.at(-1) !== 'help').map((c) => c.path);

  it('on a terminal of 60 columns, every line but an example fits, and no word is cut', async () => {
    for (const path of paths) {
      const text = await helpAt([...path, '--help'], 60);
      const examples = text.indexOf('\nExamples:\n');
      const body = examples < 0 ? text : text.slice(0, examples);
      for (const line of body.split('\n'))
        expect([path.join(' '), line.length]).toEqual([path.join(' '), Math.min(line.length, 60)]);
    }
    const list = await helpAt(['monitors', 'list', '--help'], 60);
    expect(list).toContain('(env\n                         CPK_PROFILE; default: the current\n');
  });

  it("on a terminal of 80 columns, every line of every command's help fits, its examples too", async () => {
    const wide: string[] = [];
    for (const path of [[], ...paths]) {
      const text = await helpAt([...path, '--help'], 80);
      for (const line of text.split('\n')) if (line.length > 80) wide.push(`${path.join(' ')}: ${line}`);
    }
    expect(wide).toEqual([]);
  });

  it('off a terminal, help is not wrapped (a pager wraps for its reader), unless COLUMNS says a width', async () => {
    const retries =
      '  --retries <n>                  retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)\n';
    expect(await helpAt(['--help'], undefined)).toContain(retries);
    expect(await helpAt(['--help'], undefined)).toContain(
      'Exit codes: 0 ok, 1 failure, 2 usage, or a cancel (a declined confirmation, Esc), 3 network, 4 auth,',
    );
    expect(await helpAt(['--help'], undefined, { COLUMNS: '80' })).toContain(
      '  --retries <n>                  retries of a failed request that is safe to\n',
    );
  });

  it("a group's help entry is capitalised as the others are", async () => {
    expect(await helpAt(['monitors', '--help'], 80)).toMatch(/\n {2}help \[command\] +Display help for command\n/);
  });
});
