// Values the service's document declares (an enum), checked before a body is
// sent, so a typo gets "did you mean" instead of the service's rejection. Only
// the cached document is read (src/core/api/spec.ts): a simple command never
// fetches it; without a cache nothing is checked and the service judges.
import type { Context } from './context.js';
import type { JsonObject } from '../core/json.js';
import type { BodyKind } from '../core/api/spec.js';
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
