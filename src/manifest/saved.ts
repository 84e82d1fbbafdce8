// Saved plans (`cpk plan --out FILE`, `cpk apply FILE`), and the
// document `cpk plan -o json` prints: the same thing, versioned, described by
// schema/plan.schema.json. A plan records digests of what it read (the state,
// each managed monitor's body) so that apply can refuse it once either has
// changed: the plan a reviewer approved is then no longer what would happen.
import { createHash } from 'node:crypto';
import { Ajv } from 'ajv';
import schema from '../../schema/plan.schema.json' with { type: 'json' };
import type { Api } from '../core/api/client.js';
import { ApiError, UsageError } from '../core/errors.js';
import { readFileText, whyUnreadable } from '../core/io.js';
import { describeJsonError, isPlainObject, parseUserJson, setOwn, type JsonObject } from '../core/json.js';
import { toJson } from '../output/json.js';
import { mapPool } from '../core/pool.js';
import { patchOf, type FieldChange } from './diff.js';
import { countSteps, hasChanges, type ChannelStep, type MonitorStep, type Plan } from './plan.js';
import { adoptedJson, channelJson, monitorJson } from './render.js';
import { serializeState, type StateData } from './state.js';

export const PLAN_VERSION = 1;

/** Fields the service changes by itself as it checks a monitor: not a change of the monitor. */
const VOLATILE = new Set(['status', 'last_check']);

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (!isPlainObject(value)) return value;
  const out: JsonObject = {};
  for (const key of Object.keys(value).sort()) setOwn(out, key, sorted(value[key]));
  return out;
}

function digest(text: string): string {
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** A monitor body's digest: keys sorted, status and last_check left out. */
export function monitorDigest(body: JsonObject): string {
  const kept: JsonObject = {};
  for (const [field, value] of Object.entries(body)) if (!VOLATILE.has(field)) setOwn(kept, field, value);
  return digest(toJson(sorted(kept), 0));
}

/** The state's digest, as it would be written (a journal replayed onto it included). */
export function stateDigest(data: StateData): string {
  return digest(serializeState(data));
}

/** The plan as `cpk plan -o json` prints it and `--out` saves it (schema/plan.schema.json); `token`: Context.tokenDigest(). */
export function planDocument(plan: Plan, meta: { createdAt: string; token: string | undefined; stateDigest: string }) {
  return {
    version: PLAN_VERSION,
    created_at: meta.createdAt,
    manifest: plan.manifest,
    state: plan.state,
    base_url: plan.baseUrl,
    token: meta.token ?? null,
    changes: hasChanges(plan),
    ...adoptedJson(plan),
    monitors: plan.monitors.map(monitorJson),
    channels: plan.channels.map(channelJson),
    dropped_channels: plan.droppedChannels,
    summary: countSteps(plan),
    fingerprints: {
      state: meta.stateDigest,
      monitors: plan.observed.map(({ key, id, body }) => ({ key, id, digest: body ? monitorDigest(body) : null })),
    },
  };
}

function notAPlan(path: string, what: string): UsageError {
  return new UsageError(`${path} is not a cpk plan: ${what}; nothing was sent`, {
    hint: 'make one with cpk plan --out FILE',
  });
}

/** Reads and checks a saved plan (exit 2 for anything but a plan of this version). */
export async function readSavedPlan(path: string) {
  let text: string;
  try {
    text = readFileText(path);
  } catch (error) {
    throw new UsageError(`cannot read the plan ${path}${whyUnreadable(error)}; nothing was sent`);
  }
  let raw: unknown;
  try {
    raw = parseUserJson(text);
  } catch (error) {
    throw notAPlan(path, `it ${describeJsonError(text, error)}`);
  }
  if (!isPlainObject(raw)) throw notAPlan(path, 'not a JSON object');
  if (typeof raw.version === 'number' && raw.version !== PLAN_VERSION) {
    throw new UsageError(
      `${path} is a plan of format version ${raw.version}, and this cpk reads version ${PLAN_VERSION}; nothing was sent`,
      { hint: 'make the plan again with this cpk (cpk plan --out FILE)' },
    );
  }
  // A plan is read once per run: the schema is compiled where it is used, and the first error is the one told.
  const valid = new Ajv({ allowUnionTypes: true, strict: false }).compile(schema);
  const error = valid(raw) ? undefined : valid.errors?.[0];
  if (error) {
    const where = error.instancePath === '' ? 'the plan' : error.instancePath.slice(1).replace(/\//g, '.');
    throw notAPlan(path, `${where} ${error.message ?? `fails ${error.keyword}`}`);
  }
  // The schema checked its shape.
  const doc = raw as ReturnType<typeof planDocument>;
  const plan: Plan = {
    manifest: doc.manifest,
    state: doc.state,
    baseUrl: doc.base_url,
    monitors: doc.monitors.map((step) => stepOf<MonitorStep>(step)),
    channels: doc.channels.map((step) => stepOf<ChannelStep>(step)),
    droppedChannels: doc.dropped_channels,
    // What it read answers 404 again, or the plan is stale (changesSince): the same rule as a plan made now.
    allRecordedGone:
      doc.fingerprints.monitors.length > 0 && doc.fingerprints.monitors.every((read) => read.digest === null),
    observed: [],
  };
  return {
    plan,
    createdAt: doc.created_at,
    token: doc.token,
    stateDigest: doc.fingerprints.state,
    observed: doc.fingerprints.monitors,
  };
}

export type SavedPlan = Awaited<ReturnType<typeof readSavedPlan>>;

/**
 * A step of the document back into the step apply carries out: the schema
 * checked its shape (and allows no other field), so each field maps to its own.
 */
function stepOf<T extends MonitorStep | ChannelStep>(step: JsonObject): T {
  const out: JsonObject = {};
  for (const [field, value] of Object.entries(step)) {
    if (field === 'uncertain_since') out.uncertainSince = value;
    else setOwn(out, field, value);
    if (field === 'changes') out.patch = patchOf(value as FieldChange[]);
  }
  return out as unknown as T;
}

/**
 * What changed since the plan was made: the state, and each monitor it read
 * (GET again). Empty when the plan still holds. A read that fails for another
 * reason than 404 fails the command (nothing is sent).
 */
export async function changesSince(
  saved: SavedPlan,
  state: StateData,
  api: Api,
  options: { concurrency: number; stop?: AbortSignal | undefined },
): Promise<string[]> {
  const found: string[] = [];
  if (stateDigest(state) !== saved.stateDigest) found.push(`the state file ${saved.plan.state} changed`);
  // In the plan's order, whatever order the answers come in.
  const reads = await mapPool(
    saved.observed,
    options.concurrency,
    async ({ key, id, digest: before }) => {
      const now = await api.getMonitor(id).then(monitorDigest, (error: unknown) => {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      });
      if (now === before) return undefined;
      const what = before === null ? 'answers again' : now === null ? 'was deleted' : 'changed';
      return `monitor ${key} (${id}) ${what}`;
    },
    { signal: options.stop },
  );
  for (const read of reads) if (read?.ok === false) throw read.error;
  for (const read of reads) if (read?.ok && read.value !== undefined) found.push(read.value);
  return found;
}
