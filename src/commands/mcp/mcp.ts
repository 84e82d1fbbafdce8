import type { Command } from 'commander';
import { UsageError } from '../../core/errors.js';
import { action, describe, type RawOptions, type Runtime } from '../../cli/action.js';

export function register(program: Command, runtime: Runtime): void {
  const cmd = program
    .command('mcp')
    .description('Serve cpk to AI agents: a Model Context Protocol server on stdio, read-only unless allowed')
    .option('--allow-write', 'offer the tools that change the service (create, update, delete, apply)')
    .option(
      '--allow-delete',
      'with --allow-write: allow deletions without asking, for clients that cannot ask the person (MCP elicitation)',
    )
    .option('--sandbox', 'serve against an emulator started in this process, with sample monitors, not the service')
    .action(
      action(runtime, async (ctx, _args, opts, self) => {
        const { serve } = await import('../../cli/mcp.js');
        if (!runtime.runCommandLine) throw new Error('cpk mcp runs commands through main(), which was not given');
        await serve(parseMcpOptions(opts), ctx, self.parent as Command, runtime.runCommandLine);
      }),
    );
  // It only serves: what each tool may change is gated inside, by the flags above.
  describe(cmd, {
    effect: 'read',
    // It speaks the protocol on stdout for as long as it runs, also when an agent's environment turns on agent mode.
    streams: true,
    examples: [
      'cpk mcp                          # read-only tools',
      'cpk mcp --allow-write            # writes too; deletes asked first',
      'cpk mcp --sandbox --allow-write  # a local emulator, no account',
    ],
  });
}

export function parseMcpOptions(raw: RawOptions) {
  if (raw.allowDelete === true && raw.allowWrite !== true)
    throw new UsageError('--allow-delete needs --allow-write: without it, nothing is changed, let alone deleted');
  return { allowWrite: raw.allowWrite === true, allowDelete: raw.allowDelete === true, sandbox: raw.sandbox === true };
}
