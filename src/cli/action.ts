// Glue between commander and a command's run function: builds the Context from
// the global options and hands it over. Commander's raw values stop here.
import type { Command } from 'commander';
import type { Context } from './context.js';
import type { IO } from '../core/io.js';

export interface Runtime {
  io: IO;
  signal?: AbortSignal | undefined;
  /** The context of the command that ran, so main can close it and read its exit code. */
  context?: Context;
  /** The command changes something (create, apply...): it always finishes, even when its reader went away. */
  writes?: boolean;
}

const WRITE_VERBS = new Set(['create', 'update', 'delete', 'apply', 'import', 'login', 'logout', 'use', 'remove']);

/** Whether a command changes something on the service or on this machine (src/cli/main.ts, closed stdout rule). */
export function isWriteCommand(cmd: Command, args: readonly string[]): boolean {
  if (cmd.name() === 'api') return !/^(GET|HEAD|OPTIONS)$/i.test(args[0] ?? 'GET');
  return WRITE_VERBS.has(cmd.name());
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
    runtime.writes = isWriteCommand(cmd, args);
    // Loaded here, not at the top: the context pulls in the output layer, which help and completion never use.
    const { Context, parseGlobals } = await import('./context.js');
    const ctx = new Context(runtime.io, parseGlobals(cmd.optsWithGlobals()), runtime.signal);
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
