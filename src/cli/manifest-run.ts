// What plan, apply and import share when they run: opening the manifest and
// the state (and the state's lock), reading the plan, and the closing error
// of a step that failed in several places. The manifest code (yaml, ajv, the
// schema) is imported here, lazily, so `cpk --help` and the other commands
// never load it.
import { existsSync } from 'node:fs';
import type { Api } from '../core/api/client.js';
import type { ApiOptions, Context } from './context.js';
import { CpkError, ExitCode, UsageError } from '../core/errors.js';
import type { Manifest } from '../manifest/load.js';
import type { StateStore } from '../manifest/state.js';
import type { ManifestFlags } from './manifest-flags.js';
import { join, resolve } from 'node:path';

/**
 * Takes the lock on the state file for a command that changes it, saying on
 * stderr when it waits and when it takes over a lock left by a dead process.
 */
export async function lockStateFile(
  ctx: Context,
  statePath: string,
  timeoutMs: number,
  command: string,
): Promise<import('../manifest/lock.js').StateLock> {
  const { lockState } = await import('../manifest/lock.js');
  return lockState(statePath, {
    timeoutMs,
    command,
    signal: ctx.signal,
    onWait: (holder) =>
      ctx.out.info(
        `waiting up to ${timeoutMs / 1000}s for the lock on ${statePath}${holder ? ` (held by pid ${holder.pid} on ${holder.host} since ${holder.since})` : ''}`,
      ),
    onTakeover: (holder) =>
      ctx.out.warn(
        `took over the lock on ${statePath} left by pid ${holder.pid} on ${holder.host} (since ${holder.since}), which is no longer running`,
      ),
  });
}

export interface Opened {
  manifest: Manifest;
  state: StateStore;
  api: Api;
  /** Held when openManifest was asked to lock: release it when done. */
  lock?: import('../manifest/lock.js').StateLock | undefined;
}

export interface OpenOptions {
  api?: ApiOptions;
  /** Take the state file's lock before reading it (commands that change the state). */
  lock?: { timeoutMs: number; command: string };
  /** Checks that need the manifest only, run before the lock is taken (a usage error waits for no one). */
  check?: (manifest: Manifest) => void;
  /** A manifest that does not exist yet reads as an empty one (`import --all` writes it). */
  allowMissing?: boolean;
  /** Check the entries against the bodies the service's document declares (plan, apply). */
  validate?: boolean;
}

/**
 * Reads and checks the manifest (every problem on its own line, file:line:col,
 * before anything is sent), builds the API client, and reads the state for
 * the base URL that client talks to.
 */
export async function openManifest(ctx: Context, flags: ManifestFlags, options: OpenOptions = {}): Promise<Opened> {
  const [{ readManifests, manifestFiles, ManifestError }, { StateStore, defaultStatePath }] = await Promise.all([
    import('../manifest/load.js'),
    import('../manifest/state.js'),
  ]);
  const { files, directory } = await manifestFiles(flags.files);
  // One file: beside it, as always. A directory: inside it. Several: named,
  // since which of them the state belongs to would otherwise depend on the order of -f.
  let statePath = flags.state;
  if (statePath === undefined) {
    if (directory !== undefined) statePath = join(directory, 'cpk.state.json');
    else if (flags.files.length === 1) statePath = defaultStatePath(flags.files[0]!);
    else
      throw new UsageError(
        'with several manifest files, name the state file with --state FILE (e.g. --state cpk.state.json); nothing was sent',
      );
  }
  for (const file of files)
    if (resolve(file) === resolve(statePath))
      throw new UsageError(`the state file and the manifest are the same file (${file}); choose another --state`);
  let manifest: Manifest;
  try {
    manifest =
      options.allowMissing && files.length === 1 && !existsSync(files[0]!)
        ? { path: files[0]!, monitors: [], channels: [], customFields: [] }
        : await readManifests(files, flags.files.join(', '));
  } catch (error) {
    if (!(error instanceof ManifestError)) throw error;
    if (ctx.ci) {
      const ci = await import('./ci.js');
      await ci.annotateProblems(ctx.ci, error.problems, error.file);
      ci.manifestCases(ctx.ci, [], error.problems, error.file);
    }
    // People get one line per problem; --json gets them all in the one error object.
    if (!ctx.out.json) for (const line of error.lines()) ctx.out.info(line);
    else throw new UsageError(`${error.message}: ${error.lines().join('; ')}`);
    throw error;
  }
  options.check?.(manifest);
  const api = await ctx.api({ many: true, ...options.api });
  if (options.validate) await checkAgainstService(ctx, manifest, api);
  // Locked before it is read, so this run sees everything a run before it wrote.
  const lock = options.lock
    ? await lockStateFile(ctx, statePath, options.lock.timeoutMs, options.lock.command)
    : undefined;
  try {
    const state = await StateStore.load(statePath, { baseUrl: api.baseUrl, manifestPath: files[0]! });
    return { manifest, state, api, lock };
  } catch (error) {
    await lock?.release();
    throw error;
  }
}

/**
 * Checks the manifest's entries against the create and update bodies the
 * service's document declares (src/manifest/validate.ts), before anything is
 * sent: every problem on its own line, file:line:col, then a usage error.
 * The document is public (fetched without a token) and cached; a missing,
 * invalid or unreachable one checks nothing (said under --debug).
 */
export async function checkAgainstService(
  ctx: Context,
  manifest: Manifest,
  api: import('../core/api/spec.js').SpecFetcher,
  options: { refreshSpec?: boolean } = {},
): Promise<void> {
  const { problems } = await serviceProblems(ctx, manifest, api, options);
  if (problems.length > 0 && ctx.ci) {
    const ci = await import('./ci.js');
    await ci.annotateProblems(ctx.ci, problems);
    ci.manifestCases(ctx.ci, ci.entryNames(manifest), problems);
  }
  if (problems.length > 0) throw await validationError(ctx, problems);
}

/** The problems of the manifest's entries against the service's declared bodies, and which bodies it declares. */
export async function serviceProblems(
  ctx: Context,
  manifest: Manifest,
  api: import('../core/api/spec.js').SpecFetcher,
  options: { refreshSpec?: boolean } = {},
): Promise<Awaited<ReturnType<typeof import('../manifest/validate.js').validateEntries>>> {
  const [{ loadSpec }, { validateEntries, entriesOf }] = await Promise.all([
    import('../core/api/spec.js'),
    import('../manifest/validate.js'),
  ]);
  const debug = (line: string) => ctx.out.debug(line);
  const spec = await loadSpec(api, { env: ctx.env, refresh: options.refreshSpec, debug });
  return validateEntries(entriesOf(manifest), manifest.customFields, spec, debug);
}

/** Prints each problem on its own line (people; --json gets them in the error) and returns the usage error. */
export async function validationError(
  ctx: Context,
  problems: import('../manifest/validate.js').ValidationProblem[],
): Promise<UsageError> {
  const [{ problemLine }, { shownProblems }] = await Promise.all([
    import('../manifest/validate.js'),
    import('../manifest/load.js'),
  ]);
  const lines = shownProblems(problems, problemLine);
  const named = [...new Set(problems.map((p) => p.file))];
  // A directory of many files is counted, not listed: the lines above name each.
  const files = named.length <= 3 ? `${named.join(', ')} does` : `${named.length} manifest files do`;
  const summary = `${files} not match what the service declares (${problems.length} problem${problems.length === 1 ? '' : 's'}); nothing was sent`;
  if (ctx.out.json) return new UsageError(`${summary}: ${lines.join('; ')}`);
  for (const line of lines) ctx.out.info(line);
  return new UsageError(summary);
}

/**
 * Reports the failures of a step that did several things, each on its own
 * line (people only), and returns the error that ends the command: its exit
 * code is that of the first failure.
 */
export function failuresError(ctx: Context, lines: string[], errors: unknown[], summary: string): CpkError {
  if (!ctx.out.json) for (const line of lines) ctx.out.info(line);
  const first = errors[0];
  const code = first instanceof CpkError ? first.exitCode : ExitCode.FAILURE;
  const detail = ctx.out.json ? `: ${lines.map((l) => l.replace(/^cpk: /, '')).join('; ')}` : '';
  return new CpkError(`${summary}${detail}`, code);
}

export interface PlanFlags {
  prune: boolean;
  createUncertain: boolean;
  concurrency: number;
  /**
   * Leave uncertain creates uncertain instead of looking for their monitors
   * (`plan --out`: a saved plan must describe the state file as it is on
   * disk, and adopting changes it; `cpk apply` adopts).
   */
  noAdopt?: boolean;
}

/**
 * Reads every managed monitor and builds the plan, for `plan` and `apply`
 * alike: warns when every recorded monitor is gone (another account's token?),
 * and fails, saying `consequence`, when any could not be read.
 */
export async function readPlan(
  ctx: Context,
  opened: Opened,
  flags: PlanFlags,
  consequence: string,
): Promise<import('../manifest/plan.js').Plan> {
  const { manifest, state, api } = opened;
  const [{ buildPlan }, { failureLine }] = await Promise.all([
    import('../manifest/plan.js'),
    import('../manifest/render.js'),
  ]);
  const resolutions = flags.createUncertain || flags.noAdopt ? undefined : await resolveUncertainCreates(ctx, opened);
  const { plan, failures } = await ctx.out.spin('Reading managed monitors', () =>
    buildPlan(manifest, state, api, {
      prune: flags.prune,
      createUncertain: flags.createUncertain,
      concurrency: flags.concurrency,
      stop: ctx.signal,
    }),
  );
  if (resolutions) {
    plan.adopted = resolutions.flatMap((r) => (r.kind === 'adopt' ? [{ key: r.key, id: r.id, since: r.since }] : []));
    for (const r of resolutions) {
      if (r.kind !== 'several' && r.kind !== 'unsure') continue;
      const step = plan.monitors.find((s) => s.key === r.key);
      if (step?.action !== 'uncertain') continue;
      step.candidates = r.ids;
      if (r.kind === 'unsure') step.unresolved = r.why;
    }
  }
  if (plan.allRecordedGone) {
    ctx.out.warn(
      `none of the monitors ${state.path} records exists for this token (all answer 404): if the token belongs to another account, apply would create them all there`,
    );
  }
  if (failures.length > 0) {
    if (ctx.ci) await reportReadFailures(ctx.ci, manifest, failures, failureLine);
    throw failuresError(
      ctx,
      failures.map((f) => failureLine(`read ${f.key} (${f.id})`, f.error)),
      failures.map((f) => f.error),
      `could not read ${failures.length} of the monitors ${state.path} records; ${consequence}`,
    );
  }
  return plan;
}

/**
 * Before planning: looks for the monitors of uncertain creates through the
 * service's declared list (src/manifest/adopt.ts), and applies the answer to
 * the state in memory only: an adopted id is recorded, a create that made
 * nothing loses its marker (so the plan creates it again). Nothing is written
 * here: apply saves the state before it changes anything, plan never does.
 * The document is fetched only when there is an uncertain entry.
 */
async function resolveUncertainCreates(
  ctx: Context,
  opened: Opened,
): Promise<import('../manifest/adopt.js').Resolution[] | undefined> {
  const { manifest, state, api } = opened;
  const adopt = await import('../manifest/adopt.js');
  if (adopt.uncertainEntries(manifest, state).length === 0) return undefined;
  const { loadSpec } = await import('../core/api/spec.js');
  const spec = await loadSpec(api, { env: ctx.env, debug: (line) => ctx.out.debug(line) });
  if (!spec.list('monitors')) return undefined;
  const resolutions = await ctx.out.spin('Looking for the monitors of uncertain creates', () =>
    adopt.resolveUncertain(manifest, state, api, spec),
  );
  for (const r of resolutions ?? []) {
    if (r.kind === 'adopt') {
      state.setId(r.key, r.id);
      ctx.out.info(
        `found ${r.id} for entry ${r.key}, made by the uncertain create sent at ${r.since}; apply records it`,
      );
    } else if (r.kind === 'absent') {
      state.setRecord(r.key, undefined);
      ctx.out.info(
        `no monitor matches entry ${r.key}: the uncertain create sent at ${r.since} made none, so apply creates it again`,
      );
    } else if (r.kind === 'unsure') {
      ctx.out.info(`entry ${r.key} stays uncertain: ${r.why}`);
    }
    // Several, unsure: the plan shows them, and apply's error names them (src/manifest/apply.ts uncertainError).
  }
  return resolutions;
}

/** Monitors a plan could not read: each an annotation at its entry, and a failed JUnit case. */
async function reportReadFailures(
  report: import('./ci.js').CiReport,
  manifest: Manifest,
  failures: import('../manifest/plan.js').PlanFailure[],
  failureLine: (what: string, error: unknown) => string,
): Promise<void> {
  const { entryPlaces } = await import('./ci.js');
  const place = entryPlaces(manifest);
  for (const f of failures) {
    const message = failureLine(`read ${f.key} (${f.id})`, f.error);
    await report.annotate({ ...(await place('monitors', f.key)), message });
    report.add({ name: f.key, classname: 'monitors', failure: { message } });
  }
}
