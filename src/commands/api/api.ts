// `cpk api METHOD PATH`: a raw authenticated request below the base URL, the
// escape hatch for operations cpk does not wrap yet (like `gh api`). Same
// token, retries, errors and exit codes as every other command; the path is
// kept under the base URL (src/core/http/raw-path.ts).
import { createRequire } from 'node:module';
import type { Command } from 'commander';
import type { Effect } from '../../completion/tree.js';
import type { Context } from '../../cli/context.js';
import { ApiError, ExitCode, UsageError } from '../../core/errors.js';
import { parseJsonFlag } from '../../parse/data.js';
import { fieldsFromFlags, mergeInto } from '../../parse/fields.js';
import { isPlainObject } from '../../core/json.js';
import type { RequestSpec } from '../../core/http/client.js';
import { sanitizeLine } from '../../core/sanitize.js';
import type { IO } from '../../core/io.js';
import { action, describe, type RawOptions, type Runtime } from '../../cli/action.js';
import { bodyFlags, dataOption, dryRunOption, setOption, setStringOption } from '../../cli/options.js';
import { printDryRun } from '../../cli/dry-run.js';

/** A request that only reads (GET, HEAD, OPTIONS) changes nothing; any other method may write or delete. */
function methodEffect([method]: readonly string[]): Effect {
  // One argument is the path, and the method GET (or POST with a body, which is a write either way).
  return /^(GET|HEAD|OPTIONS)$/i.test(method ?? 'GET') ? 'read' : 'destroy';
}

export function register(program: Command, runtime: Runtime): void {
  const cmd = program
    .command('api')
    .description('Send an authenticated request to any path below the base URL (for operations cpk does not wrap yet)')
    .argument('[method]', 'HTTP method: GET, POST, PATCH, PUT, DELETE, ...; default GET, or POST with --data or --set')
    .argument('[path]', 'path below the base URL, e.g. /monitors/mon_123 (a leading /v1 is not doubled)')
    .addOption(
      setOption('set a body field; the value is parsed as JSON when it is JSON (repeatable; dotted keys nest)'),
    )
    .addOption(setStringOption('set a body field to a string, always (repeatable)'))
    .addOption(
      dataOption('the request body: any JSON value, @file, or - for stdin (--set fields are merged over an object)'),
    )
    .option('-i, --include', 'print the status line and the response headers before the body')
    .addOption(dryRunOption())
    .action(
      action(runtime, async (ctx, args, opts) =>
        run(await parseApiOptions(args, opts, { stdin: ctx.io.stdin, query: ctx.globals.query }), ctx),
      ),
    );
  describe(cmd, {
    effect: methodEffect,
    examples: [
      'cpk api /monitors                             # GET',
      'cpk api /monitors --set name=api              # POST',
      'cpk api GET /monitors/mon_123',
      'cpk api PATCH /monitors/mon_123 --set paused=true',
      'cpk api POST /monitors --data @monitor.json -i',
      'cpk api GET /reports/rpt_summary --query uptime_percent',
      'cpk api DELETE /monitors/mon_123 --dry-run   # prints curl, sends nothing',
    ],
  });
}

/** commander's raw values to the options: the body is --data (any JSON value), --set fields merged over it. */
export async function parseApiOptions(
  args: Array<string | undefined>,
  raw: RawOptions,
  input: { stdin: IO['stdin']; query?: string | undefined },
) {
  // One argument is the path, as `gh api` takes it: the method is GET, or POST when a body is given.
  const [method, path] = args[1] === undefined ? [undefined, args[0]] : args;
  if (path === undefined) throw new UsageError('missing PATH: e.g. cpk api /monitors (see --help)');
  const flags = bodyFlags(raw);
  if (method === undefined && /^[A-Za-z]+$/.test(path))
    throw new UsageError(`missing PATH after ${path.toUpperCase()}: e.g. cpk api ${path.toUpperCase()} /monitors`);
  if (method !== undefined && !/^[A-Za-z]+$/.test(method))
    throw new UsageError(`invalid METHOD "${method}": expected an HTTP method such as GET or PATCH`);
  let body: unknown = flags.data !== undefined ? (await parseJsonFlag(flags.data, input.stdin)).parsed : undefined;
  const fields = fieldsFromFlags({ set: flags.set, setString: flags.setString });
  if (Object.keys(fields).length > 0) {
    if (body === undefined) body = fields;
    else if (isPlainObject(body)) mergeInto(body, fields);
    else throw new UsageError('--set and --set-string need --data to be a JSON object');
  }
  const upper = method?.toUpperCase() ?? (body !== undefined ? 'POST' : 'GET');
  if (body !== undefined && (upper === 'GET' || upper === 'HEAD'))
    throw new UsageError(`a ${upper} request carries no body: drop --data/--set, or put parameters in PATH`);
  const include = raw.include === true;
  if (include && input.query !== undefined)
    throw new UsageError('--include and --query cannot be combined: --query selects from the JSON body only');
  return { method: upper, path, body, include, dryRun: raw.dryRun === true };
}

export async function run(opts: Awaited<ReturnType<typeof parseApiOptions>>, ctx: Context): Promise<void> {
  // A dry run sends nothing and needs no token (src/cli/dry-run.ts).
  const api = await ctx.api(opts.dryRun ? { anonymous: true } : {});
  const { resolveRawPath } = await import('../../core/http/raw-path.js');
  const spec: RequestSpec = { method: opts.method, rawPath: resolveRawPath(api.baseUrl, opts.path), body: opts.body };
  if (opts.dryRun) return printDryRun(ctx, [spec], { single: true });

  const res = await ctx.out.spin(`${opts.method} ${opts.path}`, () => api.raw(spec));
  if (opts.include) {
    // require, not import(): see the no-dynamic-node-http rule in scripts/lint-rules.mjs.
    const { STATUS_CODES } = createRequire(import.meta.url)('node:http') as typeof import('node:http');
    ctx.out.printLine(`HTTP/1.1 ${res.status} ${STATUS_CODES[res.status] ?? ''}`.trimEnd());
    for (const [name, value] of Object.entries(res.headers))
      ctx.out.printLine(`${sanitizeLine(name)}: ${sanitizeLine(value)}`);
    ctx.out.printLine('');
  }
  if (res.text === '') return;
  if (res.body !== undefined) return ctx.out.printJson(res.body);
  if (ctx.globals.query !== undefined) {
    // Loaded already: the request above went through it.
    const details = (await import('../../core/http/client.js')).detailsOf(res);
    throw new ApiError(
      `--query needs a JSON response, but ${res.method} ${res.url} answered ${res.status} with ${details.contentType}`,
      details,
      { exitCode: ExitCode.FAILURE },
    );
  }
  // Not JSON: the body as it came, made safe only when it goes to a terminal.
  ctx.out.printData(res.text.endsWith('\n') ? res.text : `${res.text}\n`);
}
