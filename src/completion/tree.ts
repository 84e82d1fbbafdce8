// commander's command tree as plain data, which the completion scripts and docs/commands.md are generated from.
// Read through commander's public Help API, so hidden commands and options stay hidden and the help option
// appears where commander adds it.
import type { EventEmitter } from 'node:events';
import type { Argument, Command, Help, Option } from 'commander';

/** What running a command changes: nothing; the service or this machine; or it deletes something. */
export type Effect = 'read' | 'write' | 'destroy';

/** Where `cpk __complete` finds the values of an argument or option (src/commands/completion/complete.ts). */
export const COMPLETION_SOURCES = ['monitor-ids', 'report-ids', 'channel-ids', 'profiles', 'types'] as const;
export type CompletionSource = (typeof COMPLETION_SOURCES)[number];

/**
 * What commander's tree cannot say about a command, declared beside its definition (src/cli/describe.ts):
 * completion scripts, suggestions, the closed-stdout rule and the agent surfaces read it from here.
 */
export interface Traits {
  /** A function answers for one invocation (`cpk api`'s method); the tree then shows the worst case, destroy. */
  effect: Effect | ((args: readonly string[]) => Effect);
  /** Where the values of its positional arguments come from. */
  completes?: CompletionSource;
  /** Where the values of its options come from, by long name (`--type`); they hold below it too. */
  optionCompletes?: Readonly<Record<string, CompletionSource>>;
  /** Words other tools use for it (`show` for get): suggested when typed, never run. */
  synonyms?: readonly string[];
  /**
   * It runs until it is stopped, printing as it goes (a watch, the emulator), with these options or always,
   * or its output is read by a program other than an agent (`__complete`, by the shell): agent mode passes
   * its output through instead of holding it for one document (docs/agents.md).
   */
  streams?: true | ((options: Readonly<Record<string, unknown>>) => boolean);
  /**
   * Offered to agents as a tool of `cpk mcp`, named after its path (`monitors_get`): a command whose result is
   * data an agent can act on, not one that sets up this machine, prompts, or runs until stopped.
   */
  tool?: boolean;
  /**
   * Running it again with the same arguments changes nothing more (an update sets the same fields again; a
   * delete finds nothing left to delete): MCP's idempotentHint. Reads are idempotent without saying so.
   */
  idempotent?: true;
}

// Kept with the Command objects themselves, so a command's traits live and die with its node of the tree.
const traitsByCommand = new WeakMap<Command, Traits>();

export function setTraits(cmd: Command, traits: Traits): void {
  traitsByCommand.set(cmd, traits);
}

/** A command's declared traits; a group (`cpk monitors`) or commander's own help command declares none. */
export function traitsOf(cmd: Command): Traits | undefined {
  return traitsByCommand.get(cmd);
}

/** What running `cmd` with `args` changes: read for anything that declares nothing (groups, help). */
export function effectOf(cmd: Command, args: readonly string[]): Effect {
  const effect = traitsOf(cmd)?.effect ?? 'read';
  return typeof effect === 'function' ? effect(args) : effect;
}

/** Whether `cmd` with these options runs until it is stopped (Traits.streams). */
export function streamsWith(cmd: Command, options: Readonly<Record<string, unknown>>): boolean {
  const streams = traitsOf(cmd)?.streams;
  return typeof streams === 'function' ? streams(options) : streams === true;
}

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
  /** Declared by the command (read for groups); a per-invocation effect shows as its worst case. */
  effect: Effect;
  completes: CompletionSource | undefined;
  synonyms: readonly string[];
  /** Runs until stopped whatever its options (Traits.streams): agent mode does not hold its output. */
  streams: boolean;
}

function optionSpec(option: Option, help: Help, completes: Traits['optionCompletes']) {
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
    /** Where its values come from, when `cpk __complete` knows them. */
    completes: option.long === undefined ? undefined : completes?.[option.long],
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
  const traits = traitsOf(cmd);
  const options = help.visibleOptions(cmd).map((o) => optionSpec(o, help, traits?.optionCompletes));
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
    effect: typeof traits?.effect === 'function' ? 'destroy' : (traits?.effect ?? 'read'),
    completes: traits?.completes,
    synonyms: traits?.synonyms ?? [],
    streams: streamsWith(cmd, {}),
  };
}

/** Depth first, the root first. */
export function allCommands(root: CommandSpec): CommandSpec[] {
  return [root, ...root.subcommands.flatMap(allCommands)];
}
