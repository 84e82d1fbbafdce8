import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { ExitCode } from '../../core/errors.js';
import { parseConcurrency } from '../../parse/concurrency.js';
import { action, describe, type RawOptions, type Runtime } from '../../cli/action.js';
import { addConcurrencyOption, addManifestOptions, nonEmpty, parseManifestFlags } from '../../cli/manifest-flags.js';
import { JUNIT_HELP, parseJunit, planCases, withCiReport } from '../../cli/ci.js';

export function register(program: Command, runtime: Runtime): void {
  const cmd = program
    .command('plan')
    .description(
      'Show what `cpk apply` would change to make the service match the manifest (exit 0: nothing, 10: changes)',
    );
  addManifestOptions(cmd);
  cmd
    .option('--prune', 'plan to delete monitors the state records but the manifest no longer names')
    .option('--create-uncertain', 'plan to create again monitors whose earlier create has an unknown outcome')
    .option('--out <file>', 'save the plan (JSON, schema/plan.schema.json) for `cpk apply FILE` to carry out exactly')
    .option('--junit <file>', JUNIT_HELP);
  addConcurrencyOption(cmd).action(action(runtime, (ctx, _args, opts) => run(parsePlanOptions(opts), ctx)));
  describe(cmd, {
    effect: 'read',
    tool: true,
    examples: [
      'cpk plan',
      'cpk plan -f infra/cpk.yaml --prune',
      'cpk plan --json | jq \'.monitors[] | select(.action != "unchanged")\'',
      'cpk plan --out plan.json && cpk apply plan.json',
      'cpk plan -o markdown > plan.md && gh pr comment --body-file plan.md',
    ],
  });
}

export function parsePlanOptions(opts: RawOptions) {
  return {
    ...parseManifestFlags(opts),
    prune: opts.prune === true,
    createUncertain: opts.createUncertain === true,
    concurrency: parseConcurrency(opts.concurrency),
    // --out: saved for `cpk apply FILE`; --junit: one test case per monitor and channel.
    out: nonEmpty(opts.out, '--out'),
    junit: parseJunit(opts),
  };
}

export async function run(opts: ReturnType<typeof parsePlanOptions>, ctx: Context): Promise<void> {
  return withCiReport(ctx, 'cpk plan', opts.junit, async (ci) => {
    const [{ planWorkflow }, { workflowDeps }, render] = await Promise.all([
      import('../../manifest/workflow.js'),
      import('../../cli/manifest-run.js'),
      import('../../manifest/render.js'),
    ]);
    const { plan, document, changes } = await planWorkflow(
      { ...opts, save: opts.out, document: ctx.out.json },
      workflowDeps(ctx),
    );
    planCases(ci, plan, []);
    await ci.summary(() => render.renderPlanMarkdown(plan));
    if (ctx.out.json) ctx.out.printJson(document);
    else if (ctx.out.format === 'markdown') ctx.out.printRendered(render.renderPlanMarkdown(plan));
    else ctx.out.printRendered(render.renderPlan(plan, await render.paintFor(ctx.out)));
    if (opts.out !== undefined && !ctx.out.json)
      ctx.out.info(`saved the plan to ${opts.out}; carry it out with: cpk apply ${opts.out}`);
    ctx.exitCode = changes ? ExitCode.PLAN_CHANGES : ExitCode.OK;
  });
}
