// Man pages generated from the command tree, as the GitHub CLI ships them:
// cpk(1) for the program and cpk-<noun>-<verb>(1) for each command, so that
// `man cpk-monitors-get` says what `cpk monitors get --help` says and cannot
// drift from it (the generated-files test compares them with the tree).
// Sections come in man-pages(7)'s order: NAME, SYNOPSIS, DESCRIPTION, OPTIONS
// (then the global options, and a group's commands), EXIT STATUS,
// ENVIRONMENT, FILES, EXAMPLES, SEE ALSO; `mandoc -T lint` and groff check them.
import type { Command } from 'commander';
import { allCommands, describeCommand, type CommandSpec, type OptionSpec } from '../completion/tree.js';
import { EXIT_STATUS } from '../cli/program.js';
import { ENVIRONMENT } from '../cli/environment.js';
import { wrapText } from '../output/text.js';
import { version } from '../core/version.js';

/** Text safe in roff: backslashes doubled, hyphens literal, no line starting with a control character. */
function roff(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .split('\n')
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join('\n');
}

/** Filled text in source lines that mandoc's lint finds short enough (80 bytes, escapes included). */
function fill(text: string): string {
  return roff(
    text
      .split('\n')
      .flatMap((line) => wrapText(line, 64))
      .join('\n'),
  );
}

function pageName(cmd: CommandSpec): string {
  return ['cpk', ...cmd.path].join('-');
}

function optionItems(options: OptionSpec[]): string[] {
  return options.flatMap((o) => ['.TP', `\\fB${roff(o.flags)}\\fR`, fill(o.helpDescription)]);
}

/** What commander prints after a command's help, by kind: its examples, and any other paragraph. */
function afterHelp(text: string): { examples: string[]; notes: string[] } {
  const examples: string[] = [];
  const notes: string[] = [];
  for (const block of text.split(/\n\s*\n/)) {
    const [first = '', ...rest] = block.split('\n');
    if (first === 'Examples:') examples.push(...rest.map((line) => line.replace(/^ {2}/, '')));
    // The exit codes have a section of their own.
    else if (!first.startsWith('Exit codes:') && block.trim()) notes.push(block.replace(/\n/g, ' ').trim());
  }
  return { examples, notes };
}

const ROOT_DESCRIPTION = [
  'cpk manages the monitors, channels and reports of the cpk monitoring service, and makes the service match',
  'a manifest of monitors kept in version control (cpk plan, cpk apply). Each command has a page of its own,',
  'listed under COMMANDS; `cpk help COMMAND` prints the same as `man cpk-COMMAND`.',
].join(' ');

const FILES = [
  [
    '$CPK_CONFIG_DIR/config.json',
    "Profiles: base URL and token storage for each (~/.config/cpk/config.json on Linux, the platform's config directory elsewhere).",
  ],
  ['cpk.yaml', 'The manifest cpk plan and cpk apply read, unless -f names another file or a directory.'],
  ['cpk.state.json', 'The state file beside the manifest: which monitor each manifest key manages.'],
] as const;

function page(cmd: CommandSpec, date: string): string {
  const name = pageName(cmd);
  const root = cmd.path.length === 0;
  const [summary = '', ...more] = cmd.description.split('\n');
  const { examples, notes } = afterHelp(cmd.helpAfter);
  const lines = [
    `.TH "${name.toUpperCase()}" "1" "${date}" "cpk ${version}" "cpk manual"`,
    // Left-aligned: justified option text spreads single words across the line.
    '.ad l',
    '.SH NAME',
    fill(`${name} - ${summary}`),
    '.SH SYNOPSIS',
    `\\fB${roff(cmd.usage)}\\fR`,
  ];
  // NAME already says the first line: DESCRIPTION says what more there is.
  const description = root ? [ROOT_DESCRIPTION] : [...more.filter((l) => l.trim()), ...notes];
  if (description.length > 0 || cmd.arguments.length > 0) {
    lines.push('.SH DESCRIPTION');
    description.forEach((paragraph, i) => lines.push(...(i > 0 ? ['.PP'] : []), fill(paragraph)));
    if (cmd.arguments.length > 0) {
      if (description.length > 0) lines.push('.PP');
      lines.push('Arguments:');
      for (const a of cmd.arguments) lines.push('.TP', `\\fI${roff(a.term)}\\fR`, fill(a.description));
    }
  }
  const own = cmd.options.filter((o) => o.long !== '--help');
  if (own.length > 0) lines.push(root ? '.SH GLOBAL OPTIONS' : '.SH OPTIONS', ...optionItems(own));
  // --version is the program's alone.
  const globals = cmd.inherited.filter((o) => o.long !== '--version');
  if (!root && globals.length > 0) lines.push('.SH GLOBAL OPTIONS', ...optionItems(globals));
  if (cmd.subcommands.length) {
    lines.push('.SH COMMANDS');
    for (const sub of cmd.subcommands) lines.push('.TP', `\\fB${roff(pageName(sub))}\\fR(1)`, fill(sub.description));
  }
  lines.push('.SH EXIT STATUS');
  for (const [code, meaning] of EXIT_STATUS) lines.push('.TP', `\\fB${code}\\fR`, fill(meaning));
  if (root) {
    lines.push('.SH ENVIRONMENT');
    for (const v of ENVIRONMENT) lines.push('.TP', `\\fB${roff(v.name)}\\fR`, fill(v.description));
    lines.push('.SH FILES');
    for (const [file, what] of FILES) lines.push('.TP', `\\fI${roff(file)}\\fR`, fill(what));
  }
  if (examples.length > 0) lines.push('.SH EXAMPLES', '.nf', roff(examples.join('\n')), '.fi');
  const parents = cmd.path.slice(0, -1).map((_, i) => ['cpk', ...cmd.path.slice(0, i + 1)].join('-'));
  if (!root) lines.push('.SH SEE ALSO', ['cpk', ...parents].map((p) => `\\fB${roff(p)}\\fR(1)`).join(', '));
  return `${lines.join('\n')}\n`;
}

/** The date of this version's release in the CHANGELOG (`## [1.0.0] - 2026-11-21`): man pages carry it. */
export function releaseDate(changelog: string): string {
  const heading = changelog.split('\n').find((line) => line.startsWith(`## [${version}] - `));
  return heading?.slice(`## [${version}] - `.length).trim() ?? '';
}

/** Repository-relative path -> roff source, one page per command and one for cpk itself. */
export function manPages(program: Command, date: string): Record<string, string> {
  const root = describeCommand(program);
  const pages: Record<string, string> = {};
  // A group's `help` subcommand is commander's own and says nothing a page would.
  for (const cmd of allCommands(root))
    if (cmd.path.length < 2 || cmd.name !== 'help') pages[`man/man1/${pageName(cmd)}.1`] = page(cmd, date);
  return pages;
}
