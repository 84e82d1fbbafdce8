// The flags plan, apply, import and validate share (--file, --state,
// --lock-timeout, --concurrency), declared and parsed here; the workflow of
// src/manifest/ opens what they name.
import type { Command } from 'commander';
import { UsageError } from '../core/errors.js';
import { parseDuration } from '../parse/duration.js';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from '../parse/concurrency.js';
import { concurrencyOption } from './options.js';
import { collect, type RawOptions } from './action.js';
import type { ManifestOptions } from '../manifest/workflow.js';

export const DEFAULT_MANIFEST = 'cpk.yaml';

/** `-f`: the manifest(s), for every command that reads them (plan, apply, import, validate). */
export function addManifestFileOption(cmd: Command): Command {
  return cmd.option(
    '-f, --file <path>',
    `the manifest, YAML or JSON, or a directory of them; repeat for several (default ${DEFAULT_MANIFEST})`,
    collect,
  );
}

export function addManifestOptions(cmd: Command): Command {
  return addManifestFileOption(cmd).option(
    '--state <path>',
    'the state file (default: beside the manifest, cpk.yaml -> cpk.state.json, DIR -> DIR/cpk.state.json); one per service',
  );
}

/** `--lock-timeout`, for the commands that change the state (apply, import). */
export function addLockOption(cmd: Command): Command {
  return cmd.option(
    '--lock-timeout <duration>',
    "how long to wait for another run that holds the state file's lock (e.g. 30s, 5m; default 0: fail at once, exit 75)",
  );
}

/** `--lock-timeout` in ms (seconds or a duration, as --interval). */
export function parseLockTimeout(value: unknown): number {
  if (value === undefined) return 0;
  return parseDuration(String(value), '--lock-timeout') * 1000;
}

export function addConcurrencyOption(cmd: Command): Command {
  return cmd.addOption(
    concurrencyOption(`requests at a time, 1 to ${MAX_CONCURRENCY} (default ${DEFAULT_CONCURRENCY})`),
  );
}

/** A path flag: absent, or not blank. */
export function nonEmpty(value: unknown, flag: string): string | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  if (text.trim() === '') throw new UsageError(`${flag} must not be empty`);
  return text;
}

export function parseManifestFlags(opts: RawOptions): ManifestOptions {
  const given = opts.file === undefined ? [] : ([] as unknown[]).concat(opts.file);
  const files = given.map((f) => nonEmpty(f, '--file') ?? DEFAULT_MANIFEST);
  return { files: files.length > 0 ? files : [DEFAULT_MANIFEST], state: nonEmpty(opts.state, '--state') };
}
