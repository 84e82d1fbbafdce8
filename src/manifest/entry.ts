// A monitor as the service returns it, turned into a manifest entry
// (`cpk monitors get ID --manifest`), so a team can start a cpk.yaml from the
// monitors it already has and adopt them with `cpk import KEY=ID`.
import { isPlainObject, setOwn, type JsonObject } from '../core/json.js';

/**
 * Fields the service sets: never part of a manifest (the schema refuses them).
 * The interface documents id and status; the rest are the emulator's.
 */
export const SERVER_OWNED_FIELDS = ['id', 'status', 'created_at', 'updated_at', 'last_check', 'report_id'];

/** 60 -> 1m, 90 -> 1m30s, 3600 -> 1h: the form --interval and the manifest read back to the same seconds. */
export function formatDuration(seconds: number): string {
  const parts: Array<[number, string]> = [
    [Math.floor(seconds / 86400), 'd'],
    [Math.floor(seconds / 3600) % 24, 'h'],
    [Math.floor(seconds / 60) % 60, 'm'],
    [seconds % 60, 's'],
  ];
  return (
    parts
      .filter(([n]) => n > 0)
      .map(([n, unit]) => `${n}${unit}`)
      .join('') || '0'
  );
}

/** Latin letters NFKD does not split into a base letter and an accent, spelt as German and Nordic writers do. */
const LATIN: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', ł: 'l', þ: 'th', ı: 'i' };
/** Keys stay short enough for a line of a manifest: cut at a word boundary at or before this. */
const KEY_LENGTH = 40;

/**
 * A manifest key from a monitor's name: "Checkout API" -> checkout-api, "Größe" -> groesse (umlauts as
 * German spells them without), at most KEY_LENGTH characters, cut between words. A name in another
 * script (東京) gives the id instead: a key from its Latin part alone would read as another monitor's.
 * Made unique with -2, -3... against the keys `taken` says are used.
 */
export function keyFor(monitor: JsonObject, taken: (key: string) => boolean = () => false): string {
  const name = typeof monitor.name === 'string' ? monitor.name : '';
  const latin = name
    .toLowerCase()
    .replace(/[äöü]/g, (umlaut) => `${umlaut.normalize('NFKD')[0]}e`)
    .replace(/[ßæœøđðłþı]/g, (letter) => LATIN[letter] ?? letter)
    .normalize('NFKD')
    .replace(/\p{M}/gu, ''); // the accents NFKD split off: Café -> cafe
  let slug = /\p{L}/u.test(latin.replace(/[a-z]/g, ''))
    ? ''
    : latin.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  if (slug.length > KEY_LENGTH) {
    const cut = slug.lastIndexOf('-', KEY_LENGTH);
    slug = slug.slice(0, cut > 0 ? cut : KEY_LENGTH);
  }
  let base = 'monitor';
  if (slug) base = slug;
  else if (typeof monitor.id === 'string' && /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/.test(monitor.id)) base = monitor.id;
  let key = base;
  for (let n = 2; taken(key); n++) key = `${base.slice(0, 95)}-${n}`;
  return key;
}

/** The fields of a manifest entry: what the service has, less what it owns, the interval as a duration. */
export function entryFor(monitor: JsonObject): JsonObject {
  const entry: JsonObject = {};
  for (const [field, value] of Object.entries(monitor)) {
    if (SERVER_OWNED_FIELDS.includes(field)) continue;
    if (field === 'interval_seconds' && typeof value === 'number' && Number.isSafeInteger(value) && value >= 0)
      setOwn(entry, 'interval', formatDuration(value));
    else setOwn(entry, field, value);
  }
  return entry;
}

/** `{monitors: {key: entry}}` for one or more monitors; keys made unique with -2, -3... */
export function manifestFor(monitors: JsonObject[]) {
  const entries: JsonObject = {};
  const keys: Array<{ key: string; id: unknown }> = [];
  for (const monitor of monitors) {
    const key = keyFor(monitor, (k) => Object.hasOwn(entries, k));
    setOwn(entries, key, entryFor(isPlainObject(monitor) ? monitor : {}));
    keys.push({ key, id: monitor.id });
  }
  return { document: { monitors: entries }, keys };
}

/** The YAML text: a comment that says how to adopt, then the document. */
export async function manifestYaml(monitors: JsonObject[]): Promise<string> {
  const { stringify } = await import('yaml');
  const { exactNumberTag } = await import('../output/yaml.js');
  const { document, keys } = manifestFor(monitors);
  // The id is the server's text: only a plain one goes into the comment.
  const adopt = keys
    .map(({ key, id }) => `${key}=${typeof id === 'string' && /^[\w.:-]+$/.test(id) ? id : 'ID'}`)
    .join(' ');
  return `# adopt with: cpk import ${adopt}\n${stringify(document, { customTags: [exactNumberTag] })}`;
}
