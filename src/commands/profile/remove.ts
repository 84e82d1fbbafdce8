import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { parseProfileArgs } from './use.js';
import { action, describe, type Runtime } from '../../cli/action.js';

export function register(parent: Command, runtime: Runtime): void {
  const cmd = parent
    .command('remove')
    .description('Remove a profile and its token')
    .argument('<name>', 'profile name')
    .action(action(runtime, (ctx, args) => run(parseProfileArgs(args), ctx)));
  describe(cmd, {
    effect: 'destroy',
    completes: 'profiles',
    synonyms: ['rm'],
    examples: ['cpk profile remove staging'],
  });
}

export async function run(opts: { name: string }, ctx: Context): Promise<void> {
  const { removeProfile } = await import('../../config/profiles.js');
  const result = await removeProfile(ctx.env, opts.name, {
    secrets: () => ctx.secrets(),
    warn: (text) => ctx.out.warn(text),
  });
  ctx.out.info(`Removed profile "${opts.name}"${result.removed ? ' and its token' : ''}.`);
  if (result.wasCurrent)
    ctx.out.info('There is no current profile now: pick one with `cpk profile use NAME`, or log in again.');
  if (ctx.out.json)
    ctx.out.printJson({
      removed: opts.name,
      token_removed: result.removed !== undefined,
      was_current: result.wasCurrent,
    });
}
