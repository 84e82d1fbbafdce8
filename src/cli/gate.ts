// The deploy gate: `--assert EXPR` (repeatable) on `cpk reports get` and
// `cpk monitors get`. The result prints only when the output is asked for
// (-o, --json, --query, --columns); every assertion is
// checked (over each monitor, when there are several), each failure is one
// line on stderr with what it saw, and any failure ends the command with
// exit 9 (docs/scripting.md, "Exit codes"). With --junit, one test case per
// assertion (per monitor); under GitHub Actions each failure is also an
// annotation.
import type { Command } from 'commander';
import type { Context } from './context.js';
import { CpkError, ExitCode, UsageError } from '../core/errors.js';
import type { Assertion } from '../output/assert.js';
import { collect, type RawOptions } from './action.js';
import { JUNIT_HELP, parseJunit } from './ci.js';

export function addGateOptions(cmd: Command, what: string): Command {
  return cmd
    .option(
      '--assert <expr>',
      `a JMESPath expression over ${what} that must be true (repeatable); a failed one exits 9`,
      collect,
    )
    .option('--junit <file>', `${JUNIT_HELP} (with --assert)`);
}

export function parseGateOptions(raw: RawOptions) {
  const asserts = raw.assert === undefined ? [] : ([] as unknown[]).concat(raw.assert).map(String);
  const junit = parseJunit(raw);
  if (junit !== undefined && asserts.length === 0)
    throw new UsageError('--junit here reports assertions: give at least one --assert EXPR');
  return { asserts, junit };
}

/** Compiles the assertions before anything is sent (a bad one is exit 2). */
export async function compileGate(gate: ReturnType<typeof parseGateOptions>): Promise<Assertion[]> {
  if (gate.asserts.length === 0) return [];
  const { compileAssertions } = await import('../output/assert.js');
  return compileAssertions(gate.asserts);
}

/**
 * Whether a command prints its result: always without --assert; with it only when the output was asked for
 * (-o, --json, --query, --columns), since a gate's reader wants the verdict, not a 60-line report before it.
 */
export function showsResult(ctx: Context, assertions: readonly Assertion[]): boolean {
  return assertions.length === 0 || ctx.globals.outputAsked;
}

/** Checks every assertion over each item, reports each failure, and returns the error when any failed. */
export async function checkGate(
  ctx: Context,
  assertions: readonly Assertion[],
  items: ReadonlyArray<{ label?: string | undefined; value: unknown }>,
): Promise<CpkError | undefined> {
  if (assertions.length === 0) return undefined;
  const failures: string[] = [];
  let total = 0;
  for (const item of items) {
    for (const assertion of assertions) {
      total += 1;
      const result = assertion.check(item.value);
      const name = item.label === undefined ? result.expression : `${item.label}: ${result.expression}`;
      if (result.ok) {
        ctx.ci?.add({ name, classname: 'assertions' });
        continue;
      }
      const line = `assertion failed: ${name} (${result.saw})`;
      failures.push(line);
      if (!ctx.out.json) ctx.out.info(`cpk: ${line}`);
      await ctx.ci?.annotate({ message: line });
      ctx.ci?.add({ name, classname: 'assertions', failure: { message: result.saw, details: line } });
    }
  }
  if (failures.length === 0) {
    if (!ctx.out.json) ctx.out.info(total === 1 ? 'the assertion held' : `all ${total} assertions held`);
    return undefined;
  }
  const detail = ctx.out.json ? `: ${failures.join('; ')}` : '';
  return new CpkError(
    `${failures.length} of ${total} assertion${total === 1 ? '' : 's'} failed${detail}`,
    ExitCode.ASSERTION_FAILED,
  );
}
