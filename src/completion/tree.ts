// commander's command tree as plain data, which the completion scripts and docs/commands.md are generated from.
// Read through commander's public Help API, so hidden commands and options stay hidden and the help option
// appears where commander adds it.
import type { EventEmitter } from 'node:events';
import type { Argument, Command, Help, Option } from 'commander';

export interface CommandSpec {
  name: string;
  aliases: string[];
  /** [] for the root. */
  path: string[];
  description: string;
  /** As `--help` shows it, with the full command path. */
  usage: string;
  /** This command's own options (help included). */
  options: OptionSpec[];
  /** Options of its ancestors, which commander accepts here too (nearest first, no duplicates of `options`). */
  inherited: OptionSpec[];
  arguments: Array<ReturnType<typeof argumentSpec>>;
  subcommands: CommandSpec[];
  /** The text `--help` prints after the option list (examples, exit codes), without trailing blank lines. */
  helpAfter: string;
}

function optionSpec(option: Option, help: Help) {
  return {
    /** `-q, --quiet`, `--name <name>`. */
    flags: option.flags,
    short: option.short,
    long: option.long,
    /** Followed by a value (`<x>` or `[x]`), not a required option. */
    takesValue: option.required || option.optional,
    description: option.description,
    /** With default and choices, as `--help` shows it. */
    helpDescription: help.optionDescription(option),
    choices: option.argChoices ? [...option.argChoices] : [],
  };
}

function argumentSpec(argument: Argument, help: Help) {
  const name = argument.name();
  const dots = argument.variadic ? '...' : '';
  return {
    /** As usage shows it: `<id>`, `[file]`, `<ids...>`. */
    term: argument.required ? `<${name}${dots}>` : `[${name}${dots}]`,
    description: help.argumentDescription(argument),
    choices: argument.argChoices ? [...argument.argChoices] : [],
  };
}

export type OptionSpec = ReturnType<typeof optionSpec>;

/**
 * The text commander writes after a command's help (addHelpText('after', ...)).
 * Commander keeps it as an 'afterHelp' listener (a Command is an EventEmitter,
 * which its typings do not say), so it is replayed into a string.
 */
function helpAfter(cmd: Command): string {
  let text = '';
  (cmd as unknown as EventEmitter).emit('afterHelp', {
    error: false,
    command: cmd,
    write: (chunk: string) => (text += chunk),
  });
  return text.replace(/^\n+/, '').trimEnd();
}

export function describeCommand(cmd: Command, path: string[] = [], inherited: OptionSpec[] = []): CommandSpec {
  const help = cmd.createHelp();
  const options = help.visibleOptions(cmd).map((o) => optionSpec(o, help));
  const ownNames = new Set(options.flatMap((o) => [o.short, o.long]).filter(Boolean));
  const passedOn = inherited.filter((o) => !ownNames.has(o.long) && !ownNames.has(o.short));
  // What commander accepts below this command: its non-help options and everything it accepted itself.
  const forChildren = [...options.filter((o) => o.long !== '--help'), ...passedOn];
  return {
    name: cmd.name(),
    aliases: cmd.aliases(),
    path,
    description: help.commandDescription(cmd),
    usage: help.commandUsage(cmd),
    options,
    inherited: passedOn,
    arguments: cmd.registeredArguments.map((a) => argumentSpec(a, help)),
    subcommands: help.visibleCommands(cmd).map((sub) => describeCommand(sub, [...path, sub.name()], forChildren)),
    helpAfter: helpAfter(cmd),
  };
}

/** Depth first, the root first. */
export function allCommands(root: CommandSpec): CommandSpec[] {
  return [root, ...root.subcommands.flatMap(allCommands)];
}
