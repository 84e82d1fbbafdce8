// --dry-run: print the requests a command would send, as runnable curl
// command lines (or as JSON under --json), and send nothing. The requests are
// described by the HTTP layer (HttpClient.describe), from the same endpoint
// specs the real commands send, so a dry run cannot drift from the real thing.
import type { Context } from './context.js';
import type { RequestSpec } from '../core/http/client.js';
import { parseUserJson } from '../core/json.js';

export async function printDryRun(ctx: Context, specs: RequestSpec[], options: { single: boolean }): Promise<void> {
  // Nothing is sent, so no token is needed: the client is built without one
  // and the description names $CPK_TOKEN where the token would go.
  const api = await ctx.api({ anonymous: true });
  const described = specs.map((spec) => api.describe(spec));
  if (ctx.out.json) {
    const values = described.map((d) => ({
      ...d,
      body: d.body === undefined ? undefined : parseUserJson(d.body),
    }));
    ctx.out.printJson(options.single ? values[0] : values);
    return;
  }
  const { toCurl } = await import('../core/http/curl.js');
  // Written as built to a pipe: the body is the caller's own input, and
  // sanitizing it would print a command that sends something else (on a
  // terminal, where a control character would act instead of showing, it is
  // sanitized).
  for (const d of described) ctx.out.printData(`${toCurl(d)}\n`);
}
