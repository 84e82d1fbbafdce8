// `cpk validate`: the checks plan and apply make before sending, and nothing else:
// no token, no state, no request but the public document (cached, as for plan).
import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { ExitCode } from '../../core/errors.js';
import type { ValidationProblem } from '../../manifest/validate.js';
import { action, describe, type RawOptions, type Runtime } from '../../cli/action.js';
import { addManifestFileOption, parseManifestFlags } from '../../cli/manifest-flags.js';
import { JUNIT_HELP, parseJunit, withCiReport } from '../../cli/ci.js';

export function register(program: Command, runtime: Runtime): void {
  const cmd = program
    .command('validate')
    .description(
      "Check the manifest as plan and apply do, against its schema and the bodies the service's document declares (no token needed)",
    );
  addManifestFileOption(cmd)
    .option('--refresh-spec', "fetch the service's OpenAPI document again now (it is cached for an hour)")
    .option('--junit <file>', JUNIT_HELP)
    .action(action(runtime, (ctx, _args, opts) => run(parseValidateOptions(opts), ctx)));
  describe(cmd, {
    effect: 'read',
    tool: true,
    examples: [
      'cpk validate',
      'cpk validate -f infra/cpk.yaml',
      "cpk validate --json | jq -r '.[].message'",
      'cpk validate --junit validate.xml',
    ],
  });
}

/** -f as plan takes it; --junit FILE: one test case per entry. */
export function parseValidateOptions(opts: RawOptions) {
  return { files: parseManifestFlags(opts).files, refreshSpec: opts.refreshSpec === true, junit: parseJunit(opts) };
}

export async function run(opts: ReturnType<typeof parseValidateOptions>, ctx: Context): Promise<void> {
  return withCiReport(ctx, 'cpk validate', opts.junit, async () => {
    const [workflow, { manifestFiles, ManifestError }, { workflowDeps }] = await Promise.all([
      import('../../manifest/workflow.js'),
      import('../../manifest/load.js'),
      import('../../cli/manifest-run.js'),
    ]);
    const deps = workflowDeps(ctx);
    const label = opts.files.join(', ');
    // With --json, the problems are the data: listed on stdout, and exit 2.
    const list = (problems: ValidationProblem[]) => {
      ctx.out.printJson(problems.map((p) => ({ file: p.file, line: p.line, column: p.col, message: p.message })));
      ctx.exitCode = ExitCode.USAGE;
    };
    let manifest;
    try {
      manifest = await workflow.readChecked((await manifestFiles(opts.files)).files, label, deps, {
        refresh: opts.refreshSpec,
      });
    } catch (error) {
      if (!(error instanceof ManifestError) || !ctx.out.json) throw error;
      return list(error.problems.map((p) => ({ ...p, file: p.file ?? error.file })));
    }
    // The document is public: the token is never needed, nor sent.
    const api = await ctx.api({ anonymous: true });
    const { problems, checked, unchecked } = await workflow.serviceProblems(manifest, api, deps, opts.refreshSpec);
    await deps.report?.problems(problems, manifest);
    if (problems.length > 0 && ctx.out.json) return list(problems);
    if (problems.length > 0) throw workflow.validationError(ctx.out, problems);
    if (ctx.out.json) ctx.out.printJson([]);
    const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
    ctx.out.info(
      `${label}: ${count(manifest.monitors.length, 'monitor')} and ${count(manifest.channels.length, 'channel')} valid (${
        checked
          ? `checked against the bodies the service declares: ${checked}`
          : `${unchecked ?? "the service's document declares no body"}: checked against the manifest schema only`
      })`,
    );
  });
}
