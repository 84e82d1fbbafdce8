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
