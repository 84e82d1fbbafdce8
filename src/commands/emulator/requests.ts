// `cpk emulator requests`: the request log of a running emulator, read
// through its admin route, for a user debugging their own script; with
// --expect and --count, an assertion on what their script sent (exit 9, as
// --assert, when it does not hold).
import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { action, describe, type Runtime } from '../../cli/action.js';
import { DEFAULT_BASE_URL } from '../../core/base-url.js';
import { CpkError, ExitCode, UsageError } from '../../core/errors.js';
import { parseExpectation } from '../../parse/expectation.js';

export interface RequestsOptions {
  adminSecret?: string | undefined;
  /** The request pattern, as written (parsed in run: its path is under the base URL's). */
  expect?: string | undefined;
  /** How many requests must match: exactly this many; undefined with --expect, at least one. */
  count?: number | undefined;
}

export function register(emulator: Command, runtime: Runtime): void {
  const requests = emulator
    .command('requests')
    .description(
      "Print a running emulator's request log: each request with its status and latency; with --expect, check that a request was sent",
    )
    .option('--admin-secret <secret>', "the emulator's admin secret (env CPK_EMULATOR_ADMIN_SECRET)")
    .option(
      '--expect <pattern>',
      "only the requests matching 'METHOD PATH [field=text field:=json name==value Header:value ...]'; exit 9 unless one does (or --count do)",
    )
    .option('--count <n>', 'exactly this many requests must match (0: none); exit 9 otherwise')
    .action(
      action(runtime, (ctx, _args, opts, self) => {
        const count = opts.count as string | undefined;
        if (count !== undefined && !/^\d{1,9}$/.test(count))
          throw new UsageError(`--count must be a whole number (0 or more), not ${JSON.stringify(count)}`);
        return run(
          {
            adminSecret:
              (opts.adminSecret as string | undefined) ??
              (self.parent?.opts().adminSecret as string | undefined) ??
              ctx.env.CPK_EMULATOR_ADMIN_SECRET,
            expect: opts.expect as string | undefined,
            count: count === undefined ? undefined : Number(count),
          },
          ctx,
        );
      }),
    );
  describe(requests, {
    effect: 'read',
    examples: [
      'cpk emulator requests --admin-secret s3cret',
      'cpk emulator requests --admin-secret s3cret --json | jq .status',
      "cpk emulator requests --expect 'POST /monitors name=api' --count 1",
    ],
  });
}

/**
 * GET /__emulator/requests at the base URL's origin, or with --expect or --count POST /__emulator/requests/find:
 * a table, or with --json the records as they came; then the count checked.
 */
export async function run(opts: RequestsOptions, ctx: Context): Promise<void> {
  if (opts.adminSecret === undefined || opts.adminSecret === '')
    throw new UsageError('give the admin secret the emulator printed: --admin-secret or CPK_EMULATOR_ADMIN_SECRET');
  const base = ctx.globals.baseUrl ?? ctx.env.CPK_BASE_URL ?? DEFAULT_BASE_URL;
  if (!URL.canParse(base)) throw new UsageError(`invalid base URL "${base}"`);
  const { origin, pathname } = new URL(base);
  const verifying = opts.expect !== undefined || opts.count !== undefined;
  const pattern = opts.expect === undefined ? {} : parseExpectation(opts.expect, pathname);
  // The secret travels as the admin header, never as a bearer token; handing it over as the
  // credential registers it for masking in --debug traces and errors.
  const api = await ctx.api({ credentials: { baseUrl: `${origin}/__emulator`, token: opts.adminSecret } });
  const res = await api.raw({
    method: verifying ? 'POST' : 'GET',
    rawPath: verifying ? 'requests/find' : 'requests',
    auth: false,
    headers: { 'X-Emulator-Admin': opts.adminSecret },
    ...(verifying ? { body: pattern } : {}),
  });
  const records = (res.body as { requests?: Array<Record<string, unknown>> } | undefined)?.requests ?? [];
  if (ctx.out.json) await ctx.out.writeLines(records.map((r) => JSON.stringify(r)));
  else
    await ctx.out.printList(
      records.map((r) => ({
        time: new Date(Number(r.receivedAt)).toISOString(),
        method: r.method,
        path: r.path,
        status: r.status ?? 'none',
        latency_ms: r.latencyMs ?? null,
        request_id: r.request_id ?? null,
      })),
    );
  if (!verifying) return;
  const held = opts.count === undefined ? records.length > 0 : records.length === opts.count;
  if (held) return;
  const wanted =
    opts.count === undefined ? 'at least 1 request' : `${opts.count} request${opts.count === 1 ? '' : 's'}`;
  const what = opts.expect === undefined ? '' : ` matching ${opts.expect.trim()}`;
  throw new CpkError(`expected ${wanted}${what}, found ${records.length}`, ExitCode.ASSERTION_FAILED);
}
