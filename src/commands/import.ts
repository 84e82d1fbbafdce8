import type { Command } from 'commander';
import type { Context } from '../context.js';
import { ApiError, InterruptedError, UsageError } from '../errors.js';
import { checkId } from '../parse/id.js';
import { DEFAULT_CONCURRENCY } from '../parse/concurrency.js';
import { action, examples, type Runtime } from './action.js';
import {
  addLockOption,
  addManifestOptions,
  parseLockTimeout,
  parseManifestFlags,
  type ManifestFlags,
} from './manifest-flags.js';
import { failuresError, openManifest, type Opened } from './manifest-run.js';

export interface ImportOptions extends ManifestFlags {
  pairs: Array<{ key: string; id: string }>;
  replace: boolean;
  lockTimeoutMs: number;
}

export function register(program: Command, runtime: Runtime): void {
  const cmd = program
    .command('import')
    .description(
      'Adopt existing monitors: record KEY=ID in the state file, so the manifest entry KEY manages monitor ID',
    )
    .argument('<key=id...>', 'a manifest key and the id of the monitor it should manage');
  addLockOption(addManifestOptions(cmd))
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
  return {
    ...parseManifestFlags(opts),
    pairs,
    replace: opts.replace === true,
    lockTimeoutMs: parseLockTimeout(opts.lockTimeout),
  };
}

export async function run(opts: ImportOptions, ctx: Context): Promise<void> {
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
  const { runPool } = await import('../pool.js');
  await ctx.out.spin('Checking monitors', () =>
    runPool(
      todo,
      DEFAULT_CONCURRENCY,
      async ({ key, id }) => {
        try {
          await api.getMonitor(id);
        } catch (error) {
          errors.push({ key, id, error });
        }
      },
      ctx.signal,
    ),
  );
  if (ctx.signal?.aborted) throw new InterruptedError();
  if (errors.length > 0) {
    const { failureLine } = await import('../manifest/render.js');
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
