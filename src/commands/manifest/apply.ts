import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { CpkError, ExitCode, InterruptedError, UsageError } from '../../core/errors.js';
import { action, describe, type RawOptions, type Runtime } from '../../cli/action.js';
import { addConcurrencyOption, addLockOption, addManifestOptions, parseLockTimeout } from '../../cli/manifest-flags.js';
import { entryPlaces, errorText, JUNIT_HELP, planCases, withCiReport } from '../../cli/ci.js';
import { parsePlanOptions } from './plan.js';

/**
 * After Ctrl-C or SIGTERM, how long requests already sent may take to answer
 * so that what they did is recorded. Below the 7.5 s GitHub Actions leaves
 * between its first signal and its second when a run is cancelled.
 */
export const APPLY_GRACE_MS = 5_000;

export function register(program: Command, runtime: Runtime): void {
  const cmd = program
    .command('apply')
    .description(
      'Make the service match the manifest: create and update monitors, set channels, and with --prune delete removed ones',
    );
  cmd.argument('[plan]', 'a plan saved by `cpk plan --out FILE`: carry out exactly it, unless what it read changed');
  addManifestOptions(cmd);
  cmd
    .option('--prune', 'delete monitors the state records but the manifest no longer names (never any other monitor)')
    .option(
      '--create-uncertain',
      'create again monitors whose earlier create has an unknown outcome (may make a duplicate)',
    )
    .option(
      '--recreate-missing',
      'create again the monitors the state records even when none of them exists for this token (refused otherwise: another account or environment?)',
    )
    .option('-y, --yes', 'do not ask for confirmation (required when stdin is not a terminal)')
    .option('--junit <file>', JUNIT_HELP);
  addLockOption(cmd);
  addConcurrencyOption(cmd).action(action(runtime, (ctx, args, opts) => run(parseApplyOptions(opts, args), ctx)));
  describe(cmd, {
    // With --prune, or a saved plan made with it, apply deletes monitors: agents and prompts must treat it as such.
    effect: 'destroy',
    tool: true,
    examples: [
      'cpk apply',
      'cpk apply --yes --prune            # in CI',
      'cpk plan --out plan.json && cpk apply plan.json',
      'cpk apply -f infra/cpk.yaml --state infra/staging.state.json --yes',
    ],
  });
}

export function parseApplyOptions(opts: RawOptions, args: unknown[] = []) {
  const planFile = args.find((arg): arg is string => typeof arg === 'string');
  if (planFile !== undefined) {
    if (planFile.trim() === '') throw new UsageError('the plan file must not be empty');
    const given = [
      ['-f', opts.file],
      ['--state', opts.state],
      ['--prune', opts.prune],
      ['--create-uncertain', opts.createUncertain],
    ].filter(([, value]) => value !== undefined && value !== false);
    if (given.length > 0)
      throw new UsageError(
        `${given.map(([flag]) => String(flag)).join(', ')} cannot be given with a saved plan: the plan already says what to do and where (make it again with cpk plan --out FILE)`,
      );
  }
  // The flags plan takes, read as plan reads them (apply has no --out); --junit: failed where a change failed.
  const { out: _, ...planned } = parsePlanOptions(opts);
  return {
    planFile,
    ...planned,
    yes: opts.yes === true,
    // Allowed with a saved plan, as --yes is: a consent given when applying, not a part of the plan.
    recreateMissing: opts.recreateMissing === true,
    lockTimeoutMs: parseLockTimeout(opts.lockTimeout),
  };
}

export async function run(opts: ReturnType<typeof parseApplyOptions>, ctx: Context): Promise<void> {
  return withCiReport(ctx, 'cpk apply', opts.junit, async (ci) => {
    const [workflow, { workflowDeps }, render] = await Promise.all([
      import('../../manifest/workflow.js'),
      import('../../cli/manifest-run.js'),
      import('../../manifest/render.js'),
    ]);
    // A missing manifest is the first thing to say: --yes would not help.
    if (opts.planFile === undefined && !opts.yes) await workflow.checkManifestsExist(opts.files);
    // In agent mode the confirmation is a preview, not a question: there is nothing to refuse here.
    if (!opts.yes && !ctx.io.stdinIsTTY && !ctx.globals.agent) {
      throw new UsageError('refusing to apply without --yes (stdin is not a terminal); nothing was sent');
    }
    // Requests run on their own signal: the first Ctrl-C or SIGTERM stops new
    // work at once, but what was already sent gets APPLY_GRACE_MS to answer,
    // so that a create that reached the service is recorded, not lost.
    const inflight = new AbortController();
    const graceMs = Math.min(APPLY_GRACE_MS, ctx.globals.timeoutSeconds * 1000);
    ctx.interruptGraceMs = graceMs + 2_000;
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    const onInterrupt = () => {
      if (!ctx.out.json)
        ctx.out.info(
          `interrupted: starting nothing new; waiting up to ${graceMs / 1000}s for requests already sent, to record them`,
        );
      graceTimer = setTimeout(() => inflight.abort(), graceMs);
    };
    if (ctx.signal?.aborted) throw new InterruptedError();
    ctx.signal?.addEventListener('abort', onInterrupt, { once: true });
    let result;
    try {
      result = await workflow.applyWorkflow(opts, {
        ...workflowDeps(ctx),
        api: (options) => ctx.api({ ...options, signal: inflight.signal }),
      });
    } finally {
      ctx.signal?.removeEventListener('abort', onInterrupt);
      clearTimeout(graceTimer);
    }
    const { plan, outcomes, stateErrors, statePath, manifest } = result;
    const failed = outcomes.filter((o) => o.result === 'failed');
    const place = manifest ? entryPlaces(manifest) : undefined;
    for (const outcome of failed) {
      const [name, verb] =
        outcome.kind === 'channel'
          ? [outcome.step.id, 'update channel']
          : [outcome.step.key, outcome.step.action === 'uncertain' ? 'create' : outcome.step.action];
      const where = place?.(`${outcome.kind}s`, name);
      await ci.annotate({ ...where, message: `${verb} ${name}: ${errorText(outcome.error)}` });
    }
    planCases(ci, plan, outcomes);
    await ci.summary(() => render.renderApplyMarkdown(plan, outcomes));

    const summary = render.summarize(plan, outcomes);
    if (ctx.out.json) ctx.out.printJson(render.applyJson(plan, outcomes));
    else if (workflow.hasChanges(plan)) ctx.out.printRendered(render.renderSummary(summary));
    // A run that could not record what it did never ends as a success (nor as
    // a mere interruption): what the state misses is named in the lines above.
    if (stateErrors.length > 0) {
      const [first] = stateErrors as [CpkError];
      const notStarted = summary.skipped > 0 ? `; ${summary.skipped} changes were not started` : '';
      throw new CpkError(`${first.message}${notStarted}`, ExitCode.OUTPUT_FAILED, {
        hint: `make room for ${statePath} (and its journal), then run cpk apply again`,
      });
    }
    if (ctx.signal?.aborted) {
      if (!ctx.out.json) ctx.out.info(`${statePath} records everything that was done; run cpk apply again to finish`);
      throw new InterruptedError();
    }
    if (failed.length > 0) {
      // In plan order (not the order they finished in), so the exit code is that of the first failure there.
      const order: unknown[] = [...plan.monitors, ...plan.channels];
      failed.sort((a, b) => order.indexOf(a.step) - order.indexOf(b.step));
      throw workflow.failuresError(
        ctx.out,
        [],
        failed.map((o) => o.error),
        `${failed.length} of ${outcomes.length} changes failed (${ctx.out.json ? 'see "error" in the result' : 'see above'}); ${statePath} records what was done; run cpk apply again to retry`,
      );
    }
  });
}
