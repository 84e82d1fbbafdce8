// Works out what apply would do: reads each managed monitor (GET by the id
// the state records) and compares it with the manifest. Nothing is changed.
// --prune deletes only monitors the state records under a key the manifest no longer
// names (docs/monitors-as-code.md).
import type { Api } from '../core/api/client.js';
import { ApiError } from '../core/errors.js';
import type { JsonObject } from '../core/json.js';
import { diffFields, patchOf, type FieldChange } from './diff.js';
import type { Manifest } from './load.js';
import { mapPool } from '../core/pool.js';
import type { StateStore } from './state.js';

export type MonitorStep =
  /** `replaces`: the recorded id answered 404. `uncertainSince`: re-sent with --create-uncertain. */
  | { action: 'create'; key: string; body: JsonObject; replaces?: string; uncertainSince?: string }
  | { action: 'update'; key: string; id: string; changes: FieldChange[]; patch: JsonObject }
  | { action: 'unchanged'; key: string; id: string }
  | { action: 'delete'; key: string; id: string }
  /** In the state, not in the manifest, no --prune: left alone. */
  | { action: 'orphaned'; key: string; id?: string; uncertainSince?: string }
  /**
   * An earlier create's answer never arrived: it may exist. Not created again without --create-uncertain.
   * `candidates`: the monitors a declared list showed that could be it (./adopt.ts), when more than one.
   * `unresolved`: why that list could not decide (./adopt.ts, "unsure").
   */
  | { action: 'uncertain'; key: string; uncertainSince: string; candidates?: string[]; unresolved?: string }
  /** --prune of an uncertain create the manifest no longer names: there is no id to delete, so cpk forgets it. */
  | { action: 'forget'; key: string; uncertainSince: string };

export type ChannelStep =
  | { action: 'update'; id: string; changes: FieldChange[]; patch: JsonObject }
  | { action: 'unchanged'; id: string };

export interface Plan {
  manifest: string;
  state: string;
  baseUrl: string;
  monitors: MonitorStep[];
  channels: ChannelStep[];
  /** Channels the state records and the manifest no longer names: forgotten by apply (a channel cannot be deleted). */
  droppedChannels: string[];
  /**
   * Every monitor the state records answered 404 (at least one): more likely another account's token or
   * another environment than deletions, so apply creates none of them again without --recreate-missing.
   */
  allRecordedGone: boolean;
  /** Every managed monitor read, and its body (null: 404): a saved plan is refused once one changed (./saved.ts). */
  observed: Array<{ key: string; id: string; body: JsonObject | null }>;
  /** Uncertain creates whose monitor a declared list found (./adopt.ts): apply records these ids. */
  adopted?: Array<{ key: string; id: string; since: string }>;
}

export interface PlanOptions {
  prune: boolean;
  createUncertain: boolean;
  concurrency: number;
  /** Stop reading further monitors (Ctrl-C). */
  stop?: AbortSignal | undefined;
}

const CHANGES = new Set(['create', 'update', 'delete', 'uncertain', 'forget']);
const isChange = (step: MonitorStep | ChannelStep) => CHANGES.has(step.action);

export function hasChanges(plan: Plan): boolean {
  return plan.monitors.some(isChange) || plan.channels.some(isChange) || (plan.adopted?.length ?? 0) > 0;
}

export function countSteps(plan: Plan) {
  const counts = { create: 0, update: 0, delete: 0, unchanged: 0, uncertain: 0, orphaned: 0, forget: 0 };
  for (const step of [...plan.monitors, ...plan.channels]) counts[step.action] += 1;
  return counts;
}

export async function buildPlan(manifest: Manifest, state: StateStore, api: Api, options: PlanOptions) {
  // Each at its entry's index, so that all come out in manifest order (the exit
  // code is that of the first failure there), whatever order the answers come in.
  const steps: Array<MonitorStep | undefined> = [];
  const observed: Array<Plan['observed'][number] | undefined> = [];
  const failures: Array<{ key: string; id: string; error: unknown } | undefined> = [];
  const reads: Array<{ index: number; key: string; id: string; body: JsonObject }> = [];

  manifest.monitors.forEach(({ key, body }, index) => {
    const record = state.record(key);
    if (record?.id !== undefined) reads.push({ index, key, id: record.id, body });
    else if (record?.create_started_at === undefined) steps[index] = { action: 'create', key, body };
    else if (options.createUncertain)
      steps[index] = { action: 'create', key, body, uncertainSince: record.create_started_at };
    else steps[index] = { action: 'uncertain', key, uncertainSince: record.create_started_at };
  });

  await mapPool(
    reads,
    options.concurrency,
    async ({ index, key, id, body }) => {
      try {
        const actual = await api.getMonitor(id);
        observed[index] = { key, id, body: actual };
        const changes = diffFields(actual, body);
        steps[index] =
          changes.length === 0
            ? { action: 'unchanged', key, id }
            : { action: 'update', key, id, changes, patch: patchOf(changes) };
      } catch (error) {
        // Deleted behind cpk's back: apply creates it again (and says so).
        if (error instanceof ApiError && error.status === 404) {
          observed[index] = { key, id, body: null };
          steps[index] = { action: 'create', key, body, replaces: id };
        } else failures[index] = { key, id, error };
      }
    },
    { signal: options.stop },
  );

  const monitors = steps.filter((step) => step !== undefined);
  const named = new Set(manifest.monitors.map((m) => m.key));
  for (const key of Object.keys(state.data.monitors).sort()) {
    if (named.has(key)) continue;
    const { id, create_started_at: uncertainSince } = state.record(key) ?? {};
    if (id !== undefined) monitors.push({ action: options.prune ? 'delete' : 'orphaned', key, id });
    else if (uncertainSince !== undefined)
      monitors.push(
        options.prune ? { action: 'forget', key, uncertainSince } : { action: 'orphaned', key, uncertainSince },
      );
  }

  const channels = manifest.channels.map(({ id, settings }): ChannelStep => {
    const changes = diffFields(state.applied(id) ?? {}, settings);
    return changes.length === 0
      ? { action: 'unchanged', id }
      : { action: 'update', id, changes, patch: patchOf(changes) };
  });
  const channelIds = new Set(manifest.channels.map((c) => c.id));
  const plan: Plan = {
    manifest: manifest.path,
    state: state.path,
    baseUrl: state.data.base_url,
    monitors,
    channels,
    droppedChannels: Object.keys(state.data.channels).filter((id) => !channelIds.has(id)),
    allRecordedGone: reads.length > 0 && reads.every(({ index }) => steps[index]?.action === 'create'),
    observed: observed.filter((read) => read !== undefined),
  };
  return { plan, failures: failures.filter((failure) => failure !== undefined) };
}
