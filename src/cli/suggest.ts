// "Did you mean": one format for every suggestion cpk makes (`; did you mean
// "X"?`, as the manifest checks write it), for a mistyped or borrowed command
// and for a mistyped option.
import type { Command } from 'commander';
import { closest } from '../core/closest.js';
import { traitsOf } from '../completion/tree.js';

export function didYouMean(suggestion: string | undefined): string {
  return suggestion ? `; did you mean "${suggestion}"?` : '';
}

/**
 * The full command line (`cpk monitors get`) the user probably meant by `word` under `parent`, if any: first a
 * command below it that `word` names exactly or is a synonym of (`cpk show` and `cpk monitors show` mean
 * `monitors get`, `cpk login` means `auth login`, as gh and docker have them), nearest and earliest in help order
 * first; else the subcommand of `parent` whose name or alias is closest to it.
 */
export function suggestCommand(parent: Command, word: string): string | undefined {
  const lower = word.toLowerCase();
  const names = (c: Command) => [c.name(), ...c.aliases(), ...(traitsOf(c)?.synonyms ?? [])];
  const visible = (c: Command) => c.createHelp().visibleCommands(c);
  // Breadth first, so that a subcommand of `parent` wins over a deeper one.
  let level: Array<{ command: Command; path: string[] }> = [{ command: parent, path: [] }];
  while (level.length > 0) {
    const next = level.flatMap(({ command, path }) =>
      visible(command).map((child) => ({ command: child, path: [...path, child.name()] })),
    );
    const exact = next.find(({ command }) => names(command).includes(lower));
    if (exact) return [...pathOf(parent), ...exact.path].join(' ');
    level = next;
  }
  const near = closest(
    word,
    visible(parent).flatMap((c) => [c.name(), ...c.aliases()]),
  );
  return near ? [...pathOf(parent), near].join(' ') : undefined;
}

function pathOf(command: Command): string[] {
  const path: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) path.unshift(c.name());
  return path;
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
  // `list --status down`: the service's list parameters go through --param, which a flag-like guess misses.
  const flag = /^unknown option '--([^'=]+)(?:=([^']*))?'/.exec(text);
  if (code === 'commander.unknownOption' && program && flag && suggestion === undefined) {
    const { command } = commandAt(program, argv);
    if (command.options.some((o) => o.long === '--param')) {
      const at = argv.indexOf(`--${flag[1]}`);
      const next = at >= 0 ? argv[at + 1] : undefined;
      const value = flag[2] ?? (next !== undefined && !next.startsWith('-') ? next : 'VALUE');
      suggestion = `--param ${flag[1]}=${value}`;
    }
  }
  return suggestion ? `${text}${didYouMean(suggestion)}` : `${text} (see --help)`;
}
