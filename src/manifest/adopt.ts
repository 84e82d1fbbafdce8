// Uncertain creates that resolve themselves, by the rule docs/monitors-as-code.md
// states ("Where the service declares a list of monitors"): one monitor found is
// adopted, none means the create is sent again, anything else stays uncertain.
import type { Api } from '../core/api/client.js';
import { listItems } from '../core/api/list.js';
import type { ListOperation, SpecInfo } from '../core/api/spec.js';
import { isPlainObject, type JsonObject } from '../core/json.js';
import { covers } from './diff.js';
import type { Manifest } from './load.js';
import { idProblem, type StateStore } from './state.js';

/** How far the service's clock may run behind ours and a monitor still count as made by the marked create. */
export const CLOCK_SKEW_MS = 60_000;

/** The create fields the interface itself documents (service-interface.md, section 2). */
const INTERFACE_CREATE_FIELDS = ['name', 'type', 'target', 'interval_seconds'];

export type Resolution =
  | { kind: 'adopt'; key: string; since: string; id: string }
  | { kind: 'absent'; key: string; since: string }
  /** Stays uncertain: `ids` could be its monitor (several, or one another entry could have made), or `why` not. */
  | { kind: 'unsure'; key: string; since: string; ids: string[]; why?: string };

/**
 * The uncertain entries of a manifest: keys it names whose state record has a marker and no id. `body`: what
 * the create sent, or (a marker without it, `sent` false) the entry as it reads now.
 */
export function uncertainEntries(manifest: Manifest, state: StateStore) {
  return manifest.monitors.flatMap(({ key, body }) => {
    const record = state.record(key);
    if (record?.id !== undefined || record?.create_started_at === undefined) return [];
    const sent = record.create_body !== undefined;
    return [{ key, body: record.create_body ?? body, sent, since: record.create_started_at }];
  });
}

/** The fields of an entry that say which monitor it is: those the service declares for a create. */
export function matchFields(spec: SpecInfo, body: JsonObject): JsonObject {
  const declared = spec.body('create');
  const names = declared
    ? declared.fields.filter((f) => !declared.readOnly.includes(f.name)).map((f) => f.name)
    : INTERFACE_CREATE_FIELDS;
  const out: JsonObject = {};
  for (const name of names) if (Object.hasOwn(body, name)) out[name] = body[name];
  return out;
}

/** The query parameters of the list that narrow the search for an entry: declared ones naming a field it sets. */
export function narrowingParams(op: ListOperation, fields: JsonObject): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const param of op.userParams) {
    if (param.name === op.pagination.limitParam || !Object.hasOwn(fields, param.name)) continue;
    const value = fields[param.name];
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
    if (param.enum && !param.enum.includes(value)) continue;
    out.push([param.name, String(value)]);
  }
  return out;
}

/** Whether a listed monitor may be the one an entry's create made (fields, then creation time). */
export function isCandidate(
  item: JsonObject,
  fields: JsonObject,
  since: string,
  createdField: string | undefined,
  /** How far our clock runs ahead of the service's now, as far as its Date header shows (ms, >= 0). */
  ahead = 0,
): boolean {
  for (const [name, value] of Object.entries(fields)) {
    if (!Object.hasOwn(item, name) || !covers(item[name], value)) return false;
  }
  if (createdField === undefined) return true;
  const created = item[createdField];
  const marker = Date.parse(since);
  const at = typeof created === 'string' ? Date.parse(created) : NaN;
  // A time cpk cannot read does not rule the monitor out: better reported than created twice.
  if (Number.isNaN(marker) || Number.isNaN(at)) return true;
  return at >= marker - CLOCK_SKEW_MS - ahead;
}

/** Looks for the monitor each uncertain entry's create may have made; changes nothing. */
export async function resolveUncertain(manifest: Manifest, state: StateStore, api: Api, spec: SpecInfo) {
  const uncertain = uncertainEntries(manifest, state);
  const op = spec.list('monitors');
  if (uncertain.length === 0 || !op) return [];
  const createdField = spec.itemFields('monitors')?.includes('created_at') ? 'created_at' : undefined;
  const managed = state.owners();

  // One listing per distinct set of narrowing parameters (the uncertain entries are few: at most --concurrency).
  const wanted = uncertain.map((entry) => {
    const fields = matchFields(spec, entry.body);
    const params = narrowingParams(op, fields);
    return { ...entry, fields, params, group: JSON.stringify(params), ids: [] as string[], future: '' };
  });
  // The service's clock, from the Date header of its answers (our own where it sends none).
  let serviceNow: number | undefined;
  const onHeaders = (headers: Record<string, string>) => {
    const date = headers.date === undefined ? NaN : Date.parse(headers.date);
    if (!Number.isNaN(date)) serviceNow = date;
  };
  const groups = new Map<string, Array<[string, string]>>();
  for (const w of wanted) groups.set(w.group, w.params);
  for (const [group, params] of groups) {
    const members = wanted.filter((w) => w.group === group);
    for await (const page of listItems(api, op, { params, onHeaders })) {
      const now = serviceNow ?? Date.now();
      const ahead = Math.max(0, Date.now() - now);
      for (const w of members) {
        // Later than the service's now even once our clock's lead over it is taken off.
        const marker = Date.parse(w.since);
        if (marker - ahead > now + CLOCK_SKEW_MS) w.future = new Date(now).toISOString();
      }
      for (const item of page) {
        // Only a monitor no key manages, whose id the state can hold.
        if (!isPlainObject(item) || typeof item.id !== 'string' || managed.has(item.id)) continue;
        if (idProblem(item.id) !== undefined) continue;
        for (const w of members) {
          // A marker later than the service's now: creation times cannot rule a monitor out.
          const created = w.future === '' ? createdField : undefined;
          if (isCandidate(item, w.fields, w.since, created, ahead)) w.ids.push(item.id);
        }
      }
    }
  }
  // A monitor that could be the one of two entries is neither's to take.
  const claims = new Map<string, number>();
  for (const w of wanted) for (const id of new Set(w.ids)) claims.set(id, (claims.get(id) ?? 0) + 1);
  return wanted.map(({ key, since, ids: found, sent, future }): Resolution => {
    const ids = [...new Set(found)];
    let why: string | undefined;
    if (future !== '')
      why = `its marker is later than the service's clock (${future}) by more than ${CLOCK_SKEW_MS / 1000} s (written by a clock that ran ahead), so creation times cannot tell which monitor it made`;
    else if (ids.length === 0 && !sent)
      why =
        'no monitor matches the entry as it reads now, but its marker (written by an older cpk) does not keep what was sent, and the entry may have been edited since';
    if (why !== undefined) return { kind: 'unsure', key, since, ids, why };
    if (ids.length === 0) return { kind: 'absent', key, since };
    if (ids.length === 1 && claims.get(ids[0] as string) === 1)
      return { kind: 'adopt', key, since, id: ids[0] as string };
    return { kind: 'unsure', key, since, ids };
  });
}
