import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { action, describe, type Runtime } from '../../cli/action.js';

export function register(parent: Command, runtime: Runtime): void {
  const cmd = parent
    .command('list')
    .description('List the profiles; the current one is marked with *')
    .action(action(runtime, (ctx) => run(ctx)));
  describe(cmd, { effect: 'read', synonyms: ['ls'], examples: ['cpk profile list', 'cpk profile list --json'] });
}

const TOKEN_WORDS = { keychain: 'token in keychain', file: 'token in config file' } as const;

export async function run(ctx: Context): Promise<void> {
  const { listProfiles } = await import('../../config/profiles.js');
  const { profiles, location } = listProfiles(ctx.env, (text) => ctx.out.warn(text));
  if (ctx.out.json) return ctx.out.printJson(profiles);
  if (profiles.length === 0) return ctx.out.info(`No profiles yet (${location.file}): run \`cpk auth login\`.`);
  const width = profiles.reduce((n, p) => Math.max(n, p.name.length), 0);
  for (const p of profiles) {
    const token = p.token_storage === null ? 'logged out' : TOKEN_WORDS[p.token_storage];
    ctx.out.printLine(
      `${p.current ? '*' : ' '} ${p.name.padEnd(width)}  ${p.base_url ?? '(default base URL)'}  ${token}`,
    );
  }
}
