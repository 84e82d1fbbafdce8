import { Argument, type Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { SHELLS, type Shell } from '../../completion/shells.js';
import { action, examples, type Runtime } from '../../cli/action.js';

export interface CompletionOptions {
  shell: Shell;
  /** The root of the command tree to complete. */
  program: Command;
}

function root(cmd: Command): Command {
  let c = cmd;
  while (c.parent) c = c.parent;
  return c;
}

/** commander's values to CompletionOptions: the shell (commander checked it is one of SHELLS) and the tree's root. */
export function parseCompletionOptions([shell]: string[], cmd: Command): CompletionOptions {
  return { shell: shell as Shell, program: root(cmd) };
}

export function register(program: Command, runtime: Runtime): void {
  const cmd = program
    .command('completion')
    .description('Print the shell completion script for bash, zsh, fish or powershell')
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(SHELLS))
    .action(action(runtime, (ctx, args, _opts, cmd) => run(parseCompletionOptions(args, cmd), ctx)));
  examples(
    cmd,
    'source <(cpk completion bash)                                   # in ~/.bashrc',
    'cpk completion zsh > "${fpath[1]}/_cpk"                         # then restart zsh',
    'cpk completion fish > ~/.config/fish/completions/cpk.fish',
    'cpk completion powershell | Out-String | Invoke-Expression     # in $PROFILE',
  );
}

export async function run(opts: CompletionOptions, ctx: Context): Promise<void> {
  // The generators are loaded only here: they stay off every other command's start-up.
  const { completionScript } = await import('../../completion/index.js');
  ctx.out.printText(completionScript(opts.shell, opts.program));
}
