// The command tree. Every module imported here is on the start-up path of
// every command, `--help` included: keep them light (commander and our own
// definitions only; the work is loaded from the actions).
import { Command } from 'commander';
import type { Runtime } from './commands/action.js';
import { register as monitors } from './commands/monitors/index.js';
import { register as channels } from './commands/channels/index.js';
import { register as reports } from './commands/reports/index.js';
import { register as openapi } from './commands/openapi.js';
import { register as emulator } from './commands/emulator.js';
import { register as completion } from './commands/completion.js';
import { register as doctor } from './commands/doctor.js';
import { register as api } from './commands/api.js';
import { register as plan } from './commands/plan.js';
import { register as apply } from './commands/apply.js';
import { register as importMonitors } from './commands/import.js';
import { register as validate } from './commands/validate.js';
import { register as auth } from './commands/auth/index.js';
import { register as profile } from './commands/profile/index.js';
import { register as complete } from './commands/complete.js';
import { DEFAULT_TIMEOUT_SECONDS } from './context.js';
import { UsageError } from './errors.js';
import { version } from './version.js';

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
    .option('-o, --output <format>', 'print results as table, wide, json, jsonl, yaml or markdown (default table)')
    .option('--json', 'print results as JSON, the same as -o json (errors as one JSON object on stderr)')
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
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .configureOutput({
      writeOut: (text) => runtime.io.stdout.write(text),
      writeErr: (text) => runtime.io.stderr.write(text),
      // Asked of cpk's IO, which tests fake. No terminal: undefined, which commander reads as 80 (as its own default does).
      getOutHelpWidth: () => runtime.io.stdoutColumns as number,
      getOutHasColors: () => runtime.io.stdoutIsTTY,
      // Errors are printed by main, in cpk's one-line format.
      outputError: () => {},
    })
    .addHelpText(
      'after',
      `
Examples:
  $ cpk emulator                                  # a local service to try things against
  $ cpk auth login                                # store a token (asks for it, hidden); or set CPK_TOKEN
  $ export CPK_TOKEN=cpk_dev_emulator_token
  $ cpk monitors create --name "Checkout API" --target https://shop.example.com/health --interval 1m
  $ cpk monitors get mon_123 --json

Exit codes: 0 ok, 1 failure, 2 usage, 3 network, 4 auth, 5 forbidden, 6 not found, 7 rejected as invalid,
10 (plan only) changes to apply.
`,
    );
  // The top-level help groups commands by what they are for.
  program.commandsGroup('Everyday:');
  monitors(program, runtime);
  channels(program, runtime);
  reports(program, runtime);
  openapi(program, runtime);
  api(program, runtime);
  program.commandsGroup('Monitors as code:');
  plan(program, runtime);
  apply(program, runtime);
  importMonitors(program, runtime);
  validate(program, runtime);
  program.commandsGroup('Setup:');
  auth(program, runtime);
  profile(program, runtime);
  emulator(program, runtime);
  doctor(program, runtime);
  completion(program, runtime);
  helpCommand(program);
  complete(program, runtime);
  return program;
}

/** `cpk help [command...]`: the same as `cpk command... --help`. */
function helpCommand(program: Command): void {
  program
    .command('help')
    .description('Show help for a command, e.g. `cpk help monitors get` (the same as --help)')
    .argument('[command...]', 'the command, and its subcommand')
    .action((names: string[]) => {
      let target = program;
      const path: string[] = [];
      for (const name of names) {
        const next = target.commands.find((c) => c.name() === name || c.aliases().includes(name));
        path.push(name);
        if (!next) {
          const near = closest(
            name,
            target.commands.flatMap((c) => [c.name(), ...c.aliases()]),
          );
          throw new UsageError(
            `unknown command '${path.join(' ')}'${near ? ` (did you mean ${[...path.slice(0, -1), near].join(' ')}?)` : ''}`,
          );
        }
        target = next;
      }
      target.outputHelp();
    });
}

/** The candidate nearest to `word` by edit distance, if it is near enough to be a typo. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(word.length / 3)) ? best : undefined;
}

/** Edit distance counting a swap of two neighbours as one edit (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => d[i]?.[j] ?? 0;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}
