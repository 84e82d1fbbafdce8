// Glue between commander and a command's run function: builds the Context from
// the global options and hands it over. Commander's raw values stop here.
import type { Command } from 'commander';
import type { Context } from './context.js';
import type { IO } from '../core/io.js';
import { effectOf, setTraits, streamsWith, type Traits } from '../completion/tree.js';
import type { HeldStdout } from './agent.js';

export interface Runtime {
  io: IO;
  signal?: AbortSignal | undefined;
  /** The context of the command that ran, so main can close it and read its exit code. */
  context?: Context;
  /** The command changes something (create, apply...): it always finishes, even when its reader went away. */
  writes?: boolean;
  /** Agent mode's held stdout (src/cli/agent.ts), set by main; a command that streams lets it through. */
  held?: HeldStdout;
  /**
   * Runs another cpk command line in this process with an IO of its own, as main does (the tools of `cpk mcp`).
   * Given by main, so that no command imports the program it is part of.
   */
  runCommandLine?: (argv: string[], io: IO) => Promise<number>;
}

/** The options commander parsed for `cmd`, typed loosely: each command narrows them in its parse step. */
export type RawOptions = Record<string, unknown>;

export function action(
  runtime: Runtime,
  handler: (ctx: Context, args: string[], opts: RawOptions, cmd: Command) => Promise<void>,
) {
  return async (...params: unknown[]): Promise<void> => {
    const cmd = params[params.length - 1] as Command;
    const args = params.slice(0, -2).flatMap((p) => (Array.isArray(p) ? (p as string[]) : [p as string]));
    // A command that changes something always finishes, even when its reader went away (src/cli/main.ts).
    runtime.writes = effectOf(cmd, args) !== 'read';
    // Loaded here, not at the top: the context pulls in the output layer, which help and completion never use.
    const [{ Context }, { parseGlobals }] = await Promise.all([import('./context.js'), import('./globals.js')]);
    const ctx = new Context(runtime.io, parseGlobals(cmd.optsWithGlobals(), runtime.io.env), runtime.signal);
    // A command that runs until it is stopped cannot end in one document: agent mode lets its output through.
    if (runtime.held && streamsWith(cmd, cmd.opts())) runtime.held.stream();
    runtime.context = ctx;
    // A bad --query is a usage error before anything is sent.
    if (ctx.globals.query !== undefined)
      ctx.out.query = await (await import('../output/query.js')).compileQuery(ctx.globals.query);
    await handler(ctx, args, cmd.opts(), cmd);
  };
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function examples(cmd: Command, ...lines: string[]): Command {
  return cmd.addHelpText('after', `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`);
}

/**
 * Declares, beside a command's definition, what commander cannot hold: what it changes, where its values complete
 * from, the words that suggest it, and its examples. Help, man pages, completion, suggestions and the agent
 * surfaces are all derived from this and from the commander definition; nothing else lists commands.
 */
export function describe(cmd: Command, { examples: lines = [], ...traits }: Traits & { examples?: string[] }): Command {
  setTraits(cmd, traits);
  return lines.length > 0 ? examples(cmd, ...lines) : cmd;
}
