// Every command the tree can run says, beside its definition, what it changes:
// the closed-stdout rule reads it now, and agent mode and the MCP server gate
// writes on it. A command that forgot would be taken for a harmless read.
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { allCommands, describeCommand, traitsOf } from '../../src/completion/tree.js';
import { referenceProgram } from '../../src/gen/files.js';

const program = referenceProgram();

/** The commands that run something: those without subcommands (groups only print their help). */
function runnable(cmd: Command, path: string[] = []): Array<[string, Command]> {
  if (cmd.commands.length === 0) return [[path.join(' '), cmd]];
  return cmd.commands.flatMap((sub) => runnable(sub, [...path, sub.name()]));
}

describe('command traits', () => {
  it.each(runnable(program))('%s declares what it changes', (_path, cmd) => {
    expect(['read', 'write', 'destroy', 'function']).toContain(
      typeof traitsOf(cmd)?.effect === 'function' ? 'function' : traitsOf(cmd)?.effect,
    );
  });

  it('the tree shows what each command changes, deletes as destroy and a per-method command at its worst', () => {
    const effects = Object.fromEntries(allCommands(describeCommand(program)).map((c) => [c.path.join(' '), c.effect]));
    expect(effects).toMatchObject({
      'monitors list': 'read',
      'monitors get': 'read',
      'monitors create': 'write',
      'monitors update': 'write',
      'monitors delete': 'destroy',
      'channels update': 'write',
      'reports get': 'read',
      plan: 'read',
      apply: 'destroy', // with --prune, or a saved plan made with it
      api: 'destroy',
    });
  });
});
