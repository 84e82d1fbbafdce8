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
    })),
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
 * Completed by `cpk __complete KIND` (src/commands/completion/complete.ts): these commands' arguments
 * (ids and names, never files: where cpk knows none, the scripts offer nothing rather than file names)...
 */
export const DYNAMIC_ARGUMENTS: Readonly<Record<string, string>> = {
  'monitors get': 'monitor-ids',
  'monitors update': 'monitor-ids',
  'monitors delete': 'monitor-ids',
  'monitors wait': 'monitor-ids',
  'monitors watch': 'monitor-ids',
  'channels update': 'channel-ids',
  'reports get': 'report-ids',
  'profile use': 'profiles',
  'profile remove': 'profiles',
};

/** ...and the values of these options, wherever they are accepted. */
export const DYNAMIC_OPTIONS: Readonly<Record<string, string>> = {
  '--profile': 'profiles',
  '--type': 'types',
};
