import { Argument, type Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { SHELLS, type Shell } from '../../completion/shells.js';
import { action, describe, type Runtime } from '../../cli/action.js';

export function register(program: Command, runtime: Runtime): void {
  const cmd = program
    .command('completion')
    .description('Print the shell completion script for bash, zsh, fish or powershell')
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(SHELLS))
    // commander checked that the shell is one of SHELLS.
    .action(action(runtime, (ctx, [shell]) => run({ shell: shell as Shell, program }, ctx)));
  describe(cmd, {
    effect: 'read',
    examples: [
      'source <(cpk completion bash)                           # in ~/.bashrc',
      'cpk completion zsh > "${fpath[1]}/_cpk"                 # then restart zsh',
      'cpk completion fish > ~/.config/fish/completions/cpk.fish',
      'cpk completion powershell | Out-String | Invoke-Expression  # in $PROFILE',
    ],
  });
}

/** Prints the script that completes `program`'s tree in `shell`. */
export async function run(opts: { shell: Shell; program: Command }, ctx: Context): Promise<void> {
  // The generators are loaded only here: they stay off every other command's start-up.
  const { completionScript } = await import('../../completion/index.js');
  ctx.out.printText(completionScript(opts.shell, opts.program));
}
