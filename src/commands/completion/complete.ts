// `cpk __complete KIND [PREFIX]`: the dynamic half of shell completion (as
// cobra's and gh's __complete). The generated scripts call it for words no
// static table can hold; it prints one candidate per line, `value<TAB>description`.
// Its sources, all local (docs/configuration.md): the inventory, the config file, cpk.state.json and the cached
// document. The token is not read (that could ask the OS keychain): monitors known for the base URL under any
// token are offered.
import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import type { Kind } from '../../config/inventory.js';
import { isPlainCandidate } from '../../completion/candidate.js';
import { oneLine } from '../../completion/table.js';
import { COMPLETION_SOURCES, type CompletionSource } from '../../completion/tree.js';
import { action, describe, type Runtime } from '../../cli/action.js';

export function register(program: Command, runtime: Runtime): void {
  const cmd = program
    .command('__complete', { hidden: true })
    .description('print completion candidates (used by the shell completion scripts)')
    .argument('<kind>', COMPLETION_SOURCES.join(', '))
    .argument('[prefix]', 'only candidates that start with this')
    .action(
      action(runtime, async (ctx, [kind, prefix]) => {
        // Completion offers what it can: a broken config or cache offers nothing.
        const candidates = await complete(kind as CompletionSource, ctx).catch(() => []);
        // Ids and enum values are server text: only plain words are offered (src/completion/candidate.ts).
        // A description is shown, never inserted: it only has to stay on its line and off the terminal's controls.
        const lines = candidates
          .filter(([value]) => value.startsWith(prefix ?? '') && isPlainCandidate(value))
          .map(([value, description]) => (description ? `${value}\t${oneLine(description)}` : value));
        if (lines.length > 0) ctx.out.printText(`${lines.join('\n')}\n`);
      }),
    );
  describe(cmd, {
    effect: 'read',
    // Its reader is the shell's completion function, never an agent: candidate lines, even under a detected agent.
    streams: true,
  });
}

async function complete(kind: CompletionSource, ctx: Context): Promise<Array<[string, string]>> {
  if (kind === 'profiles') {
    const { listProfiles } = await import('../../config/profiles.js');
    return listProfiles(ctx.env).profiles.map((p) => [p.name, p.base_url ?? '']);
  }
  if (kind === 'channel-ids') {
    // The channels a `channels list` showed here, with their names, then those a manifest applied here.
    const listed = await knownHere(ctx, 'channels').catch(() => []);
    const names = new Map(listed.map((c) => [c.id, c.name ?? '']));
    for (const id of await appliedChannels()) if (!names.has(id)) names.set(id, '');
    return [...names];
  }
  const session = await ctx.session({ anonymous: true });
  const baseUrl = session.baseUrl.value;
  if (kind === 'types') {
    const { cachedSpecInfo } = await import('../../core/api/spec.js');
    const type = cachedSpecInfo(baseUrl, ctx.env)
      .body('create')
      ?.fields.find((f) => f.name === 'type');
    return (type?.enum ?? []).filter((v): v is string => typeof v === 'string').map((v) => [v, '']);
  }
  const monitors = await knownHere(ctx, 'monitors');
  if (kind === 'monitor-ids') return monitors.map((m) => [m.id, m.name ?? '']);
  // A report id is known where the monitor's is (the service's report_id is not assumed: only ids cpk saw).
  if (kind === 'report-ids')
    return monitors.flatMap((m) => (m.report ? [[m.report, m.name ?? ''] as [string, string]] : []));
  return [];
}

/** What the inventory knows for the base URL in use, under any token. */
async function knownHere(ctx: Context, kind: Kind) {
  const session = await ctx.session({ anonymous: true });
  const { knownMonitors } = await import('../../config/inventory.js');
  return knownMonitors(session.baseUrl.value, ctx.env, kind);
}

/** The channel ids cpk.state.json in this directory records; none when there is no such file or it is damaged. */
async function appliedChannels(): Promise<string[]> {
  try {
    const { readFileText } = await import('../../core/io.js');
    const { parseState } = await import('../../manifest/state.js');
    const path = 'cpk.state.json';
    return Object.keys(parseState(readFileText(path), path).channels);
  } catch {
    return [];
  }
}
