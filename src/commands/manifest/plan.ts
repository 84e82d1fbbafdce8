import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { resolve } from 'node:path';
import { CpkError, ExitCode, UsageError } from '../../core/errors.js';
import { action, examples, type Runtime } from '../../cli/action.js';
import {
  addConcurrencyOption,
  addManifestOptions,
  parseConcurrency,
  parseManifestFlags,
  type ManifestFlags,
} from '../../cli/manifest-flags.js';
import { openManifest, readPlan } from '../../cli/manifest-run.js';
import { JUNIT_HELP, parseJunit, planCases, withCiReport } from '../../cli/ci.js';

export interface PlanCommandOptions extends ManifestFlags {
  prune: boolean;
  createUncertain: boolean;
  concurrency: number;
  /** --out: save the plan here, for `cpk apply FILE`. */
  out: string | undefined;
  /** --junit FILE: one test case per monitor and channel. */
  junit?: string | undefined;
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
    .option('--create-uncertain', 'plan to create again monitors whose earlier create has an unknown outcome')
    .option('--out <file>', 'save the plan (JSON, schema/plan.schema.json) for `cpk apply FILE` to carry out exactly')
    .option('--junit <file>', JUNIT_HELP);
  addConcurrencyOption(cmd).action(action(runtime, (ctx, _args, opts) => run(parsePlanOptions(opts), ctx)));
  examples(
    cmd,
    'cpk plan',
    'cpk plan -f infra/cpk.yaml --prune',
    'cpk plan --json | jq \'.monitors[] | select(.action != "unchanged")\'',
    'cpk plan --out plan.json && cpk apply plan.json',
    'cpk plan -o markdown > plan.md && gh pr comment --body-file plan.md',
  );
}

export function parsePlanOptions(opts: Record<string, unknown>): PlanCommandOptions {
  return {
    ...parseManifestFlags(opts),
    prune: opts.prune === true,
    createUncertain: opts.createUncertain === true,
    concurrency: parseConcurrency(opts.concurrency),
    out: opts.out === undefined ? undefined : nonEmptyPath(opts.out),
    junit: parseJunit(opts),
  };
}

function nonEmptyPath(value: unknown): string {
  const text = String(value);
  if (text.trim() === '') throw new UsageError('--out must not be empty');
  return text;
}

export async function run(opts: PlanCommandOptions, ctx: Context): Promise<void> {
  return withCiReport(ctx, 'cpk plan', opts.junit, () => makePlan(opts, ctx));
}

async function makePlan(opts: PlanCommandOptions, ctx: Context): Promise<void> {
  const opened = await openManifest(ctx, opts, { validate: true });
  if (opts.out !== undefined) {
    const out = resolve(opts.out);
    if (out === resolve(opened.state.path) || opts.files.some((file) => resolve(file) === out))
      throw new UsageError(`--out ${opts.out} is the manifest or the state file; choose another file`);
  }
  const [{ hasChanges }, render] = await Promise.all([
    import('../../manifest/plan.js'),
    import('../../manifest/render.js'),
  ]);
  const plan = await readPlan(ctx, opened, { ...opts, noAdopt: opts.out !== undefined }, 'no plan was made');
  if (ctx.ci) {
    planCases(ctx.ci, plan, []);
    await ctx.ci.summary(render.renderPlanMarkdown(plan));
  }
  if (opts.out !== undefined && plan.monitors.some((step) => step.action === 'uncertain'))
    ctx.out.warn(
      'a saved plan leaves uncertain creates as they are: run `cpk apply` (which looks for their monitors) or `cpk import KEY=ID` first',
    );
  const saved = await import('../../manifest/saved.js');
  const needed = opts.out !== undefined || ctx.out.json;
  const document = needed
    ? saved.planDocument(plan, {
        createdAt: new Date().toISOString(),
        token: await ctx.tokenDigest(),
        stateDigest: saved.stateDigest(opened.state.data),
      })
    : undefined;
  if (opts.out !== undefined && document) {
    const [{ writeFileAtomic }, { toJson }] = await Promise.all([
      import('../../core/atomic-file.js'),
      import('../../output/json.js'),
    ]);
    try {
      // 0600: a plan holds every body it would send.
      await writeFileAtomic(opts.out, `${toJson(document, 2)}\n`, { mode: 0o600 });
    } catch (error) {
      throw new CpkError(
        `cannot write the plan ${opts.out} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
        ExitCode.FAILURE,
      );
    }
  }
  if (ctx.out.json) ctx.out.printJson(document);
  else if (ctx.out.format === 'markdown') ctx.out.printRendered(render.renderPlanMarkdown(plan));
  else ctx.out.printRendered(render.renderPlan(plan, await render.paintFor(ctx.out)));
  if (opts.out !== undefined && !ctx.out.json)
    ctx.out.info(`saved the plan to ${opts.out}; carry it out with: cpk apply ${opts.out}`);
  ctx.exitCode = hasChanges(plan) ? ExitCode.PLAN_CHANGES : ExitCode.OK;
}
