import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { CpkError, ExitCode, InterruptedError, UsageError } from '../../core/errors.js';
import { action, examples, type Runtime } from '../../cli/action.js';
import {
  addConcurrencyOption,
  addLockOption,
  addManifestOptions,
  parseConcurrency,
  parseLockTimeout,
  parseManifestFlags,
  type ManifestFlags,
} from '../../cli/manifest-flags.js';
import { failuresError, lockStateFile, openManifest, readPlan, type Opened } from '../../cli/manifest-run.js';
import { entryPlaces, errorText, JUNIT_HELP, parseJunit, planCases, withCiReport } from '../../cli/ci.js';

export interface ApplyCommandOptions extends ManifestFlags {
  prune: boolean;
  createUncertain: boolean;
  concurrency: number;
  yes: boolean;
  /** ms to wait for the state file's lock (0: fail at once). */
  lockTimeoutMs: number;
  /** A plan saved by `cpk plan --out`: carry out exactly it. */
  planFile: string | undefined;
  /** --junit FILE: one test case per monitor and channel, failed where its change failed. */
  junit?: string | undefined;
}

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
    .option('-y, --yes', 'do not ask for confirmation (required when stdin is not a terminal)')
    .option('--junit <file>', JUNIT_HELP);
  addLockOption(cmd);
  addConcurrencyOption(cmd).action(action(runtime, (ctx, args, opts) => run(parseApplyOptions(opts, args), ctx)));
  examples(
    cmd,
    'cpk apply',
    'cpk apply --yes --prune            # in CI',
    'cpk plan --out plan.json && cpk apply plan.json',
    'cpk apply -f infra/cpk.yaml --state infra/staging.state.json --yes',
  );
}

export function parseApplyOptions(opts: Record<string, unknown>, args: unknown[] = []): ApplyCommandOptions {
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
  return {
    planFile,
    ...parseManifestFlags(opts),
    prune: opts.prune === true,
    createUncertain: opts.createUncertain === true,
    concurrency: parseConcurrency(opts.concurrency),
    yes: opts.yes === true,
    lockTimeoutMs: parseLockTimeout(opts.lockTimeout),
    junit: parseJunit(opts),
  };
}

export async function run(opts: ApplyCommandOptions, ctx: Context): Promise<void> {
  return withCiReport(ctx, 'cpk apply', opts.junit, () => applyCommand(opts, ctx));
}

async function applyCommand(opts: ApplyCommandOptions, ctx: Context): Promise<void> {
  // A missing manifest is the first thing to say: --yes would not help.
  if (opts.planFile === undefined && !opts.yes) await manifestsExist(opts.files);
  if (!opts.yes && !ctx.io.stdinIsTTY) {
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
  try {
    await carryOut(opts, ctx, inflight.signal);
  } finally {
    ctx.signal?.removeEventListener('abort', onInterrupt);
    clearTimeout(graceTimer);
  }
}

async function manifestsExist(files: readonly string[]): Promise<void> {
  const { stat } = await import('node:fs/promises');
  for (const file of files) {
    const missing = await stat(file).then(
      () => false,
      (error: NodeJS.ErrnoException) => error.code === 'ENOENT',
    );
    if (missing) throw (await import('../../manifest/load.js')).unreadableManifest(file, 'ENOENT');
  }
}

async function carryOut(opts: ApplyCommandOptions, ctx: Context, inflight: AbortSignal): Promise<void> {
  if (opts.planFile !== undefined) return carryOutSaved(opts.planFile, opts, ctx, inflight);
  const { manifest, state, api, lock } = await openManifest(ctx, opts, {
    api: { signal: inflight },
    validate: true,
    lock: { timeoutMs: opts.lockTimeoutMs, command: 'cpk apply' },
  });
  try {
    const plan = await readPlan(ctx, { manifest, state, api }, opts, 'nothing was changed');
    await applyLocked(opts, ctx, { plan, state, api, manifest });
  } finally {
    await lock?.release();
  }
}

/**
 * `cpk apply PLAN`: the saved plan, exactly, once it is known to hold: made
 * for this service and token, and neither the state nor any monitor it read
 * has changed since (checked under the lock, before anything is sent).
 */
async function carryOutSaved(
  path: string,
  opts: ApplyCommandOptions,
  ctx: Context,
  inflight: AbortSignal,
): Promise<void> {
  const [saved, { StateStore }] = await Promise.all([
    import('../../manifest/saved.js'),
    import('../../manifest/state.js'),
  ]);
  const file = await saved.readSavedPlan(path);
  const api = await ctx.api({ many: true, signal: inflight });
  if (file.plan.baseUrl !== api.baseUrl)
    throw new UsageError(
      `${path} was made for ${file.plan.baseUrl}, but cpk is pointed at ${api.baseUrl}; nothing was sent`,
      { hint: 'point cpk at that service (--base-url, CPK_BASE_URL), or make a plan for this one' },
    );
  if (file.token !== ((await ctx.tokenDigest()) ?? null))
    throw new UsageError(
      `${path} was made with another token (the service cannot say which account a token belongs to, so a plan is bound to its token); nothing was sent`,
      { hint: 'apply it with the token it was made with, or make the plan again with this one' },
    );
  const lock = await lockStateFile(ctx, file.plan.state, opts.lockTimeoutMs, 'cpk apply');
  try {
    const state = await StateStore.load(file.plan.state, { baseUrl: api.baseUrl, manifestPath: path });
    const changed = await ctx.out.spin('Checking that the plan still holds', () =>
      saved.changesSince(file, state.data, api, { concurrency: opts.concurrency, stop: ctx.signal }),
    );
    if (ctx.signal?.aborted) throw new InterruptedError();
    if (changed.length > 0) {
      const shown = changed.length > 3 ? [...changed.slice(0, 3), `${changed.length - 3} more`] : changed;
      throw new UsageError(
        `${path} is stale: since it was made (${file.createdAt}), ${shown.join(', ')}; nothing was sent`,
        { hint: `run cpk plan --out ${path} again, review it, and apply that` },
      );
    }
    await applyLocked(opts, ctx, { plan: file.plan, state, api });
  } finally {
    await lock.release();
  }
}

async function applyLocked(
  opts: ApplyCommandOptions,
  ctx: Context,
  opened: {
    plan: import('../../manifest/plan.js').Plan;
    state: Opened['state'];
    api: Opened['api'];
    /** The manifest the plan was made from (not for a saved plan): annotations point into it. */
    manifest?: Opened['manifest'];
  },
): Promise<void> {
  const { plan, state, api } = opened;
  const [{ hasChanges }, { applyPlan }, render] = await Promise.all([
    import('../../manifest/plan.js'),
    import('../../manifest/apply.js'),
    import('../../manifest/render.js'),
  ]);
  if (ctx.signal?.aborted) throw new InterruptedError();
  const paint = await render.paintFor(ctx.out);
  if (!ctx.out.json) ctx.out.printRendered(render.renderPlan(plan, paint));

  if (hasChanges(plan)) {
    if (!opts.yes && !(await ctx.confirm(`Apply these changes to ${plan.baseUrl}?`))) {
      throw new UsageError('apply cancelled; nothing was changed');
    }
    if (ctx.signal?.aborted) throw new InterruptedError();
    for (const step of plan.monitors) {
      if (step.action === 'create' && step.replaces)
        ctx.out.warn(`monitor ${step.replaces} of "${step.key}" answers 404 (deleted outside cpk); creating it again`);
    }
  }
  if (state.recovered > 0)
    ctx.out.info(
      `recovered ${state.recovered} change${state.recovered === 1 ? '' : 's'} from ${state.journalPath}, left by a run that was cut short`,
    );
  // Written before any change: it binds a new state to this base URL, folds in
  // a journal left by a run that was cut short, and a state that cannot be
  // written stops apply before anything is sent.
  const changing = hasChanges(plan) || plan.droppedChannels.length > 0;
  if (changing || state.recovered > 0) {
    try {
      await state.save();
    } catch (error) {
      throw new CpkError(
        `cannot write the state file ${state.path} (${(error as NodeJS.ErrnoException).code ?? String(error)}); nothing was changed`,
        ExitCode.OUTPUT_FAILED,
      );
    }
  }
  for (const { key, id } of plan.adopted ?? []) ctx.out.info(`adopted ${id} for entry ${key}`);
  // One line per change on stderr, written once per turn of the event loop
  // (the lines of the changes that finished together in one write).
  const progress = batchLines((text) => ctx.out.info(text));
  const { outcomes, stateErrors } = await applyPlan(plan, state, api, {
    concurrency: opts.concurrency,
    stop: ctx.signal,
    warn: (text) => ctx.out.warn(text),
    onOutcome: (outcome) => {
      if (ctx.out.json) return;
      if (outcome.result === 'failed') {
        progress.flush();
        ctx.out.info(render.outcomeLine(outcome));
      } else if (outcome.result === 'done') progress.add(render.outcomeLine(outcome));
    },
  });
  progress.flush();
  if (ctx.ci) {
    const place = opened.manifest ? entryPlaces(opened.manifest) : undefined;
    for (const outcome of outcomes.filter((o) => o.result === 'failed')) {
      const name =
        outcome.kind === 'channel' ? (outcome.step as { id: string }).id : (outcome.step as { key: string }).key;
      const where = await place?.(outcome.kind === 'channel' ? 'channels' : 'monitors', name);
      const action = (outcome.step as { action: string }).action;
      const verb = outcome.kind === 'channel' ? 'update channel' : action === 'uncertain' ? 'create' : action;
      await ctx.ci.annotate({ ...where, message: `cpk: ${verb} ${name}: ${errorText(outcome.error)}` });
    }
    planCases(ctx.ci, plan, outcomes);
    await ctx.ci.summary(render.renderApplyMarkdown(plan, outcomes));
  }

  const summary = render.summarize(plan, outcomes);
  if (ctx.out.json) ctx.out.printJson(render.applyJson(plan, outcomes));
  else if (hasChanges(plan)) ctx.out.printRendered(render.renderSummary(summary));

  // A run that could not record what it did never ends as a success (nor as
  // a mere interruption): what the state misses is named in the lines above.
  if (stateErrors.length > 0) {
    const [first] = stateErrors as [CpkError];
    const notStarted = summary.skipped > 0 ? `; ${summary.skipped} changes were not started` : '';
    throw new CpkError(`${first.message}${notStarted}`, ExitCode.OUTPUT_FAILED, {
      hint: `make room for ${state.path} (and its journal), then run cpk apply again`,
    });
  }
  if (ctx.signal?.aborted) {
    if (!ctx.out.json) ctx.out.info(`${state.path} records everything that was done; run cpk apply again to finish`);
    throw new InterruptedError();
  }
  // In plan order (not the order they finished in), so the exit code is that of the first failure there.
  const order: unknown[] = [...plan.monitors, ...plan.channels];
  const failed = outcomes
    .filter((o) => o.result === 'failed')
    .sort((a, b) => order.indexOf(a.step) - order.indexOf(b.step));
  if (failed.length > 0) {
    throw failuresError(
      ctx,
      [],
      failed.map((o) => o.error),
      `${failed.length} of ${outcomes.length} changes failed (${ctx.out.json ? 'see "error" in the result' : 'see above'}); ${state.path} records what was done; run cpk apply again to retry`,
    );
  }
}

/** Lines gathered and handed to `write` together, joined, once per turn of the event loop. */
function batchLines(write: (text: string) => void): { add: (line: string) => void; flush: () => void } {
  let lines: string[] = [];
  let timer: ReturnType<typeof setImmediate> | undefined;
  const flush = () => {
    if (timer) clearImmediate(timer);
    timer = undefined;
    if (lines.length > 0) write(lines.join('\n'));
    lines = [];
  };
  return {
    add: (line) => {
      lines.push(line);
      timer ??= setImmediate(flush);
    },
    flush,
  };
}
