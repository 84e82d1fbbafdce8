// Carries a plan out, keeping the state file true to what happened after
// every single change (docs/monitors-as-code.md, "Monitors as code": what cpk guarantees).
//
// Creates, updates and channel settings run first, `concurrency` at a time;
// deletes (--prune) run last, so a renamed key never leaves a gap with no
// monitor. Once `stop` aborts (Ctrl-C, SIGTERM) nothing new starts; what was
// already sent is waited for by the caller's bound and recorded.
import type { Api } from '../core/api/client.js';
import { ApiError, AuthError, CpkError, ExitCode, NetworkError, UsageError } from '../core/errors.js';
import { setOwn, type JsonObject } from '../core/json.js';
import type { ChannelStep, MonitorStep, Plan } from './plan.js';
import { mapPool } from '../core/pool.js';
import { idProblem, type MonitorRecord, type StateStore } from './state.js';

export type Step = { kind: 'monitor'; step: MonitorStep } | { kind: 'channel'; step: ChannelStep };
type CreateStep = Extract<MonitorStep, { action: 'create' }>;

export type Outcome = Step & {
  result: 'done' | 'failed' | 'skipped';
  /** The monitor id after the step (the new one for a create). */
  id?: string | undefined;
  /** E.g. "already gone" for a delete answered 404. */
  note?: string | undefined;
  error?: unknown;
};

export interface ApplyOptions {
  concurrency: number;
  stop?: AbortSignal | undefined;
  onOutcome?: (outcome: Outcome) => void;
  /** Told when the journal cannot be compacted into the state file at the end (it stays, and the next run reads it). */
  warn?: (text: string) => void;
}

function settleHint(key: string, subject: string): string {
  return `if ${subject} exists, adopt it with \`cpk import ${key}=ID\`; if not, run apply with --create-uncertain`;
}

/** A create whose answer never arrived: the monitor may exist, and the state says so. */
function uncertainCreateError(key: string, cause: unknown, statePath: string): CpkError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new CpkError(
    `${reason}; the create may have reached the service, so ${statePath} marks "${key}" as uncertain`,
    cause instanceof CpkError ? cause.exitCode : ExitCode.FAILURE,
    { cause, hint: settleHint(key, 'the monitor') },
  );
}

/**
 * A create sent earlier whose outcome is unknown: not sent again without --create-uncertain.
 * `candidates`: the monitors a declared list showed that could be the one it made (./adopt.ts).
 */
export function uncertainError(key: string, since: string, candidates: readonly string[] = [], unresolved?: string) {
  const sent = `a create of "${key}" sent at ${since} never got its answer recorded`;
  if (unresolved !== undefined) {
    const which = candidates.length > 0 ? ` (it could be ${candidates.join(', ')})` : '';
    return new CpkError(`${sent}, and ${unresolved}${which}`, ExitCode.FAILURE, {
      hint: settleHint(key, 'its monitor'),
    });
  }
  if (candidates.length === 0)
    return new CpkError(
      `${sent}, so the monitor may already exist (the service cannot list monitors)`,
      ExitCode.FAILURE,
      { hint: settleHint(key, 'it') },
    );
  const which =
    candidates.length === 1
      ? `monitor ${candidates[0]} could be the one it made, but it could also be that of another uncertain entry`
      : `${candidates.length} monitors could be the one it made: ${candidates.join(', ')}`;
  return new CpkError(`${sent}, and ${which}`, ExitCode.FAILURE, {
    hint: `adopt the right one with \`cpk import ${key}=${candidates[0]}\` (or another of them); if none is, run apply with --create-uncertain`,
  });
}

/**
 * Whether a failed create certainly made nothing: the service refused it, or no byte of it left. A gateway's
 * 502 or 504 may have passed it on: unknown, as are timeouts, resets, cut-short answers and interruptions.
 */
export function certainlyNotCreated(error: unknown): boolean {
  if (error instanceof UsageError || error instanceof AuthError) return true;
  if (error instanceof ApiError) return error.status >= 300 && error.status !== 502 && error.status !== 504;
  if (error instanceof NetworkError) return !error.mayHaveReachedServer;
  return false;
}

/** The state file or its journal could not be written (full disk, file-size limit): EX_IOERR, as for stdout. */
function stateWriteError(statePath: string, error: unknown, what: string, hint?: string): CpkError {
  const code = (error as NodeJS.ErrnoException).code;
  return new CpkError(
    `cannot write the state file ${statePath} (${code ?? String(error)}): ${what}`,
    ExitCode.OUTPUT_FAILED,
    {
      cause: error,
      ...(hint === undefined ? {} : { hint }),
    },
  );
}

/**
 * Markers written per fsync, as a multiple of the concurrency. A run killed at the worst moment leaves at most
 * (MARK_AHEAD + 2) x concurrency creates uncertain: those in flight, those marked not yet started, a new chunk.
 */
export const MARK_AHEAD = 4;

export async function applyPlan(plan: Plan, state: StateStore, api: Api, options: ApplyOptions) {
  const outcomes: Outcome[] = [];
  /** Failed writes of the state, in order, each naming what it left unrecorded: a run with any is not a success. */
  const stateErrors: CpkError[] = [];
  // A state file that can no longer be written stops everything: carrying on would make changes cpk cannot record.
  const halt = new AbortController();
  const stop = options.stop ? AbortSignal.any([options.stop, halt.signal]) : halt.signal;
  const report = (outcome: Outcome) => {
    outcomes.push(outcome);
    options.onOutcome?.(outcome);
  };

  /** Appends the changes so far to the journal (durable: fsynced first); see ./state.ts. */
  const commit = async (what: string, durable = false) => {
    try {
      await state.commit(durable);
    } catch (error) {
      halt.abort();
      const failure = stateWriteError(state.journalPath, error, what);
      if (!stateErrors.some((e) => e.cause === error)) stateErrors.push(failure);
      throw failure;
    }
  };

  // Markers are written ahead in chunks, one fsync each, so that creates leave without waiting for an fsync of
  // their own (docs/monitors-as-code.md, "What cpk guarantees when a run is cut short"); a request still never
  // leaves before its marker is on disk, and a marked create that never started is unmarked at the end.
  const creates = plan.monitors.filter((step): step is CreateStep => step.action === 'create');
  const position = new Map(creates.map((step, i) => [step, i]));
  const ready: Array<Promise<void>> = [];
  const previous: Array<MonitorRecord | undefined> = [];
  const sent = new Set<number>();
  let marked = 0;
  const markAhead = (upTo: number) => {
    const end = Math.min(upTo, creates.length);
    if (marked >= end || stop.aborted) return;
    const from = marked;
    for (; marked < end; marked++) {
      const { key, body } = creates[marked] as CreateStep;
      previous[marked] = state.record(key);
      state.markCreating(key, body);
    }
    const keys = creates.slice(from, end).map((c) => `"${c.key}"`);
    const written = commit(`nothing was sent for ${keys.length === 1 ? keys[0] : `${keys.length} creates`}`, true);
    written.catch(() => {}); // awaited by each create; one never started must not make an unhandled rejection
    for (let i = from; i < end; i++) ready[i] = written;
  };

  /** Which key each recorded id belongs to: an id the service gives twice is recorded once. */
  const owners = state.owners();
  const idWrites: Array<Promise<void>> = [];
  /** Ids not written (each also in stateErrors, through commit): told one per line, with the import that records it. */
  const idFailures: CpkError[] = [];
  const createMonitor = async (step: CreateStep): Promise<Outcome> => {
    const index = position.get(step) as number;
    if (marked - index <= options.concurrency) markAhead(marked + MARK_AHEAD * options.concurrency);
    sent.add(index);
    const restore = () => state.setRecord(step.key, previous[index]);
    // Write-ahead: the marker is on disk (fsynced) before the request leaves.
    const written = ready[index];
    if (written === undefined) return { kind: 'monitor', step, result: 'skipped' };
    await written;
    if (stop.aborted) {
      // Interrupted while the marker was written: this create has not left yet, and now will not.
      restore();
      await commit(`it marks "${step.key}" as uncertain, but nothing was sent`);
      return { kind: 'monitor', step, result: 'skipped' };
    }
    let id: string;
    try {
      id = (await api.createMonitor(step.body)).id;
    } catch (error) {
      if (!certainlyNotCreated(error)) throw uncertainCreateError(step.key, error, state.path);
      restore();
      await commit(`it still marks "${step.key}" as uncertain, but the service refused the create`);
      throw error;
    }
    // By the rule the state file's reader applies (./state.ts): a path segment cpk can send, and one key per id.
    const owner = owners.get(id);
    const unusable =
      idProblem(id) ?? (owner !== undefined && owner !== step.key ? `${id}, which "${owner}" already has` : undefined);
    if (unusable !== undefined) {
      // A monitor may well have been made, but this id cannot name it: the marker stays.
      throw new CpkError(
        `the service answered the create of "${step.key}" with an id cpk cannot record (${unusable}); ${state.path} keeps "${step.key}" marked as uncertain`,
        ExitCode.FAILURE,
        { hint: settleHint(step.key, 'the monitor') },
      );
    }
    owners.set(id, step.key);
    state.setId(step.key, id);
    // Written to the journal at once, but not waited for here: the next create
    // of this worker need not wait behind another batch's fsync. A failure
    // to write it is reported at the end (compaction writes the id anyway).
    idWrites.push(
      commit(`monitor "${step.key}" was created as ${id}`).catch((error: unknown) => {
        idFailures.push(
          stateWriteError(
            state.journalPath,
            (error as Error).cause,
            `monitor "${step.key}" was created as ${id}`,
            `record it with \`cpk import ${step.key}=${id}\``,
          ),
        );
      }),
    );
    return { kind: 'monitor', step, result: 'done', id };
  };

  const run = async (item: Step): Promise<Outcome> => {
    if (item.kind === 'channel') {
      const step = item.step;
      if (step.action !== 'update') return { ...item, result: 'done' };
      // An answer of {"ok": false} is refused by the API layer (Api.updateChannel).
      await api.updateChannel(step.id, step.patch);
      const applied: JsonObject = { ...state.applied(step.id) };
      for (const [field, value] of Object.entries(step.patch)) setOwn(applied, field, value);
      state.setApplied(step.id, applied);
      await commit(`channel ${step.id} was updated, but the next apply will send the same settings again`);
      return { ...item, result: 'done' };
    }
    const step = item.step;
    switch (step.action) {
      case 'create':
        return createMonitor(step);
      case 'update':
        await api.updateMonitor(step.id, step.patch);
        return { ...item, result: 'done', id: step.id };
      case 'delete': {
        let note: string | undefined;
        try {
          await api.deleteMonitor(step.id);
        } catch (error) {
          if (!(error instanceof ApiError && error.status === 404)) throw error;
          note = 'already gone';
        }
        state.setRecord(step.key, undefined);
        await commit(`monitor ${step.id} of "${step.key}" was deleted, but the state still names it`);
        return { ...item, result: 'done', id: step.id, note };
      }
      case 'forget':
        state.setRecord(step.key, undefined);
        await commit(`"${step.key}" is still marked as uncertain`);
        return { ...item, result: 'done' };
      case 'uncertain':
        throw uncertainError(step.key, step.uncertainSince, step.candidates, step.unresolved);
      default:
        return { ...item, result: 'done' };
    }
  };

  const attempt = async (item: Step) => {
    try {
      report(await run(item));
    } catch (error) {
      report({
        ...item,
        result: 'failed',
        error,
        id: item.kind === 'monitor' && 'id' in item.step ? item.step.id : undefined,
      });
    }
  };

  const first: Step[] = [];
  const last: Step[] = [];
  for (const step of plan.monitors) {
    if (step.action === 'delete' || step.action === 'forget') last.push({ kind: 'monitor', step });
    else if (step.action === 'create' || step.action === 'update' || step.action === 'uncertain')
      first.push({ kind: 'monitor', step });
  }
  for (const step of plan.channels) if (step.action === 'update') first.push({ kind: 'channel', step });

  await mapPool(first, options.concurrency, attempt, { signal: stop });
  // Marked ahead, never sent: not uncertain.
  let unmarked = false;
  for (let i = 0; i < marked; i++) {
    if (sent.has(i)) continue;
    state.setRecord((creates[i] as MonitorStep).key, previous[i]);
    unmarked = true;
  }
  if (unmarked) await commit('it marks creates that were never sent as uncertain').catch(() => {}); // in stateErrors
  await mapPool(last, options.concurrency, attempt, { signal: stop });
  await Promise.all(idWrites);
  for (const error of idFailures) options.warn?.(`${error.message}; ${error.hint ?? ''}`);

  if (!stop.aborted && plan.droppedChannels.length > 0) {
    for (const id of plan.droppedChannels) state.forgetChannel(id);
    await commit('it still records channels the manifest no longer names').catch(() => {}); // in stateErrors
  }
  // The journal of this run, compacted into the state file: one rewrite per run, not one per change.
  if (first.length + last.length > 0 || plan.droppedChannels.length > 0) {
    try {
      await state.save();
    } catch (error) {
      // The journal holds everything, but only beside this state file: a
      // state committed to version control from here would miss this run's ids.
      const failure = stateWriteError(
        state.path,
        error,
        `${state.journalPath} keeps what was done, and the next run here reads it`,
      );
      options.warn?.(failure.message);
      stateErrors.push(failure);
    }
  }
  // Steps never started (interrupted, or the state could not be written) are reported as skipped.
  const started = new Set(outcomes.map((o) => o.step));
  for (const item of [...first, ...last]) if (!started.has(item.step)) report({ ...item, result: 'skipped' });
  return { outcomes, stateErrors };
}
