import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../core/errors.js';
import { selectProfile } from '../../config/resolve.js';
import { action, describe, type Runtime } from '../../cli/action.js';

export function register(parent: Command, runtime: Runtime): void {
  const cmd = parent
    .command('logout')
    .description("Remove a profile's token (from the keychain or the config file); the profile and its base URL stay")
    .action(action(runtime, (ctx) => run(ctx)));
  describe(cmd, { effect: 'write', examples: ['cpk auth logout', 'cpk auth logout --profile staging'] });
}

export async function run(ctx: Context): Promise<void> {
  const [{ loadConfig }, { logout }] = await Promise.all([
    import('../../config/file.js'),
    import('../../config/profiles.js'),
  ]);
  const warn = (text: string) => ctx.out.warn(text);
  const choice = selectProfile(ctx.globals.profile, ctx.env, loadConfig(ctx.env, warn).data);
  if (!choice)
    throw new UsageError('no profile to log out of: there is no current profile', {
      hint: 'name one with --profile NAME (see `cpk profile list`)',
    });
  const result = await logout(ctx.env, choice.name, { secrets: () => ctx.secrets(), warn });
  if (result.removed === undefined) {
    ctx.out.info(`Profile "${choice.name}" had no token; nothing to do.`);
  } else {
    const where = result.removed === 'keychain' ? 'the system keychain' : result.location.file;
    ctx.out.info(`Logged out: the token of profile "${choice.name}" was removed from ${where}.`);
  }
  if (ctx.env.CPK_TOKEN?.trim()) ctx.out.warn('CPK_TOKEN is still set in this environment, and cpk still uses it');
  if (ctx.out.json)
    ctx.out.printJson({ profile: choice.name, removed: result.removed ?? null, config_file: result.location.file });
}
