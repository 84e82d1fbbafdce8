// A plain description of commander's command tree: what the completion
// scripts and docs/commands.md are generated from, so neither can drift from
// the real commands and flags. Read through commander's public Help
// API, so hidden commands and options stay hidden and the help option appears
// where commander adds it.
import type { EventEmitter } from 'node:events';
import type { Argument, Command, Help, Option } from 'commander';

export interface CommandSpec {
  name: string;
  aliases: string[];
  /** Names from the root's child down to this command; [] for the root. */
  path: string[];
  description: string;
  /** Usage line as `--help` shows it, with the full command path. */
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
    /** As declared, e.g. `-q, --quiet` or `--name <name>`. */
    flags: option.flags,
    short: option.short,
    long: option.long,
    /** The option is followed by a value (`<x>` or `[x]`). */
    takesValue: option.required || option.optional,
    description: option.description,
    /** The description as `--help` shows it (with default and choices). */
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

/** Every command of the tree, depth first, the root first. */
export function allCommands(root: CommandSpec): CommandSpec[] {
  return [root, ...root.subcommands.flatMap(allCommands)];
}
