// Values the service's document declares (an enum), checked before a body is
// sent, so a typo gets "did you mean" instead of the service's rejection. Only
// the cached document is read (src/core/api/spec.ts): a simple command never
// fetches it; without a cache nothing is checked and the service judges.
import type { Context } from './context.js';
import type { JsonObject } from '../core/json.js';
import type { BodyKind, SpecFetcher, SpecInfo } from '../core/api/spec.js';
import type { SourcedRecord } from '../parse/records.js';
import { UsageError } from '../core/errors.js';
import { closest } from '../core/closest.js';
import { didYouMean } from './suggest.js';

export async function checkDeclaredValues(ctx: Context, body: JsonObject, kind: BodyKind): Promise<void> {
  if (!Object.values(body).some((value) => typeof value === 'string')) return;
  const session = await ctx.session({ anonymous: true });
  const { cachedSpecInfo } = await import('../core/api/spec.js');
  const declared = cachedSpecInfo(session.baseUrl.value, ctx.env).body(kind)?.fields ?? [];
  for (const field of declared) {
    const value = body[field.name];
    if (typeof value !== 'string' || !field.enum) continue;
    const allowed = field.enum.filter((v): v is string => typeof v === 'string');
    if (allowed.length === 0 || allowed.includes(value)) continue;
    throw new UsageError(
      `${field.name} must be one of ${allowed.join(', ')}, not ${JSON.stringify(value)}${didYouMean(closest(value, allowed))}; nothing was sent`,
    );
  }
}

/**
 * `create --from`: every item against the create body the service's document declares, before any is sent,
 * by the checker manifest entries go through (src/manifest/validate.ts: declared types, bounds, enums,
 * read-only fields). Any problem refuses the whole input, one line each naming its item: a file created in
 * part would leave the user to find out what to send again. `api`: the document is loaded (fetched when
 * no fresh copy is cached, asked again before it refuses anything); without it (--dry-run), the cache only.
 */
export async function checkDeclaredRecords(
  ctx: Context,
  records: readonly SourcedRecord[],
  source: string,
  api?: SpecFetcher,
): Promise<void> {
  if (records.length === 0) return;
  const { bodyProblems } = await import('../manifest/validate.js');
  const { cachedSpecInfo, useSpec } = await import('../core/api/spec.js');
  const bodies = records.map((r) => r.value);
  const check = async (spec: SpecInfo) => (await bodyProblems(spec.body('create'), bodies)) ?? [];
  const debug = (line: string) => ctx.out.debug(line);
  let found: string[][];
  if (api) {
    const load = () => useSpec(api, { env: ctx.env, debug }, check, (f) => f.some((p) => p.length > 0));
    found = await ctx.out.spin("Reading the service's document", load);
  } else {
    const session = await ctx.session({ anonymous: true });
    found = await check(cachedSpecInfo(session.baseUrl.value, ctx.env));
  }
  const problems = records.flatMap((r, i) => (found[i] ?? []).map((p) => `${r.label}: ${p}`));
  if (problems.length === 0) return;
  const { shownProblems } = await import('../manifest/positions.js');
  const lines = shownProblems(problems, (p) => `${source} ${p}`);
  const summary = `${source} does not match what the service declares (${problems.length} problem${problems.length === 1 ? '' : 's'}); nothing was sent`;
  if (ctx.out.json) throw new UsageError(`${summary}: ${lines.join('; ')}`);
  for (const line of lines) ctx.out.info(`cpk: ${line}`);
  throw new UsageError(summary);
}
