import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../core/errors.js';
import { checkId } from '../../parse/id.js';
import { action, describe, type RawOptions, type Runtime } from '../../cli/action.js';
import { addLockOption, addManifestOptions, parseLockTimeout, parseManifestFlags } from '../../cli/manifest-flags.js';

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
  describe(cmd, {
    effect: 'write',
    examples: [
      'cpk monitors get mon_123 --manifest >> cpk.yaml  # then keep one monitors:',
      'cpk import checkout-api=mon_123',
      'cpk import checkout-api=mon_123 search=mon_456 -f infra/cpk.yaml',
      'cpk import --all       # every monitor not managed yet, into cpk.yaml',
    ],
  });
}

export function parseImportOptions(args: string[], opts: RawOptions) {
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

export async function run(opts: ReturnType<typeof parseImportOptions>, ctx: Context): Promise<void> {
  const [workflow, { workflowDeps }] = await Promise.all([
    import('../../manifest/workflow.js'),
    import('../../cli/manifest-run.js'),
  ]);
  if (!opts.all) {
    const { manifest, state, changed } = await workflow.importWorkflow(opts, workflowDeps(ctx));
    if (ctx.out.json) {
      const imported = opts.pairs.map(({ key, id }) => ({ key, id, changed: changed.has(key) }));
      return ctx.out.printJson({ state, imported });
    }
    for (const { key, id } of opts.pairs)
      ctx.out.info(changed.has(key) ? `imported ${key}: ${id}` : `${key} already manages ${id}`);
    return ctx.out.info(`recorded in ${state}; run cpk plan to see how the monitors differ from ${manifest}`);
  }
  const { manifest, state, entries, skipped } = await workflow.importAllWorkflow(opts, workflowDeps(ctx));
  if (ctx.out.json) {
    return ctx.out.printJson({ manifest, state, imported: entries.map(({ key, id }) => ({ key, id })), skipped });
  }
  if (entries.length === 0) {
    const importable = skipped.length > 0 ? ' that cpk can import' : '';
    return ctx.out.info(`nothing to import: ${state} manages every monitor of the account${importable}`);
  }
  for (const { key, id } of entries) ctx.out.info(`imported ${key}: ${id}`);
  ctx.out.info(
    `added ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} to ${manifest} and recorded ${entries.length === 1 ? 'it' : 'them'} in ${state}; run cpk plan to check them`,
  );
}
