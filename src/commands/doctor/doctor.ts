import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { ExitCode } from '../../core/errors.js';
import { action, describe, type Runtime } from '../../cli/action.js';
import type { Check } from '../../cli/doctor-checks.js';
import { wrapText } from '../../output/text.js';

export function register(program: Command, runtime: Runtime): void {
  const cmd = program
    .command('doctor')
    .description('Check Node.js, the config file, profile, base URL, proxies, token and clock (for support tickets)')
    .action(action(runtime, (ctx) => run(ctx)));
  describe(cmd, { effect: 'read', examples: ['cpk doctor', 'cpk doctor --json', 'cpk doctor --profile staging'] });
}

/** The checklist as text, wrapped at spaces to a terminal's width (the terminal would break lines anywhere). */
export function checkLines(checks: readonly Check[], columns: number | undefined): string[] {
  const lines: string[] = [];
  const add = (first: string, indent: string) => {
    if (!columns) return lines.push(first);
    const parts = wrapText(first, columns);
    lines.push(parts[0]!);
    for (const rest of parts.slice(1).join(' ') ? wrapText(parts.slice(1).join(' '), columns - indent.length) : [])
      lines.push(indent + rest);
  };
  for (const c of checks) {
    add(`${c.skipped ? '-' : c.ok ? '✓' : '✗'} ${c.name}: ${c.detail}`, '  ');
    if (c.fix) add(`    fix: ${c.fix}`, '         ');
  }
  return lines;
}

export async function run(ctx: Context): Promise<void> {
  const { runChecks } = await import('../../cli/doctor-checks.js');
  const checks = await ctx.out.spin('Checking', () => runChecks(ctx));
  const ok = checks.every((c) => c.ok);
  if (ctx.out.json) {
    ctx.out.printJson({
      ok,
      checks: checks.map((c) => ({
        name: c.name,
        ok: c.ok,
        skipped: c.skipped === true,
        detail: c.detail,
        fix: c.fix ?? null,
      })),
    });
  } else {
    for (const line of checkLines(checks, ctx.io.stdoutIsTTY ? ctx.io.stdoutColumns : undefined))
      ctx.out.printLine(line);
  }
  // Exit 0 only when every check passed (docs/scripting.md, "Exit codes").
  if (!ok) {
    const failures = checks.filter((c) => !c.ok).length;
    ctx.out.info(`${failures} of ${checks.length} checks failed.`);
    ctx.exitCode = ExitCode.FAILURE;
  }
}
