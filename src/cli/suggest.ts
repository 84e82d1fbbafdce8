// "Did you mean": one format for every suggestion cpk makes (`; did you mean
// "X"?`, as the manifest checks write it), for a mistyped or borrowed command
// and for a mistyped option.
import type { Command } from 'commander';
import { closest } from '../core/closest.js';

/**
 * Words other tools use for a cpk command, by the command they were typed under (`cpk login`, as gh and
 * docker have it): only suggested. Aliases cover the words that are cpk commands too (`ls`, `rm`).
 */
const SYNONYMS: Record<string, Record<string, string>> = {
  cpk: { login: 'auth login', logout: 'auth logout', whoami: 'auth status', status: 'auth status' },
  monitors: { show: 'get', remove: 'delete', edit: 'update', new: 'create', add: 'create' },
  reports: { show: 'get' },
  channels: { edit: 'update' },
  profile: { ls: 'list', rm: 'remove', switch: 'use' },
};

export function didYouMean(suggestion: string | undefined): string {
  return suggestion ? `; did you mean "${suggestion}"?` : '';
}

/** The full command line (`cpk monitors get`) the user probably meant by `word` under `parent`, if any. */
export function suggestCommand(parent: Command, word: string): string | undefined {
  const path: string[] = [];
  for (let c: Command | null = parent; c; c = c.parent) path.unshift(c.name());
  const synonym = SYNONYMS[parent.name()]?.[word.toLowerCase()];
  const visible = parent.createHelp().visibleCommands(parent);
  const near =
    synonym ??
    closest(
      word,
      visible.flatMap((c) => [c.name(), ...c.aliases()]),
    );
  return near ? [...path, near].join(' ') : undefined;
}

/** The command `words` name as far as they match the tree (options skipped), and the index of the unknown one. */
export function commandAt(program: Command, words: readonly string[]): { command: Command; unknown?: number } {
  let command = program;
  for (const [i, word] of words.entries()) {
    if (word.startsWith('-')) continue;
    const next = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) return { command, unknown: i };
    command = next;
  }
  return { command };
}

/** Commander's message with its suggestion in cpk's format (commander writes `\n(Did you mean X?)`), else --help. */
export function usageMessage(
  message: string,
  code: string,
  program: Command | undefined,
  argv: readonly string[],
): string {
  let text = message.replace(/^error: /, '');
  const match = /\s*\(Did you mean (?:one of )?(.+?)\?\)\s*$/.exec(text);
  let suggestion = match?.[1]?.split(', ')[0];
  if (match) text = text.slice(0, match.index);
  if (code === 'commander.unknownCommand' && program) {
    const at = commandAt(program, argv);
    if (at.unknown !== undefined) suggestion = suggestCommand(at.command, argv[at.unknown]!);
  }
  return suggestion ? `${text}${didYouMean(suggestion)}` : `${text} (see --help)`;
}
