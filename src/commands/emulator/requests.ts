// `cpk emulator requests`: the request log of a running emulator, read
// through its admin route, for a user debugging their own script.
import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { action, describe, type Runtime } from '../../cli/action.js';
import { DEFAULT_BASE_URL } from '../../core/base-url.js';
import { UsageError } from '../../core/errors.js';

export function register(emulator: Command, runtime: Runtime): void {
  const requests = emulator
    .command('requests')
    .description("Print a running emulator's request log: each request with its status and latency")
    .option('--admin-secret <secret>', "the emulator's admin secret (env CPK_EMULATOR_ADMIN_SECRET)")
    .action(
      action(runtime, (ctx, _args, opts, self) =>
        run(
          {
            adminSecret:
              (opts.adminSecret as string | undefined) ??
              (self.parent?.opts().adminSecret as string | undefined) ??
              ctx.env.CPK_EMULATOR_ADMIN_SECRET,
          },
          ctx,
        ),
      ),
    );
  describe(requests, {
    effect: 'read',
    examples: [
      'cpk emulator requests --admin-secret s3cret',
      'cpk emulator requests --admin-secret s3cret --json | jq .status',
    ],
  });
}

/** GET /__emulator/requests at the base URL's origin: a table, or with --json the records as they came. */
export async function run(opts: { adminSecret?: string | undefined }, ctx: Context): Promise<void> {
  if (opts.adminSecret === undefined || opts.adminSecret === '')
    throw new UsageError('give the admin secret the emulator printed: --admin-secret or CPK_EMULATOR_ADMIN_SECRET');
  const base = ctx.globals.baseUrl ?? ctx.env.CPK_BASE_URL ?? DEFAULT_BASE_URL;
  if (!URL.canParse(base)) throw new UsageError(`invalid base URL "${base}"`);
  const { origin } = new URL(base);
  // The secret travels as the admin header, never as a bearer token; handing it over as the
  // credential registers it for masking in --debug traces and errors.
  const api = await ctx.api({ credentials: { baseUrl: `${origin}/__emulator`, token: opts.adminSecret } });
  const res = await api.raw({
    method: 'GET',
    rawPath: 'requests',
    auth: false,
    headers: { 'X-Emulator-Admin': opts.adminSecret },
  });
  const records = (res.body as { requests?: Array<Record<string, unknown>> } | undefined)?.requests ?? [];
  if (ctx.out.json) {
    await ctx.out.writeLines(records.map((r) => JSON.stringify(r)));
    return;
  }
  await ctx.out.printList(
    records.map((r) => ({
      time: new Date(Number(r.receivedAt)).toISOString(),
      method: r.method,
      path: r.path,
      status: r.status ?? 'none',
      latency_ms: r.latencyMs ?? null,
    })),
  );
}
