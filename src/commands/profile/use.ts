import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { checkProfileName } from '../../config/schema.js';
import { action, describe, type Runtime } from '../../cli/action.js';

export function register(parent: Command, runtime: Runtime): void {
  const cmd = parent
    .command('use')
    .description('Make a profile the current one (used when neither --profile nor CPK_PROFILE names one)')
    .argument('<name>', 'profile name')
    .action(action(runtime, (ctx, args) => run(parseProfileArgs(args), ctx)));
  describe(cmd, {
    effect: 'write',
    completes: 'profiles',
    synonyms: ['switch'],
    examples: ['cpk profile use staging'],
  });
}

/** The profile NAME argument (of use and remove), checked. */
export function parseProfileArgs([name]: string[]): { name: string } {
  return { name: checkProfileName(name as string, 'the argument') };
}

export async function run(opts: { name: string }, ctx: Context): Promise<void> {
  const { useProfile } = await import('../../config/profiles.js');
  await useProfile(ctx.env, opts.name, (text) => ctx.out.warn(text));
  ctx.out.info(`Current profile: "${opts.name}".`);
  if (ctx.env.CPK_PROFILE?.trim() && ctx.env.CPK_PROFILE.trim() !== opts.name) {
    ctx.out.warn(
      `CPK_PROFILE=${ctx.env.CPK_PROFILE.trim()} is set in this environment and still wins over the current profile`,
    );
  }
  if (ctx.out.json) ctx.out.printJson({ current_profile: opts.name });
}
