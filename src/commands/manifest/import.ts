import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { ApiError, InterruptedError, UsageError } from '../../core/errors.js';
import { checkId } from '../../parse/id.js';
import { DEFAULT_CONCURRENCY } from '../../parse/concurrency.js';
import { action, examples, type Runtime } from '../../cli/action.js';
import {
  addLockOption,
  addManifestOptions,
  parseLockTimeout,
  parseManifestFlags,
  type ManifestFlags,
} from '../../cli/manifest-flags.js';
import { failuresError, openManifest, type Opened } from '../../cli/manifest-run.js';

export interface ImportOptions extends ManifestFlags {
  pairs: Array<{ key: string; id: string }>;
  /** --all: every monitor of the account no key manages, as new entries. */
  all: boolean;
  replace: boolean;
  lockTimeoutMs: number;
}

export function register(program: Command, runtime: Runtime): void {
  const cmd = program
    .command('import')
    .description(
      'Adopt existing monitors: record KEY=ID in the state file, so the manifest entry KEY manages monitor ID',
    )
    .argument('[key=id...]', 'a manifest key and the id of the monitor it should manage');
  addLockOption(addManifestOptions(cmd))
    .option(
      '--all',
      "add an entry to the manifest, and its id to the state, for every monitor of the account that no key manages (needs the service's list of monitors)",
    )
    .option(
      '--replace',
      'let a key that already manages another monitor manage this one instead (the other is left alone, no longer managed)',
    )
    .action(action(runtime, (ctx, args, opts) => run(parseImportOptions(args, opts), ctx)));
  examples(
    cmd,
    'cpk monitors get mon_123 --manifest >> cpk.yaml   # then edit: one monitors: section',
    'cpk import checkout-api=mon_123',
    'cpk import checkout-api=mon_123 search=mon_456 -f infra/cpk.yaml',
    'cpk import --all                                  # every monitor not managed yet, into cpk.yaml',
  );
}

export function parseImportOptions(args: string[], opts: Record<string, unknown>): ImportOptions {
  const pairs: Array<{ key: string; id: string }> = [];
  for (const arg of args) {
    const eq = arg.indexOf('=');
    if (eq <= 0 || eq === arg.length - 1)
      throw new UsageError(`invalid "${arg}": expected KEY=ID, e.g. checkout-api=mon_123`);
    const key = arg.slice(0, eq);
    const id = checkId(arg.slice(eq + 1), 'monitor id');
    if (pairs.some((p) => p.key === key)) throw new UsageError(`key "${key}" is given twice`);
    if (pairs.some((p) => p.id === id))
      throw new UsageError(`monitor ${id} is given twice: one monitor can have one key`);
    pairs.push({ key, id });
  }
  const all = opts.all === true;
  if (all && pairs.length > 0)
    throw new UsageError('--all imports every monitor no key manages: give KEY=ID pairs or --all, not both');
  if (all && opts.replace === true) throw new UsageError('--replace applies to KEY=ID pairs, not to --all');
  if (!all && pairs.length === 0)
    throw new UsageError('nothing to import: give KEY=ID pairs, or --all for every monitor no key manages');
  return {
    ...parseManifestFlags(opts),
    pairs,
    all,
    replace: opts.replace === true,
    lockTimeoutMs: parseLockTimeout(opts.lockTimeout),
  };
}

export async function run(opts: ImportOptions, ctx: Context): Promise<void> {
  if (opts.all) return runAll(opts, ctx);
  const opened = await openManifest(ctx, opts, {
    lock: { timeoutMs: opts.lockTimeoutMs, command: 'cpk import' },
    check: (manifest) => {
      const keys = new Set(manifest.monitors.map((m) => m.key));
      // Only keys the manifest names: a key it does not name would be deleted by the next apply --prune.
      for (const { key, id } of opts.pairs) {
        if (!keys.has(key)) {
          throw new UsageError(`"${key}" is not a monitor key in ${manifest.path}; add the entry first`, {
            hint: `\`cpk monitors get ${id} --manifest\` prints one`,
          });
        }
      }
    },
  });
  try {
    await importLocked(opts, ctx, opened);
  } finally {
    await opened.lock?.release();
  }
}

async function importLocked(opts: ImportOptions, ctx: Context, opened: Opened): Promise<void> {
  const { manifest, state, api } = opened;
  const todo: Array<{ key: string; id: string }> = [];
  for (const { key, id } of opts.pairs) {
    const owner = state.keyOf(id);
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
  // Every id must exist before anything is recorded: all or nothing.
  const errors: Array<{ key: string; id: string; error: unknown }> = [];
  const { mapPool } = await import('../../core/pool.js');
  await ctx.out.spin('Checking monitors', () =>
    mapPool(
      todo,
      DEFAULT_CONCURRENCY,
      async ({ key, id }) => {
        try {
          await api.getMonitor(id);
        } catch (error) {
          errors.push({ key, id, error });
        }
      },
      { signal: ctx.signal },
    ),
  );
  if (ctx.signal?.aborted) throw new InterruptedError();
  if (errors.length > 0) {
    const { failureLine } = await import('../../manifest/render.js');
    throw failuresError(
      ctx,
      errors.map((e) => failureLine(`${e.key}=${e.id}`, e.error)),
      errors.map((e) => e.error),
      errors.some((e) => e.error instanceof ApiError && e.error.status === 404)
        ? 'a monitor to import does not exist; nothing was imported'
        : 'could not check the monitors to import; nothing was imported',
    );
  }
  for (const { key, id } of todo) state.setId(key, id);
  if (todo.length > 0) await state.save();
  if (ctx.out.json) {
    ctx.out.printJson({
      state: state.path,
      imported: opts.pairs.map(({ key, id }) => ({ key, id, changed: todo.some((t) => t.key === key) })),
    });
  } else {
    for (const { key, id } of opts.pairs)
      ctx.out.info(todo.some((t) => t.key === key) ? `imported ${key}: ${id}` : `${key} already manages ${id}`);
    ctx.out.info(`recorded in ${state.path}; run cpk plan to see how the monitors differ from ${manifest.path}`);
  }
}

/** `cpk import --all`: a manifest entry and a state record for every monitor no key manages. */
async function runAll(opts: ImportOptions, ctx: Context): Promise<void> {
  const opened = await openManifest(ctx, opts, {
    lock: { timeoutMs: opts.lockTimeoutMs, command: 'cpk import' },
    allowMissing: true,
  });
  try {
    await importAllLocked(ctx, opened);
  } finally {
    await opened.lock?.release();
  }
}

async function importAllLocked(ctx: Context, opened: Opened): Promise<void> {
  const { manifest, state, api } = opened;
  const { uncertainEntries } = await import('../../manifest/adopt.js');
  const uncertain = uncertainEntries(manifest, state);
  if (uncertain.length > 0) {
    // Its monitor may be in the list: imported as a new entry, it would be managed twice.
    const keys = uncertain.map((u) => u.key);
    throw new UsageError(
      `${keys.length === 1 ? `"${keys[0]}" has` : `${keys.length} entries have`} an uncertain create in ${state.path}; nothing was imported`,
      { hint: 'run cpk apply first (it resolves them), or adopt each with `cpk import KEY=ID`' },
    );
  }
  const { loadSpec } = await import('../../core/api/spec.js');
  const spec = await loadSpec(api, { env: ctx.env, debug: (line) => ctx.out.debug(line) });
  const op = spec.list('monitors');
  if (!op) {
    throw new UsageError(
      `cpk import --all needs the service's list of monitors, and its document (${api.baseUrl}/openapi.json) declares none; nothing was imported`,
      { hint: 'adopt monitors one by one with `cpk import KEY=ID`' },
    );
  }
  const [{ listItems }, { entriesToImport, addEntries }] = await Promise.all([
    import('../../core/api/list.js'),
    import('../../manifest/import-all.js'),
  ]);
  const items: unknown[] = [];
  await ctx.out.spin('Listing monitors', async () => {
    for await (const page of listItems(api, op, { params: [] })) {
      if (ctx.signal?.aborted) throw new InterruptedError();
      for (const item of page) items.push(item);
    }
  });
  const managed = new Set<string>();
  for (const record of Object.values(state.data.monitors)) if (record.id !== undefined) managed.add(record.id);
  const taken = [...manifest.monitors.map((m) => m.key), ...Object.keys(state.data.monitors)];
  const { entries, skipped } = entriesToImport(items, managed, taken);
  for (const { id, reason } of skipped) ctx.out.warn(`${id} is not imported: ${reason}`);

  if (entries.length > 0) {
    const { readFile } = await import('node:fs/promises');
    const { writeFileAtomic } = await import('../../core/atomic-file.js');
    let text = '';
    try {
      text = await readFile(manifest.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
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
  if (ctx.out.json) {
    ctx.out.printJson({
      manifest: manifest.path,
      state: state.path,
      imported: entries.map(({ key, id }) => ({ key, id })),
      skipped,
    });
    return;
  }
  if (entries.length === 0) {
    ctx.out.info(
      `nothing to import: ${state.path} manages every monitor of the account${skipped.length > 0 ? ' that cpk can import' : ''}`,
    );
    return;
  }
  for (const { key, id } of entries) ctx.out.info(`imported ${key}: ${id}`);
  ctx.out.info(
    `added ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} to ${manifest.path} and recorded ${entries.length === 1 ? 'it' : 'them'} in ${state.path}; run cpk plan to check them`,
  );
}
