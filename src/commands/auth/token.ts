import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { hasToken } from '../../config/schema.js';
import { action, describe, type Runtime } from '../../cli/action.js';

export function register(parent: Command, runtime: Runtime): void {
  const cmd = parent
    .command('token')
    .description(
      'Print the token cpk would use, alone on stdout, for piping into another program (the one command that prints it)',
    )
    .action(action(runtime, (ctx) => run(ctx)));
  describe(cmd, {
    effect: 'read',
    examples: [
      'cpk auth token | other-tool --token-stdin',
      'curl -H "Authorization: Bearer $(cpk auth token)" "$BASE_URL/monitors/mon_1"',
    ],
  });
}

export async function run(ctx: Context): Promise<void> {
  const session = await ctx.session();
  if (!session.token) throw session.tokenProblem;
  const { profile } = session;
  if (session.token.origin === 'env' && profile && profile.source !== 'current profile' && hasToken(profile.record)) {
    ctx.out.warn(`CPK_TOKEN is set and wins over the token stored for profile "${profile.name}"; printing CPK_TOKEN`);
  }
  ctx.out.printSecret(`${session.token.value}\n`);
}
