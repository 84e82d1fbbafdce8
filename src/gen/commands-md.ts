// docs/commands.md: the reference of every command and flag, generated from
// the command tree, so it cannot drift from what `--help` says.
import type { Command } from 'commander';
import { allCommands, describeCommand, type CommandSpec, type OptionSpec } from '../completion/tree.js';

/** Text for a GFM table cell: one line, pipes escaped (even inside code spans). */
function cell(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');
}

function code(text: string): string {
  return `\`${text}\``;
}

function title(cmd: CommandSpec): string {
  return ['cpk', ...cmd.path].join(' ');
}

/** GitHub's heading anchor for a plain-text heading. */
function anchor(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
}

const isHelp = (o: OptionSpec) => o.long === '--help';

/** A two-column table; each row's first cell comes formatted (code, or a link to a command's section). */
function table<T>(head: string, items: T[], row: (item: T) => [string, string]): string[] {
  return [`| ${head} | description |`, '|---|---|', ...items.map((item) => `| ${row(item).map(cell).join(' | ')} |`)];
}

const optionTable = (options: OptionSpec[]) => table('option', options, (o) => [code(o.flags), o.helpDescription]);
const commandTable = (commands: CommandSpec[]) =>
  table('command', commands, (c) => [`[${code(title(c))}](#${anchor(title(c))})`, c.description]);

function section(cmd: CommandSpec): string[] {
  const lines = [`## ${title(cmd)}`, ''];
  if (cmd.description) lines.push(cmd.description, '');
  lines.push('```text', `Usage: ${cmd.usage}`, '```', '');
  if (cmd.arguments.length) lines.push(...table('argument', cmd.arguments, (a) => [code(a.term), a.description]), '');
  const options = cmd.options.filter((o) => !isHelp(o));
  if (cmd.path.length > 0 && options.length) lines.push(...optionTable(options), '');
  if (cmd.subcommands.length) lines.push(...commandTable(cmd.subcommands), '');
  if (cmd.helpAfter) lines.push('```text', cmd.helpAfter, '```', '');
  return lines;
}

export function commandsMarkdown(program: Command): string {
  const root = describeCommand(program);
  const commands = allCommands(root).slice(1);
  const lines = [
    '# cpk command reference',
    '',
    '<!-- Generated from the command tree by `npm run gen` (src/gen/commands-md.ts). Do not edit by hand: a test fails when this file and the commands differ. -->',
    '',
    `Every command takes \`-h, --help\` and the [global options](#global-options), before or after the command name.`,
    '',
    ...commandTable(commands),
    '',
    ...section(root),
    '## Global options',
    '',
    ...optionTable(root.options.filter((o) => !isHelp(o))),
    '',
    ...commands.flatMap(section),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}
