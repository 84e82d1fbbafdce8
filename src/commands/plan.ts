import type { Command } from 'commander';
import type { Context } from '../context.js';
import { ExitCode } from '../errors.js';
import { action, examples, type Runtime } from './action.js';
import {
  addConcurrencyOption,
  addManifestOptions,
  parseConcurrency,
  parseManifestFlags,
  type ManifestFlags,
} from './manifest-flags.js';
import { openManifest, readPlan } from './manifest-run.js';

export interface PlanCommandOptions extends ManifestFlags {
  prune: boolean;
  createUncertain: boolean;
  concurrency: number;
}

export function register(program: Command, runtime: Runtime): void {
  const cmd = program
    .command('plan')
    .description(
      'Show what `cpk apply` would change to make the service match the manifest (exit 0: nothing, 10: changes)',
    );
  addManifestOptions(cmd);
  cmd
    .option('--prune', 'plan to delete monitors the state records but the manifest no longer names')
    .option('--create-uncertain', 'plan to create again monitors whose earlier create has an unknown outcome');
  addConcurrencyOption(cmd).action(action(runtime, (ctx, _args, opts) => run(parsePlanOptions(opts), ctx)));
  examples(
    cmd,
    'cpk plan',
    'cpk plan -f infra/cpk.yaml --prune',
    'cpk plan --json | jq \'.monitors[] | select(.action != "unchanged")\'',
  );
}

export function parsePlanOptions(opts: Record<string, unknown>): PlanCommandOptions {
  return {
    ...parseManifestFlags(opts),
    prune: opts.prune === true,
    createUncertain: opts.createUncertain === true,
    concurrency: parseConcurrency(opts.concurrency),
  };
}

export async function run(opts: PlanCommandOptions, ctx: Context): Promise<void> {
  const opened = await openManifest(ctx, opts, { validate: true });
  const [{ hasChanges }, render] = await Promise.all([import('../manifest/plan.js'), import('../manifest/render.js')]);
  const plan = await readPlan(ctx, opened, opts, 'no plan was made');
  if (ctx.out.json) ctx.out.printJson(render.planJson(plan));
  else ctx.out.printRendered(render.renderPlan(plan, await render.paintFor(ctx.out)));
  ctx.exitCode = hasChanges(plan) ? ExitCode.PLAN_CHANGES : ExitCode.OK;
}
