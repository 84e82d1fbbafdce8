// `cpk import --all`: every monitor no key of the state manages becomes a manifest
// entry (as `monitors get --manifest` prints it, keyed by ./entry.ts keyFor) and a
// state record, so that the next plan shows no changes and a second run finds nothing to do.
import { Document, isMap, parseDocument, type YAMLMap } from 'yaml';
import { isPlainObject, parseJson, setOwn, stringifyJson, type JsonObject } from '../core/json.js';
import { idProblem } from './state.js';
import { entryFor, keyFor } from './entry.js';
import { ManifestError, parseManifest } from './positions.js';
import { exactNumberTag } from '../output/yaml.js';

export interface NewEntry {
  key: string;
  id: string;
  entry: JsonObject;
}

/** Entries, with fresh keys, for listed monitors no key manages; one that makes no valid entry is skipped (why). */
export function entriesToImport(
  items: readonly unknown[],
  managed: { has(id: string): boolean },
  takenKeys: Iterable<string>,
) {
  const taken = new Set(takenKeys);
  const seen = new Set<string>();
  const entries: NewEntry[] = [];
  const skipped: Array<{ id: string; reason: string }> = [];
  for (const item of items) {
    if (!isPlainObject(item) || typeof item.id !== 'string') continue;
    const id = item.id;
    if (managed.has(id) || seen.has(id)) continue;
    seen.add(id);
    const unusable = idProblem(id);
    if (unusable !== undefined) {
      skipped.push({ id, reason: unusable });
      continue;
    }
    // A field the service has as null says "none": left out, it is simply not compared.
    const entry: JsonObject = {};
    for (const [field, value] of Object.entries(entryFor(item))) if (value !== null) setOwn(entry, field, value);
    const key = keyFor(item, (k) => taken.has(k));
    const problem = entryProblem(key, entry);
    if (problem !== undefined) {
      skipped.push({ id, reason: problem });
      continue;
    }
    taken.add(key);
    entries.push({ key, id, entry });
  }
  return { entries, skipped };
}

/** Why an entry would make the manifest invalid, if it would (the manifest's own checks). */
function entryProblem(key: string, entry: JsonObject): string | undefined {
  const monitors: JsonObject = {};
  setOwn(monitors, key, entry);
  try {
    parseManifest(stringifyJson({ monitors }), 'entry');
    return undefined;
  } catch (error) {
    if (error instanceof ManifestError) return error.problems.map((p) => p.message).join('; ');
    throw error;
  }
}

/**
 * The manifest's text with the entries added at the end of its `monitors:`
 * section. YAML keeps its comments and layout; a manifest written as JSON
 * stays JSON. Checked by reading it back: every entry must come out as given.
 */
export function addEntries(text: string, path: string, entries: readonly NewEntry[]): string {
  let out: string;
  const json = asJson(text);
  if (json !== undefined) {
    const root: JsonObject = isPlainObject(json) ? json : {};
    const monitors: JsonObject = isPlainObject(root.monitors) ? root.monitors : {};
    for (const { key, entry } of entries) setOwn(monitors, key, entry);
    root.monitors = monitors;
    out = `${stringifyJson(root, 2)}\n`;
  } else {
    // Numbers the service holds exactly are written as it wrote them.
    const customTags = [exactNumberTag];
    const doc = parseDocument(text, { customTags });
    let monitors = doc.get('monitors', true);
    if (!isMap(monitors)) {
      doc.set('monitors', doc.createNode({}));
      monitors = doc.get('monitors', true);
    }
    const map = monitors as YAMLMap;
    const end = map.range?.[1];
    if (!map.flow && map.items.length > 0 && end !== undefined && map.range) {
      // A block section that has entries: the new ones are written after its
      // last, and nothing else of the text changes (a comment stays on its
      // line, `[a, b]` stays as written; serialising the whole document again
      // would move both).
      const column = (offset: number) => offset - (text.lastIndexOf('\n', offset - 1) + 1);
      const indent = column(map.range[0]);
      // Nested levels as the first entry has them (2 when it says nothing).
      const first = map.items[0]?.value;
      const nested = isMap(first) && !first.flow && first.range ? column(first.range[0]) - indent : 0;
      const fresh = new Document({}, { customTags });
      const added = fresh.contents as YAMLMap;
      for (const { key, entry } of entries) added.add(fresh.createPair(key, entry));
      const lines = fresh
        .toString({ flowCollectionPadding: false, indent: nested > 0 && nested <= 8 ? nested : 2 })
        .replace(/\n$/, '')
        .split('\n')
        .map((line) => (line === '' ? line : ' '.repeat(indent) + line));
      const before = text.slice(0, end);
      out = `${before}${before.endsWith('\n') ? '' : '\n'}${lines.join('\n')}\n${text.slice(end)}`;
    } else {
      // `monitors: {}` grows into a block map, one entry under another.
      if (map.items.length === 0) map.flow = false;
      for (const { key, entry } of entries) map.add(doc.createPair(key, entry));
      out = doc.toString({ flowCollectionPadding: false });
    }
  }
  const back = new Set(parseManifest(out, path).monitors.map((m) => m.key));
  for (const { key } of entries)
    if (!back.has(key)) throw new Error(`internal error: entry ${key} did not read back from the manifest`);
  return out;
}

/** The value of a manifest written as JSON; undefined for YAML (flow style included). */
function asJson(text: string): unknown {
  if (!/^\s*\{/.test(text)) return undefined;
  const parsed = parseJson(text);
  return parsed.ok ? parsed.value : undefined;
}
