// What a completion script needs to know at each command path, flattened
// from the command tree. The four shell generators render the same table.
import { isPlainCandidate } from './candidate.js';
import { allCommands, type CommandSpec } from './tree.js';

/** One line, no control characters (C0 or C1): descriptions end up inside shell strings and on terminals. */
export function oneLine(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/**
 * Every word a script offers is a plain word (src/completion/candidate.ts), as the dynamic ones are, so no
 * script quotes one (fish expands its \`complete -a\` list); any other is left out (it can still be typed).
 */
export function completionTable(root: CommandSpec) {
  return allCommands(root).map((cmd) => ({
    /** '' for the root. */
    key: cmd.path.join(' '),
    /** Names and aliases, and the name each stands for. */
    subcommands: cmd.subcommands.flatMap((sub) =>
      [sub.name, ...sub.aliases]
        .filter(isPlainCandidate)
        .map((word) => ({ word, name: sub.name, description: oneLine(sub.description) })),
    ),
    // Everything that can be typed at a command: its own options and the inherited ones.
    options: [...cmd.options, ...cmd.inherited].map((o) => ({
      /** Long name first, then short (fish reads names[0] as the long one). */
      names: [o.long, o.short].filter((n): n is string => n !== undefined),
      description: oneLine(o.description),
      takesValue: o.takesValue,
      choices: o.choices.filter(isPlainCandidate),
      completes: o.completes,
    })),
    /** Where `cpk __complete` finds its arguments' values (ids and names, never files). */
    completes: cmd.completes,
    /** Allowed values of the positional arguments, where fixed. */
    argumentChoices: [...new Set(cmd.arguments.flatMap((a) => a.choices))].filter(isPlainCandidate),
  }));
}

export type PathEntry = ReturnType<typeof completionTable>[number];

export function valueOptionWords(entry: PathEntry): string[] {
  return entry.options.filter((o) => o.takesValue).flatMap((o) => o.names);
}

export function optionChoices(entry: PathEntry): Array<{ option: string; choices: string[] }> {
  return entry.options
    .filter((o) => o.takesValue && o.choices.length > 0)
    .flatMap((o) => o.names.map((option) => ({ option, choices: o.choices })));
}

export const GENERATED_NOTE =
  'Generated from the command tree by `cpk completion`; `npm run gen` rewrites completions/. Do not edit.';

/**
 * The command paths whose arguments `cpk __complete KIND` completes, as each command declares it: ids and names,
 * never files (where cpk knows none, the scripts offer nothing rather than file names).
 */
export function dynamicArguments(table: readonly PathEntry[]): Array<[key: string, kind: string]> {
  return table.flatMap((entry) => (entry.completes ? [[entry.key, entry.completes] as [string, string]] : []));
}

/** The options whose values `cpk __complete KIND` completes, wherever they are accepted (long names, once each). */
export function dynamicOptions(table: readonly PathEntry[]): Array<[option: string, kind: string]> {
  const found = new Map<string, string>();
  for (const entry of table)
    for (const option of entry.options)
      if (option.completes && option.names[0]) found.set(option.names[0], option.completes);
  return [...found];
}
