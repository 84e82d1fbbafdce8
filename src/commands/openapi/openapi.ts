import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { action, describe, type Runtime } from '../../cli/action.js';

export function register(program: Command, runtime: Runtime): void {
  const cmd = program
    .command('openapi')
    .description("Print the service's public OpenAPI document (sent without a token)")
    .action(action(runtime, (ctx) => run(ctx)));
  describe(cmd, {
    effect: 'read',
    examples: ['cpk openapi > openapi.json', 'cpk openapi --base-url https://api.example.com'],
  });
}

export async function run(ctx: Context): Promise<void> {
  const api = await ctx.api({ anonymous: true });
  const doc = await ctx.out.spin('Fetching OpenAPI document', () => api.getOpenApi());
  ctx.out.printJson(doc);
}
