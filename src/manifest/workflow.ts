// Monitors as code, one operation per command (docs/architecture.md says how the
// pieces fit). The saved-plan module (ajv and its schema) is imported where it
// is needed, so a plan that is not saved never loads it.
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../core/atomic-file.js';
import { listItems } from '../core/api/list.js';
import type { Api } from '../core/api/client.js';
import { loadSpec, useSpec, type SpecInfo } from '../core/api/spec.js';
import { ApiError, CpkError, ExitCode, InterruptedError, UsageError } from '../core/errors.js';
import { readFileText } from '../core/io.js';
import { LockHeldError, takeLock } from '../core/lock.js';
import { mapPool } from '../core/pool.js';
import { toJson } from '../output/json.js';
import type { Output } from '../output/output.js';
import { DEFAULT_CONCURRENCY } from '../parse/concurrency.js';
import * as adopt from './adopt.js';
import { applyPlan } from './apply.js';
import { addEntries, entriesToImport } from './import-all.js';
import { manifestFiles, readManifests, ManifestError, unreadableManifest, type Manifest } from './load.js';
import { buildPlan, hasChanges, type Plan, type PlanOptions as BuildOptions } from './plan.js';
import { channelJson, failureLine, monitorJson, outcomeLine, paintFor, renderPlan } from './render.js';
import { defaultStatePath, StateStore } from './state.js';
import { problemLine, validateEntries, type ValidationProblem } from './validate.js';
import { shownProblems, uniqueBy, type Problem } from './positions.js';
import type { Env } from '../core/paths.js';

export { hasChanges };

/** What the manifest flags name: -f as given (files or directories), and --state. */
export interface ManifestOptions {
  /** In order; [cpk.yaml] when none is given. */
  files: string[];
  /** undefined: beside the manifest (cpk.yaml -> cpk.state.json; DIR -> DIR/cpk.state.json). */
  state: string | undefined;
}

export type PlanOptions = ManifestOptions & BuildOptions;

/** A CI report (annotations, JUnit cases), told of problems before the error that ends the command. */
export interface WorkflowReport {
  /** Problems of the manifest: of its entries (`manifest` read), or of `file` (it could not be read). */
  problems(problems: ReadonlyArray<Problem | ValidationProblem>, manifest?: Manifest, file?: string): Promise<void>;
  /** Managed monitors the plan could not read, each with the line that says why. */
  unread(manifest: Manifest, failures: Array<{ key: string; message: string }>): Promise<void>;
}

export interface WorkflowDeps {
  out: Output;
  env: Env;
  /** Aborted on the first Ctrl-C or SIGTERM: nothing new starts. */
  signal?: AbortSignal | undefined;
  /** Builds the API client; called once the manifest is known to be valid (a bad one needs no token). */
  api(options: { many?: boolean; anonymous?: boolean }): Promise<Api>;
  /** Asks before apply changes anything (unless --yes); with `word`, only that word confirms. */
  confirm(question: string, options?: { word?: string; preview?: Record<string, unknown> }): Promise<boolean>;
  /** Whether a value is the token the client uses (a manifest's variable must never be). */
  isToken?(value: string): boolean;
  /** A digest of the token the client uses: a saved plan is bound to it. */
  tokenDigest(): Promise<string | undefined>;
  report?: WorkflowReport | undefined;
}

/** Prints each failure's line (people only); returns the error that ends the command, with the first failure's code. */
export function failuresError(out: Output, lines: string[], errors: unknown[], summary: string): CpkError {
  if (!out.json) for (const line of lines) out.info(line);
  const first = errors[0];
  const code = first instanceof CpkError ? first.exitCode : ExitCode.FAILURE;
  const detail = out.json && lines.length > 0 ? `: ${lines.map((l) => l.replace(/^cpk: /, '')).join('; ')}` : '';
  return new CpkError(`${summary}${detail}`, code);
}

/**
 * Reads the manifests; problems go to the report, and to people one line each, before the ManifestError.
 * `alsoCheck`: the entries that could be read despite problems of structure are checked against the
 * service's bodies too, so that every problem comes in one run, not in two rounds.
 */
export async function readChecked(
  files: string[],
  label: string,
  deps: WorkflowDeps,
  alsoCheck?: { refresh?: boolean },
): Promise<Manifest> {
  try {
    return await readManifests(files, label, deps.env);
  } catch (caught) {
    if (!(caught instanceof ManifestError)) throw caught;
    let error = caught;
    if (alsoCheck && error.partial) {
      const extra = await partialProblems(error.partial, deps, alsoCheck.refresh).catch(() => []);
      if (extra.length > 0) error = mergedProblems(error, files, extra);
    }
    await deps.report?.problems(error.problems, undefined, error.file);
    if (!deps.out.json) for (const line of error.lines()) deps.out.info(line);
    throw error;
  }
}

/** A `${env:NAME}` whose value is the token in use (from a profile or the keychain too): it must never be sent. */
async function refuseToken(manifest: Manifest, deps: WorkflowDeps): Promise<void> {
  const problems = (manifest.variables ?? [])
    .filter((v) => deps.isToken?.(v.value))
    .map(({ file, line, col, name }) => ({
      file,
      line,
      col,
      message: `\${env:${name}}: ${name} holds the API token, which must never be sent in a monitor's fields`,
    }));
  if (problems.length === 0) return;
  const error = new ManifestError(manifest.path, problems);
  await deps.report?.problems(error.problems, undefined, error.file);
  if (deps.out.json) throw new UsageError(`${error.message}: ${error.lines().join('; ')}`);
  for (const line of error.lines()) deps.out.info(line);
  throw error;
}

/** The service's problems with the entries of a manifest that has problems of its own (none when it cannot tell). */
async function partialProblems(partial: Manifest, deps: WorkflowDeps, refresh = false): Promise<Problem[]> {
  // The document is public: a manifest that is not valid yet needs no token to be checked.
  const api = await deps.api({ anonymous: true });
  const { problems } = await serviceProblems(partial, api, deps, refresh);
  return problems.map(({ file, line, col, message }) => ({ file, line, col, message }));
}

/** Both kinds of problem in one error, in file and position order; where structure has a problem, it alone is said. */
function mergedProblems(error: ManifestError, files: string[], extra: Problem[]): ManifestError {
  const fileOf = (p: Problem) => p.file ?? error.file;
  const place = (p: Problem) => `${fileOf(p)}\0${p.line}\0${p.col}`;
  const said = new Set(error.problems.map(place));
  const all = [
    ...error.problems.map((p) => ({ ...p, file: fileOf(p) })),
    ...uniqueBy(extra, place).filter((p) => !said.has(place(p))),
  ];
  const rank = (p: Problem) => files.indexOf(fileOf(p));
  all.sort((a, b) => rank(a) - rank(b) || a.line - b.line || a.col - b.col);
  return new ManifestError(error.file, all, error.partial);
}

/**
 * The entries against the bodies the service's public, cached document declares (asked again before
 * refusing any); a missing, invalid or unreachable one checks nothing (said under --debug).
 */
export async function serviceProblems(manifest: Manifest, api: Api, deps: WorkflowDeps, refresh = false) {
  const debug = (line: string) => deps.out.debug(line);
  const check = (spec: SpecInfo) => validateEntries(manifest, spec, debug);
  return useSpec(api, { env: deps.env, refresh, debug }, check, (checked) => checked.problems.length > 0);
}

/** Prints each problem on its own line (people; --json gets them in the error) and returns the usage error. */
export function validationError(out: Output, problems: ValidationProblem[]): UsageError {
  const lines = shownProblems(problems, problemLine);
  const named = [...new Set(problems.map((p) => p.file))];
  // A directory of many files is counted, not listed: the lines above name each.
  const files = named.length <= 3 ? `${named.join(', ')} does` : `${named.length} manifest files do`;
  const summary = `${files} not match what the service declares (${problems.length} problem${problems.length === 1 ? '' : 's'}); nothing was sent`;
  if (out.json) return new UsageError(`${summary}: ${lines.join('; ')}`);
  for (const line of lines) out.info(line);
  return new UsageError(summary);
}

/** A lock whose holder stopped refreshing it this long ago is stale (proper-lockfile refreshes every half). */
const LOCK_STALE_MS = 20_000;

/**
 * Runs `work` holding `<state>.lock` (../core/lock.ts), as Terraform locks its state: two applies at once
 * would each create the same monitors and overwrite each other's ids. Says when it waits or takes over.
 */
async function withLock<T>(
  statePath: string,
  { timeoutMs, command }: { timeoutMs: number; command: string },
  deps: WorkflowDeps,
  work: () => Promise<T>,
): Promise<T> {
  let release: () => Promise<void>;
  try {
    release = await takeLock(statePath, `${statePath}.lock`, {
      staleMs: LOCK_STALE_MS,
      timeoutMs,
      command,
      signal: deps.signal,
      onWait: (holder) =>
        deps.out.info(
          `waiting up to ${timeoutMs / 1000}s for the lock on ${statePath}${holder ? ` (held by pid ${holder.pid} on ${holder.host} since ${holder.since})` : ''}`,
        ),
      onTakeover: (holder) =>
        deps.out.warn(
          `took over the lock on ${statePath} left by pid ${holder.pid} on ${holder.host} (since ${holder.since}), which is no longer running`,
        ),
    });
  } catch (error) {
    if (error instanceof LockHeldError) {
      // Another run holds it: exit 75 (EX_TEMPFAIL of sysexits.h: try again later).
      const { holder, waitedMs } = error;
      const who = holder
        ? `cpk (pid ${holder.pid} on ${holder.host}${holder.command ? `, ${holder.command}` : ''}) since ${holder.since}`
        : 'another cpk (holder not yet recorded)';
      const waited = waitedMs < 1000 ? `${waitedMs} ms` : `${Math.round(waitedMs / 100) / 10} s`;
      throw new CpkError(
        `the state file ${statePath} is locked by ${who}${timeoutMs > 0 && waitedMs > 0 ? `; waited ${waited}` : ''}; nothing was changed`,
        ExitCode.LOCKED,
        {
          hint: `wait for it to finish, or pass --lock-timeout 5m to wait; if that process is gone, remove ${statePath}.lock`,
        },
      );
    }
    if (error instanceof CpkError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new CpkError(
      `cannot lock the state file ${statePath} (${code ?? String(error)}); nothing was changed`,
      ExitCode.FAILURE,
      { cause: error },
    );
  }
  try {
    return await work();
  } finally {
    await release();
  }
}

interface Opened {
  manifest: Manifest;
  state: StateStore;
  api: Api;
}

/** Reads and checks the manifest before anything is sent, then runs `work` with it, the API client and state. */
async function open<T>(
  opts: ManifestOptions,
  deps: WorkflowDeps,
  how: {
    /** Take the state file's lock before reading it (the commands that change the state). */
    lock?: { timeoutMs: number; command: string };
    /** Checks of the command line against the manifest, run before any request or lock (a usage error waits for no one). */
    check?: (manifest: Manifest, paths: { files: string[]; statePath: string }) => void;
    /** A manifest that does not exist yet reads as an empty one (`import --all` writes it). */
    allowMissing?: boolean;
    /** Check the entries against the bodies the service's document declares (plan, apply). */
    validate?: boolean;
  },
  work: (opened: Opened) => Promise<T>,
): Promise<T> {
  const { files, directory } = await manifestFiles(opts.files);
  // One file: beside it, as always. A directory: inside it. Several: named,
  // since which of them the state belongs to would otherwise depend on the order of -f.
  let statePath = opts.state;
  if (statePath === undefined) {
    if (directory !== undefined) statePath = join(directory, 'cpk.state.json');
    else if (opts.files.length === 1) statePath = defaultStatePath(opts.files[0]!);
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
      how.allowMissing && files.length === 1 && !existsSync(files[0]!)
        ? { path: files[0]!, monitors: [], channels: [], customFields: [], places: new Map() }
        : await readChecked(files, opts.files.join(', '), deps, how.validate ? {} : undefined);
  } catch (error) {
    // People got one line per problem; --json gets them all in the one error object.
    if (error instanceof ManifestError && deps.out.json)
      throw new UsageError(`${error.message}: ${error.lines().join('; ')}`);
    throw error;
  }
  how.check?.(manifest, { files, statePath });
  const api = await deps.api({ many: true });
  await refuseToken(manifest, deps);
  if (how.validate) {
    const { problems } = await serviceProblems(manifest, api, deps);
    if (problems.length > 0) {
      await deps.report?.problems(problems, manifest);
      throw validationError(deps.out, problems);
    }
  }
  // Locked before it is read, so this run sees everything a run before it wrote.
  const read = async () => work({ manifest, api, state: await StateStore.load(statePath, api.baseUrl) });
  return how.lock ? withLock(statePath, how.lock, deps, read) : read();
}

/**
 * Builds the plan for `plan` and `apply` alike; fails, saying `consequence`, when a monitor could not be read.
 * `adopt`: look for the monitors of uncertain creates first (not for `plan --out`: a saved plan must
 * describe the state file as it is on disk, and adopting changes it).
 */
async function readPlan(
  { manifest, state, api }: Opened,
  opts: PlanOptions,
  deps: WorkflowDeps,
  adopt: boolean,
  consequence: string,
): Promise<Plan> {
  const resolutions = opts.createUncertain || !adopt ? [] : await resolveUncertain(manifest, state, api, deps);
  const { plan, failures } = await deps.out.spin('Reading managed monitors', () =>
    buildPlan(manifest, state, api, { ...opts, stop: deps.signal }),
  );
  plan.adopted = resolutions.flatMap((r) => (r.kind === 'adopt' ? [{ key: r.key, id: r.id, since: r.since }] : []));
  for (const r of resolutions) {
    const step = plan.monitors.find((s) => s.key === r.key);
    if (r.kind !== 'unsure' || step?.action !== 'uncertain') continue;
    step.candidates = r.ids;
    if (r.why !== undefined) step.unresolved = r.why;
  }
  if (failures.length > 0) {
    const lines = failures.map((f) => failureLine(`read ${f.key} (${f.id})`, f.error));
    await deps.report?.unread(
      manifest,
      failures.map((f, i) => ({ key: f.key, message: lines[i]! })),
    );
    throw failuresError(
      deps.out,
      lines,
      failures.map((f) => f.error),
      `could not read ${failures.length} of the monitors ${state.path} records; ${consequence}`,
    );
  }
  return plan;
}

/**
 * Before planning: looks for the monitors of uncertain creates through the service's declared list
 * (./adopt.ts), and applies the answers to the state in memory only: apply saves it before it changes
 * anything, plan never does.
 */
async function resolveUncertain(manifest: Manifest, state: StateStore, api: Api, deps: WorkflowDeps) {
  if (adopt.uncertainEntries(manifest, state).length === 0) return [];
  const spec = await loadSpec(api, { env: deps.env, needAnswer: true, debug: (line) => deps.out.debug(line) });
  const resolutions = await deps.out.spin('Looking for the monitors of uncertain creates', () =>
    adopt.resolveUncertain(manifest, state, api, spec),
  );
  for (const r of resolutions) {
    if (r.kind === 'adopt') {
      state.setId(r.key, r.id);
      deps.out.info(
        `found ${r.id} for entry ${r.key}, made by the uncertain create sent at ${r.since}; apply records it`,
      );
    } else if (r.kind === 'absent') {
      state.setRecord(r.key, undefined);
      deps.out.info(
        `no monitor matches entry ${r.key}: the uncertain create sent at ${r.since} made none, so apply creates it again`,
      );
    } else if (r.why !== undefined) {
      deps.out.info(`entry ${r.key} stays uncertain: ${r.why}`);
    }
    // Unsure: the plan shows them, and apply's error names them (./apply.ts uncertainError).
  }
  return resolutions;
}

/**
 * `cpk plan`: the plan, and with `save` (--out) or `document` (--json) the
 * document of it, saved there (0600: a plan holds every body it would send).
 */
export async function planWorkflow(
  opts: PlanOptions & { save: string | undefined; document: boolean },
  deps: WorkflowDeps,
): Promise<{ plan: Plan; document: unknown; changes: boolean }> {
  const check = (_: Manifest, { files, statePath }: { files: string[]; statePath: string }) => {
    const out = opts.save === undefined ? undefined : resolve(opts.save);
    // Every file read, the ones of a directory included: a plan written over one would lose it.
    if (out !== undefined && [...files, statePath].some((file) => resolve(file) === out))
      throw new UsageError(`--out ${opts.save} is the manifest or the state file; choose another file`);
  };
  return open(opts, deps, { validate: true, check }, async (opened) => {
    const plan = await readPlan(opened, opts, deps, opts.save === undefined, 'no plan was made');
    if (plan.allRecordedGone) {
      const { text, them } = noneExists(plan);
      deps.out.warn(
        `${text}: the token may belong to another account, or the base URL to another environment; apply refuses to create ${them} again unless given --recreate-missing`,
      );
    }
    const changes = hasChanges(plan);
    if (opts.save === undefined && !opts.document) return { plan, document: undefined, changes };
    if (opts.save !== undefined && plan.monitors.some((step) => step.action === 'uncertain'))
      deps.out.warn(
        'a saved plan leaves uncertain creates as they are: run `cpk apply` (which looks for their monitors) or `cpk import KEY=ID` first',
      );
    const saved = await import('./saved.js');
    const document = saved.planDocument(plan, {
      createdAt: new Date().toISOString(),
      token: await deps.tokenDigest(),
      stateDigest: saved.stateDigest(opened.state.data),
    });
    if (opts.save !== undefined) {
      try {
        await writeFileAtomic(opts.save, `${toJson(document, 2)}\n`, { mode: 0o600 });
      } catch (error) {
        throw new CpkError(
          `cannot write the plan ${opts.save} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
          ExitCode.FAILURE,
        );
      }
    }
    return { plan, document, changes };
  });
}

export interface ApplyOptions extends PlanOptions {
  yes: boolean;
  /** Create again the monitors the state records even when none of them exists (Plan.allRecordedGone). */
  recreateMissing: boolean;
  /** ms to wait for the state file's lock (0: fail at once). */
  lockTimeoutMs: number;
  /** A plan saved by `cpk plan --out`: carry out exactly it. */
  planFile: string | undefined;
}

/** `cpk apply`: a missing manifest is the first thing to say (before --yes is asked for). */
export async function checkManifestsExist(files: readonly string[]): Promise<void> {
  for (const file of files) {
    const error = await stat(file).then(
      () => undefined,
      (error: NodeJS.ErrnoException) => error,
    );
    if (error?.code === 'ENOENT') throw unreadableManifest(file, error);
  }
}

/** `cpk apply [PLAN]`: plans (or reads the saved plan), prints it, asks, and carries it out under the state's lock. */
export async function applyWorkflow(opts: ApplyOptions, deps: WorkflowDeps) {
  if (opts.planFile !== undefined) return applySaved(opts.planFile, opts, deps);
  const lock = { timeoutMs: opts.lockTimeoutMs, command: 'cpk apply' };
  return open(opts, deps, { validate: true, lock }, async (opened) =>
    carryOut(await readPlan(opened, opts, deps, true, 'nothing was changed'), opened, opts, deps),
  );
}

/**
 * `cpk apply PLAN`: the saved plan, exactly, once it is known to hold: made
 * for this service and token, and neither the state nor any monitor it read
 * has changed since (checked under the lock, before anything is sent).
 */
async function applySaved(path: string, opts: ApplyOptions, deps: WorkflowDeps) {
  const saved = await import('./saved.js');
  const file = await saved.readSavedPlan(path);
  const api = await deps.api({ many: true });
  if (file.plan.baseUrl !== api.baseUrl)
    throw new UsageError(
      `${path} was made for ${file.plan.baseUrl}, but cpk is pointed at ${api.baseUrl}; nothing was sent`,
      { hint: 'point cpk at that service (--base-url, CPK_BASE_URL), or make a plan for this one' },
    );
  if (file.token !== ((await deps.tokenDigest()) ?? null))
    throw new UsageError(
      `${path} was made with another token (the service cannot say which account a token belongs to, so a plan is bound to its token); nothing was sent`,
      { hint: 'apply it with the token it was made with, or make the plan again with this one' },
    );
  return withLock(file.plan.state, { timeoutMs: opts.lockTimeoutMs, command: 'cpk apply' }, deps, async () => {
    const state = await StateStore.load(file.plan.state, api.baseUrl);
    const changed = await deps.out.spin('Checking that the plan still holds', () =>
      saved.changesSince(file, state.data, api, { concurrency: opts.concurrency, stop: deps.signal }),
    );
    if (deps.signal?.aborted) throw new InterruptedError();
    if (changed.length > 0) {
      const shown = changed.length > 3 ? [...changed.slice(0, 3), `${changed.length - 3} more`] : changed;
      throw new UsageError(
        `${path} is stale: since it was made (${file.createdAt}), ${shown.join(', ')}; nothing was sent`,
        { hint: `run cpk plan --out ${path} again, review it, and apply that` },
      );
    }
    return carryOut(file.plan, { state, api }, opts, deps);
  });
}

async function carryOut(
  plan: Plan,
  { state, api, manifest }: { state: StateStore; api: Api; manifest?: Manifest },
  opts: ApplyOptions,
  deps: WorkflowDeps,
) {
  const { out, signal } = deps;
  if (signal?.aborted) throw new InterruptedError();
  // Creating them all again under a token of another account would fill that
  // account and rewrite the state with its ids, leaving the real monitors unmanaged.
  if (plan.allRecordedGone && !opts.recreateMissing) {
    const { text, them } = noneExists(plan);
    throw new UsageError(`${text}; nothing was changed`, {
      hint: `the token may belong to another account, or the base URL (${plan.baseUrl}) to another environment, or the monitors were deleted elsewhere: check the token and --base-url; to create ${them} again, pass --recreate-missing`,
    });
  }
  if (!out.json) out.printRendered(renderPlan(plan, await paintFor(out)));
  if (hasChanges(plan)) {
    if (!opts.yes) {
      // A deletion cannot be undone: it takes `yes` typed in full, as `monitors delete` does.
      const deleting = plan.monitors.filter((step) => step.action === 'delete');
      const deletes = deleting.length;
      // What an agent is shown instead of the question: the plan as `cpk plan --json` gives it, the deletions named.
      const preview = {
        base_url: plan.baseUrl,
        state: plan.state,
        monitors: plan.monitors.map(monitorJson),
        channels: plan.channels.map(channelJson),
        deletes: deleting.map((step) => ({ key: step.key, id: step.id })),
      };
      const confirmed =
        deletes === 0
          ? await deps.confirm(`Apply these changes to ${plan.baseUrl}?`, { preview })
          : await deps.confirm(
              `Apply these changes to ${plan.baseUrl}, deleting ${deletes} monitor${deletes === 1 ? '' : 's'}?`,
              { word: 'yes', preview },
            );
      if (!confirmed)
        throw new UsageError(
          'apply cancelled; nothing was changed',
          deletes === 0 ? {} : { hint: 'only yes, typed in full, confirms deleting monitors' },
        );
    }
    if (signal?.aborted) throw new InterruptedError();
    for (const step of plan.monitors) {
      if (step.action === 'create' && step.replaces)
        out.warn(`monitor ${step.replaces} of "${step.key}" answers 404 (deleted outside cpk); creating it again`);
    }
  }
  if (state.recovered > 0)
    out.info(
      `recovered ${state.recovered} change${state.recovered === 1 ? '' : 's'} from ${state.journalPath}, left by a run that was cut short`,
    );
  // Written before any change: it binds a new state to this base URL, folds in
  // a journal left by a run that was cut short, and a state that cannot be
  // written stops apply before anything is sent.
  if (hasChanges(plan) || plan.droppedChannels.length > 0 || state.recovered > 0) {
    try {
      await state.save();
    } catch (error) {
      throw new CpkError(
        `cannot write the state file ${state.path} (${(error as NodeJS.ErrnoException).code ?? String(error)}); nothing was changed`,
        ExitCode.OUTPUT_FAILED,
      );
    }
  }
  for (const { key, id } of plan.adopted ?? []) out.info(`adopted ${id} for entry ${key}`);
  // One line per change on stderr, the lines of the changes that finished in
  // one turn of the event loop written together.
  let lines: string[] = [];
  let timer: ReturnType<typeof setImmediate> | undefined;
  const flush = () => {
    clearImmediate(timer);
    timer = undefined;
    if (lines.length > 0) out.info(lines.join('\n'));
    lines = [];
  };
  const { outcomes, stateErrors } = await applyPlan(plan, state, api, {
    concurrency: opts.concurrency,
    stop: signal,
    warn: (text) => out.warn(text),
    onOutcome: (outcome) => {
      if (out.json || outcome.result === 'skipped') return;
      if (outcome.result === 'done') {
        lines.push(outcomeLine(outcome));
        timer ??= setImmediate(flush);
        return;
      }
      flush();
      out.info(outcomeLine(outcome));
    },
  });
  flush();
  // `manifest`: the one the plan was made from (not for a saved plan), for annotations pointing into it.
  return { plan, outcomes, stateErrors, statePath: state.path, manifest };
}

/** The first words of plan's warning and apply's refusal when every recorded monitor answers 404. */
function noneExists(plan: Plan): { text: string; them: string } {
  const count = plan.monitors.filter((step) => step.action === 'create' && step.replaces !== undefined).length;
  if (count === 1)
    return { text: `the monitor ${plan.state} records does not exist for this token (it answers 404)`, them: 'it' };
  return {
    text: `none of the ${count} monitors ${plan.state} records exists for this token (all answer 404)`,
    them: 'them all',
  };
}

export interface ImportOptions extends ManifestOptions {
  pairs: Array<{ key: string; id: string }>;
  replace: boolean;
  lockTimeoutMs: number;
}

/** `cpk import KEY=ID...`: records each id for its key, all or nothing (every id must answer first). */
export async function importWorkflow(opts: ImportOptions, deps: WorkflowDeps) {
  const lock = { timeoutMs: opts.lockTimeoutMs, command: 'cpk import' };
  const check = (manifest: Manifest) => {
    const keys = new Set(manifest.monitors.map((m) => m.key));
    // Only keys the manifest names: a key it does not name would be deleted by the next apply --prune.
    for (const { key, id } of opts.pairs) {
      if (!keys.has(key)) {
        throw new UsageError(`"${key}" is not a monitor key in ${manifest.path}; add the entry first`, {
          hint: `\`cpk monitors get ${id} --manifest\` prints one`,
        });
      }
    }
  };
  return open(opts, deps, { lock, check }, async ({ manifest, state, api }) => {
    const todo: Array<{ key: string; id: string }> = [];
    const owners = state.owners();
    for (const { key, id } of opts.pairs) {
      const owner = owners.get(id);
      if (owner !== undefined && owner !== key)
        throw new UsageError(`monitor ${id} is already managed as "${owner}" in ${state.path}`);
      const current = state.record(key)?.id;
      if (current !== undefined && current !== id && !opts.replace) {
        throw new UsageError(`"${key}" already manages ${current} in ${state.path}`, {
          hint: `pass --replace to manage ${id} instead (${current} is left alone)`,
        });
      }
      if (current !== id) todo.push({ key, id });
    }
    const checked = await deps.out.spin('Checking monitors', () =>
      mapPool(todo, DEFAULT_CONCURRENCY, ({ id }) => api.getMonitor(id), { signal: deps.signal }),
    );
    // A check never made (interrupted) is no answer either way.
    if (deps.signal?.aborted || checked.includes(undefined)) throw new InterruptedError();
    const errors = todo.flatMap((pair, i) => (checked[i]?.ok === false ? [{ ...pair, error: checked[i].error }] : []));
    if (errors.length > 0) {
      throw failuresError(
        deps.out,
        errors.map((e) => failureLine(`${e.key}=${e.id}`, e.error)),
        errors.map((e) => e.error),
        errors.some((e) => e.error instanceof ApiError && e.error.status === 404)
          ? 'a monitor to import does not exist; nothing was imported'
          : 'could not check the monitors to import; nothing was imported',
      );
    }
    for (const { key, id } of todo) state.setId(key, id);
    if (todo.length > 0) await state.save();
    return { manifest: manifest.path, state: state.path, changed: new Set(todo.map((t) => t.key)) };
  });
}

/** `cpk import --all`: a manifest entry and a state record for every monitor no key manages. */
export async function importAllWorkflow(opts: ImportOptions, deps: WorkflowDeps) {
  const lock = { timeoutMs: opts.lockTimeoutMs, command: 'cpk import' };
  return open(opts, deps, { lock, allowMissing: true }, async ({ manifest, state, api }) => {
    const uncertain = adopt.uncertainEntries(manifest, state);
    if (uncertain.length > 0) {
      // Its monitor may be in the list: imported as a new entry, it would be managed twice.
      const keys = uncertain.map((u) => u.key);
      throw new UsageError(
        `${keys.length === 1 ? `"${keys[0]}" has` : `${keys.length} entries have`} an uncertain create in ${state.path}; nothing was imported`,
        { hint: 'run cpk apply first (it resolves them), or adopt each with `cpk import KEY=ID`' },
      );
    }
    const debug = (line: string) => deps.out.debug(line);
    const op = await useSpec(
      api,
      { env: deps.env, needAnswer: true, debug },
      (spec) => spec.list('monitors'),
      (op) => !op,
    );
    if (!op) {
      throw new UsageError(
        `cpk import --all needs the service's list of monitors, and its document (${api.baseUrl}/openapi.json) declares none; nothing was imported`,
        { hint: 'adopt monitors one by one with `cpk import KEY=ID`' },
      );
    }
    const items: unknown[] = [];
    await deps.out.spin('Listing monitors', async () => {
      for await (const page of listItems(api, op, { params: [] })) {
        if (deps.signal?.aborted) throw new InterruptedError();
        for (const item of page) items.push(item);
      }
    });
    const taken = [...manifest.monitors.map((m) => m.key), ...Object.keys(state.data.monitors)];
    const { entries, skipped } = entriesToImport(items, state.owners(), taken);
    for (const { id, reason } of skipped) deps.out.warn(`${id} is not imported: ${reason}`);
    if (entries.length > 0) {
      let text = '';
      try {
        text = readFileText(manifest.path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw unreadableManifest(manifest.path, error);
      }
      // The manifest first, then the state: a run cut short in between leaves
      // entries without ids, which apply would create again (a duplicate, never
      // a deletion), rather than ids without entries, which --prune would delete.
      try {
        await writeFileAtomic(manifest.path, addEntries(text, manifest.path, entries));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === undefined) throw error;
        throw new UsageError(`cannot write the manifest ${manifest.path} (${code}); nothing was imported`);
      }
      for (const { key, id } of entries) state.setId(key, id);
      await state.save();
    }
    return { manifest: manifest.path, state: state.path, entries, skipped };
  });
}
