// The command tree. Every module imported here is on the start-up path of
// every command, `--help` included: keep them light (commander and our own
// definitions only; the work is loaded from the actions).
import { commandAt, didYouMean, suggestCommand } from './suggest.js';
import { Command, Help, Option } from 'commander';
import { wrapText } from '../output/text.js';
import { FORMATS } from '../output/format.js';
import { describe, type Runtime } from './action.js';
import { register as monitors } from '../commands/monitors/index.js';
import { register as channels } from '../commands/channels/index.js';
import { register as reports } from '../commands/reports/index.js';
import { register as openapi } from '../commands/openapi/openapi.js';
import { register as emulator } from '../commands/emulator/emulator.js';
import { register as completion } from '../commands/completion/completion.js';
import { register as doctor } from '../commands/doctor/doctor.js';
import { register as mcp } from '../commands/mcp/mcp.js';
import { register as api } from '../commands/api/api.js';
import { register as plan } from '../commands/manifest/plan.js';
import { register as apply } from '../commands/manifest/apply.js';
import { register as importMonitors } from '../commands/manifest/import.js';
import { register as validate } from '../commands/manifest/validate.js';
import { register as auth } from '../commands/auth/index.js';
import { register as profile } from '../commands/profile/index.js';
import { register as complete } from '../commands/completion/complete.js';
import { DEFAULT_TIMEOUT_SECONDS } from '../core/http/retry.js';
import { UsageError } from '../core/errors.js';
import { version } from '../core/version.js';
import { knownColumns, type IO } from '../core/io.js';
import { ENVIRONMENT } from './environment.js';

/** Every exit code and what it means (docs/scripting.md, "Exit codes", has the table; cpk(1) its EXIT STATUS). */
export const EXIT_STATUS: ReadonlyArray<readonly [number, string]> = [
  [0, 'ok'],
  [1, 'failure'],
  [2, 'usage, or a cancel (a declined confirmation, Esc)'],
  [3, 'network'],
  [4, 'auth'],
  [5, 'forbidden'],
  [6, 'not found'],
  [7, 'rejected as invalid'],
  [8, '(monitors wait) timed out'],
  [9, '(--assert) an assertion did not hold'],
  [10, '(plan) changes to apply'],
  [74, 'output could not be written'],
  [75, 'state locked by another run'],
  [130, 'interrupted'],
  [141, 'the reader of the output went away'],
];

/** Every exit code, in one line, for the end of `cpk --help`. */
export const EXIT_CODES = `Exit codes: ${EXIT_STATUS.map(([code, meaning]) => `${code} ${meaning}`).join(', ')}.`;

/**
 * The width help wraps to, as gh wraps it: a terminal's width (80 when it says none); off a terminal
 * (`cpk --help | less`, a file) COLUMNS when it is set, else none: a pager or an editor wraps for its reader.
 */
export function helpWidth(io: Pick<IO, 'stdoutIsTTY' | 'stdoutColumns' | 'env'>): number {
  if (io.stdoutIsTTY) return knownColumns(io.stdoutColumns) ?? 80;
  return knownColumns(Number(io.env.COLUMNS)) ?? Number.MAX_SAFE_INTEGER;
}

/** Commander's help with commands before options: a group shows what it holds without scrolling past the globals. */
export function commandsFirst(text: string): string {
  const sections = text.split(/\n(?=\S[^\n]*:\n)/);
  const isOptions = (section: string) => /^(?:Global )?Options:\n/.test(section);
  const ordered = [...sections.filter((s) => !isOptions(s)), ...sections.filter(isOptions)];
  return ordered.map((s) => s.replace(/\n*$/, '\n')).join('\n');
}

export function buildProgram(runtime: Runtime): Command {
  const program = new Command('cpk');
  program
    .description('Command-line client for the cpk monitoring service')
    .version(version, '--version', 'print the version')
    .option(
      '--base-url <url>',
      'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)',
    )
    .option(
      '--profile <name>',
      'use this stored profile (env CPK_PROFILE; default: the current profile, see `cpk profile list`)',
    )
    .addOption(
      // The choices are declared so help and completion list them; the value is
      // checked by parseFormat (which also takes md and yml, in any case), not by commander.
      new Option('-o, --output <format>', 'how results are printed (default table)')
        .choices(FORMATS)
        .argParser((value: string) => value),
    )
    .option('--json', 'print results as JSON, the same as -o json (errors as one JSON object on stderr)')
    .option(
      '--agent',
      'for coding agents: one JSON document on stdout, no prompts; a confirmation becomes a preview and exit 2 (env CPK_AGENT=1; on when an agent is detected, see docs/agents.md)',
    )
    .option('--columns <paths>', 'columns of a list, as dotted field paths: id,name,last_check.status')
    .option('--query <expr>', 'JMESPath expression applied to the JSON result; implies --json; a string prints raw')
    .option('--timeout <seconds>', `time limit for each request attempt (default ${DEFAULT_TIMEOUT_SECONDS})`)
    .option(
      '--max-time <seconds>',
      "time limit for all of the command's requests, retries and waits included (env CPK_MAX_TIME; default none)",
    )
    .option(
      '--retries <n>',
      'retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)',
    )
    .option('--debug', 'trace requests and responses on stderr (the token is redacted)')
    .option('--no-color', 'no color (also NO_COLOR=1 or CI=true)')
    .helpOption('-h, --help', 'show help')
    .helpCommand(false)
    .exitOverride()
    .configureHelp({
      showGlobalOptions: true,
      // Commander stops wrapping below 40 columns for descriptions, and a 60-column terminal then breaks words.
      minWidthToWrap: 20,
      sortSubcommands: false,
      // What a command can do first, then its options, as gh prints it.
      formatHelp: (cmd, helper) => commandsFirst(Help.prototype.formatHelp.call(helper, cmd, helper)),
    })
    .configureOutput({
      writeOut: (text) => runtime.io.stdout.write(text),
      // Only help shown for a group run alone comes here; in agent mode it is that command's one document.
      writeErr: (text) => (runtime.held ? runtime.io.stdout : runtime.io.stderr).write(text),
      // Asked of cpk's IO, which tests fake.
      getOutHelpWidth: () => helpWidth(runtime.io),
      getOutHasColors: () => runtime.io.stdoutIsTTY,
      // Errors are printed by main, in cpk's one-line format.
      outputError: () => {},
    })
    .addHelpText(
      'after',
      `
Examples:
  $ cpk emulator                     # a local service to try things against
  $ export CPK_TOKEN=cpk_dev_emulator_token    # or: cpk auth login
  $ cpk monitors create --name "Checkout API" --interval 1m \\
      --target https://shop.example.com/health
  $ cpk monitors get mon_123 --json
`,
    )
    .addHelpText('after', () => `\n${wrapText(EXIT_CODES, helpWidth(runtime.io) - 1).join('\n')}\n`);
  // The top-level help groups commands by what they are for.
  const groups = {
    'Everyday:': [monitors, channels, reports, openapi, api],
    'Monitors as code:': [plan, apply, importMonitors, validate],
    'Setup:': [auth, profile, emulator, doctor, completion, mcp],
  };
  for (const [title, registers] of Object.entries(groups)) {
    program.commandsGroup(title);
    for (const register of registers) register(program, runtime);
  }
  helpCommand(program, runtime);
  // A group's own `help` entry, capitalised as every other entry is (commander's reads "display help for command").
  for (const group of program.commands)
    if (
      group
        .createHelp()
        .visibleCommands(group)
        .some((sub) => sub.name() === 'help')
    )
      group.helpCommand('help [command]', 'Display help for command');
  // `gh version` and `kubectl version` exist: the same line as --version,
  // kept out of the help, where --version is the one documented.
  const versionCommand = program
    .command('version', { hidden: true })
    .description('print the version (the same as --version)')
    .action(() => {
      runtime.io.stdout.write(`${version}\n`);
    });
  describe(versionCommand, { effect: 'read' });
  // The global --profile completes from the stored profiles, wherever it is typed.
  describe(program, { effect: 'read', optionCompletes: { '--profile': 'profiles' } });
  complete(program, runtime);
  return program;
}

/** `cpk help [command...]`: the same as `cpk command... --help`. */
function helpCommand(program: Command, runtime: Runtime): void {
  const help = program
    .command('help')
    .description('Show help for a command, e.g. `cpk help monitors get` (the same as --help), or a topic: environment')
    .argument('[command...]', 'the command, and its subcommand; or environment: every variable cpk reads')
    .action((names: string[]) => {
      // A topic, as gh has: `cpk help environment` lists every variable cpk reads.
      if (names.length === 1 && names[0] === 'environment') {
        const width = Math.max(...ENVIRONMENT.map((v) => v.name.length)) + 2;
        const wrap = helpWidth(runtime.io) - width - 2;
        const lines = ENVIRONMENT.flatMap((v) =>
          wrapText(v.description, wrap).map((line, i) => `  ${(i === 0 ? v.name : '').padEnd(width)}${line}`),
        );
        runtime.io.stdout.write(`Environment variables cpk reads (flags win over them):\n\n${lines.join('\n')}\n`);
        return;
      }
      const { command: target, unknown } = commandAt(program, names);
      if (unknown !== undefined) {
        const path = names.slice(0, unknown + 1).join(' ');
        throw new UsageError(`unknown command '${path}'${didYouMean(suggestCommand(target, names[unknown]!))}`);
      }
      target.outputHelp();
    });
  describe(help, { effect: 'read' });
}
