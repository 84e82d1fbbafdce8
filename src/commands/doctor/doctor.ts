import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { ExitCode } from '../../core/errors.js';
import { action, examples, type Runtime } from '../../cli/action.js';

export function register(program: Command, runtime: Runtime): void {
  const cmd = program
    .command('doctor')
    .description('Check Node.js, the config file, profile, base URL, proxies, token and clock (for support tickets)')
    .action(action(runtime, (ctx) => run(ctx)));
  examples(cmd, 'cpk doctor', 'cpk doctor --json', 'cpk doctor --profile staging');
}

export async function run(ctx: Context): Promise<void> {
  const { runChecks } = await import('../../cli/doctor-checks.js');
  const checks = await ctx.out.spin('Checking', () =>
    runChecks(ctx, { nodeVersion: ctx.nodeVersion, now: () => Date.now() }),
  );
  const ok = checks.every((c) => c.ok);
  if (ctx.out.json) {
    ctx.out.printJson({
      ok,
      checks: checks.map((c) => ({ name: c.name, ok: c.ok, detail: c.detail, fix: c.fix ?? null })),
    });
  } else {
    for (const c of checks) {
      ctx.out.printLine(`${c.ok ? '✓' : '✗'} ${c.name}: ${c.detail}${c.fix ? `\n    fix: ${c.fix}` : ''}`);
    }
  }
  // Exit 0 only when every check passed (docs/scripting.md, "Exit codes").
  if (!ok) {
    const failures = checks.filter((c) => !c.ok).length;
    ctx.out.info(`${failures} of ${checks.length} checks failed.`);
    ctx.exitCode = ExitCode.FAILURE;
  }
}
