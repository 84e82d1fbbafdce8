// Man pages generated from the command tree, as the GitHub CLI ships them:
// cpk(1) for the program and cpk-<noun>-<verb>(1) for each command, so that
// `man cpk-monitors-get` says what `cpk monitors get --help` says and cannot
// drift from it (the generated-files test compares them with the tree).
import type { Command } from 'commander';
import { allCommands, describeCommand, type CommandSpec, type OptionSpec } from '../completion/tree.js';

/** Text safe in roff: backslashes doubled, hyphens literal, no line starting with a control character. */
function roff(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .split('\n')
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join('\n');
}

function pageName(cmd: CommandSpec): string {
  return ['cpk', ...cmd.path].join('-');
}

function optionItems(options: OptionSpec[]): string[] {
  return options.flatMap((o) => ['.TP', `\\fB${roff(o.flags)}\\fR`, roff(o.helpDescription)]);
}

function page(cmd: CommandSpec): string {
  const name = pageName(cmd);
  const lines = [
    `.TH "${name.toUpperCase()}" "1" "" "cpk" "cpk manual"`,
    // Left-aligned: justified option text spreads single words across the line.
    '.ad l',
    '.SH NAME',
    `${roff(name)} \\- ${roff(cmd.description.split('\n')[0] ?? '')}`,
    '.SH SYNOPSIS',
    roff(cmd.usage),
  ];
  if (cmd.description) lines.push('.SH DESCRIPTION', roff(cmd.description));
  if (cmd.arguments.length) {
    lines.push('.SH ARGUMENTS');
    for (const a of cmd.arguments) lines.push('.TP', `\\fI${roff(a.term)}\\fR`, roff(a.description));
  }
  const own = cmd.options.filter((o) => o.long !== '--help');
  if (cmd.path.length > 0 && own.length) lines.push('.SH OPTIONS', ...optionItems(own));
  if (cmd.path.length === 0) lines.push('.SH GLOBAL OPTIONS', ...optionItems(own));
  if (cmd.subcommands.length) {
    lines.push('.SH COMMANDS');
    for (const sub of cmd.subcommands) lines.push('.TP', `\\fB${roff(pageName(sub))}\\fR(1)`, roff(sub.description));
  }
  if (cmd.helpAfter) lines.push('.SH EXAMPLES', '.nf', roff(cmd.helpAfter), '.fi');
  if (cmd.path.length > 0) {
    const parents = cmd.path.slice(0, -1).map((_, i) => ['cpk', ...cmd.path.slice(0, i + 1)].join('-'));
    lines.push('.SH SEE ALSO', ['cpk', ...parents].map((p) => `\\fB${roff(p)}\\fR(1)`).join(', '));
  }
  return `${lines.join('\n')}\n`;
}

/** Repository-relative path -> roff source, one page per command and one for cpk itself. */
export function manPages(program: Command): Record<string, string> {
  const root = describeCommand(program);
  const pages: Record<string, string> = {};
  // A group's `help` subcommand is commander's own and says nothing a page would.
  for (const cmd of allCommands(root))
    if (cmd.path.length < 2 || cmd.name !== 'help') pages[`man/man1/${pageName(cmd)}.1`] = page(cmd);
  return pages;
}
