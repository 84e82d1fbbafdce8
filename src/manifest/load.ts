// Reads the manifest files -f names (cpk.yaml, or the same structure as JSON,
// which YAML reads too), and the files of a directory, as one manifest; each is
// parsed and checked once, by ./positions.ts. Only the manifest commands load this module.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../core/errors.js';
import { readFileText, whyUnreadable } from '../core/io.js';
import type { Env } from '../core/paths.js';
import { ManifestError, parseManifest, showPath, type Locator, type Manifest, type Problem } from './positions.js';

// The model comes with the module that reads it.
export { ManifestError, type Manifest } from './positions.js';

/** The error for a manifest that cannot be read; a missing one, when it is the only one, says how to make one. */
export function unreadableManifest(path: string, error: unknown, only = true): UsageError {
  return new UsageError(`cannot read the manifest ${path}${whyUnreadable(error)}`, {
    hint:
      (error as NodeJS.ErrnoException).code === 'ENOENT' && only
        ? 'write one (see `cpk help plan`) or point at it with -f FILE'
        : undefined,
  });
}

/** What a manifest directory holds: read, sorted by name, not recursively (as `kubectl apply -f DIR`). */
const MANIFEST_NAME = /\.(ya?ml|json)$/i;
/** In a manifest directory but not manifests: state files, saved plans (plan.json, *.plan.json), hidden files. */
const NOT_MANIFEST = /^\.|(^|\.)(state|plan)\.json$/i;

/** The manifest files `-f` names: files as given, a directory as its *.yaml, *.yml, *.json. */
export async function manifestFiles(paths: string[]): Promise<{ files: string[]; directory: string | undefined }> {
  const files: string[] = [];
  let directory: string | undefined;
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (!info?.isDirectory()) {
      files.push(path);
      continue;
    }
    directory = path;
    let names: string[];
    try {
      // Files only (a symlink is followed when read): subdirectories are not read.
      const entries = await readdir(path, { withFileTypes: true });
      names = entries.filter((e) => e.isFile() || e.isSymbolicLink()).map((e) => e.name);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(`cannot read the manifest directory ${path}${code ? ` (${code})` : ''}`);
    }
    const found = names.filter((n) => MANIFEST_NAME.test(n) && !NOT_MANIFEST.test(n)).sort();
    if (found.length === 0)
      throw new UsageError(`no manifest in the directory ${path} (cpk reads its *.yaml, *.yml and *.json files)`);
    for (const name of found) files.push(join(path, name));
  }
  return { files, directory: paths.length === 1 ? directory : undefined };
}

/**
 * Reads several manifests as one: entries in file order, then in each file's
 * order. Every file's problems are reported together; a monitor key or a
 * channel id defined in two files is a problem naming both places.
 */
export async function readManifests(files: string[], label: string, env?: Env): Promise<Manifest> {
  const read = files.map((file) => {
    let text: string;
    try {
      text = readFileText(file);
    } catch (error) {
      throw unreadableManifest(file, error, files.length === 1);
    }
    try {
      return parseManifest(text, file, { env });
    } catch (error) {
      if (error instanceof ManifestError && files.length > 1) return error;
      throw error;
    }
  });
  if (files.length === 1) return read[0] as Manifest;
  const problems: Problem[] = [];
  for (const r of read)
    if (r instanceof ManifestError) for (const p of r.problems) problems.push({ ...p, file: r.file });
  const merged: Manifest = { path: label, monitors: [], channels: [], customFields: [], places: new Map() };
  // Every file read without problems has its positions.
  const keyAt = (file: string, at: string[]) => (merged.places.get(file) as Locator).at(at, 'key');
  const firstFile = new Map<string, string>();
  const fresh = (at: string[], file: string) => {
    const first = firstFile.get(at.join('\0'));
    if (first === undefined) {
      firstFile.set(at.join('\0'), file);
      return true;
    }
    const a = keyAt(first, at);
    problems.push({
      file,
      ...keyAt(file, at),
      message: `${showPath(at)} is defined twice: here and at ${first}:${a.line}:${a.col}`,
    });
    return false;
  };
  for (const one of read) {
    // A file with problems still gives the entries it could read: they are checked against the service too.
    const r = one instanceof ManifestError ? one.partial : one;
    if (!r) continue;
    for (const [file, place] of r.places) merged.places.set(file, place);
    // custom_fields: what any of the files sends on purpose.
    for (const field of r.customFields) if (!merged.customFields.includes(field)) merged.customFields.push(field);
    for (const variable of r.variables ?? []) (merged.variables ??= []).push(variable);
    for (const entry of r.monitors)
      if (fresh(['monitors', entry.key], r.path)) merged.monitors.push({ ...entry, file: r.path });
    for (const entry of r.channels)
      if (fresh(['channels', entry.id], r.path)) merged.channels.push({ ...entry, file: r.path });
  }
  if (problems.length > 0) throw new ManifestError(label, problems, merged);
  return merged;
}
