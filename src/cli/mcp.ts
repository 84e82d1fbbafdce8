// `cpk mcp`: a Model Context Protocol server on stdio (the official SDK, loaded
// only here). Each tool call runs the matching command in this process with
// --json, exactly as the command line would, and hands back what it printed:
// the result an agent gets is the result a script gets.
//
// Read-only unless a person says otherwise. Tool annotations are hints a client
// may ignore, so the handler itself refuses what the person did not allow.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import type { Command } from 'commander';
import type { jsonSchemaValidator } from './mcp-sdk.js';
import type { Context } from './context.js';
import type { IO } from '../core/io.js';
import type { Env } from '../core/paths.js';
import { ExitCode } from '../core/errors.js';
import { isPlainObject, parseJson, setOwn, stringifyJson, type JsonObject } from '../core/json.js';
import { sanitize, sanitizeLine } from '../core/sanitize.js';
import { version } from '../core/version.js';
import { argvOf, DATA_NOT_INSTRUCTIONS, inputSchema, toolsOf, type ToolSpec } from './mcp-tools.js';

export interface McpOptions {
  allowWrite: boolean;
  allowDelete: boolean;
  sandbox: boolean;
}

interface CommandRun {
  code: number;
  stdout: string;
  stderr: string;
}

interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent: JsonObject;
  isError?: boolean;
}

const SANDBOX_NOTE =
  "This result came from cpk's sandbox: an emulator in this process with sample data, not the real service.";

/** Every string of a parsed result, keys included, without control or bidi characters: the model reads data, not escapes. */
export function sanitizeDeep(value: unknown): unknown {
  if (typeof value === 'string') return sanitize(value);
  if (Array.isArray(value)) return value.map(sanitizeDeep);
  if (!isPlainObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) setOwn(out, sanitize(key), sanitizeDeep(item));
  return out;
}

/**
 * The text content: the structured result as JSON, its numbers exactly as the service wrote them (the structured
 * copy carries the nearest double, as any JSON.parse would).
 */
const asText = (value: JsonObject) => stringifyJson(value);

/** What `--json` printed, as the object MCP wants: a list under `items`, another value under `value`. */
function resultObject(text: string): JsonObject | undefined {
  if (text.trim() === '') return undefined;
  // Numbers a double cannot hold stay as written (ExactNumber), for the text content (see asText).
  const parsed = parseJson(text);
  if (!parsed.ok) return { text: sanitize(text) };
  const clean = sanitizeDeep(parsed.value);
  if (Array.isArray(clean)) return { items: clean };
  return isPlainObject(clean) ? clean : { value: clean };
}

/** `runCommandLine`: main() for a nested command line (Runtime.runCommandLine). */
export async function serve(
  opts: McpOptions,
  ctx: Context,
  root: Command,
  runCommandLine: (argv: string[], io: IO) => Promise<number>,
): Promise<void> {
  const { Server, StdioServerTransport, CallToolRequestSchema, ListToolsRequestSchema, AjvJsonSchemaValidator } =
    await import('./mcp-sdk.js');
  const tools = toolsOf(root);
  const listed = tools.filter((tool) => tool.effect === 'read' || opts.allowWrite);
  // Saved plans the plan tool wrote (src/manifest/saved.ts), by the id it gave the agent: apply takes nothing else.
  const planDir = mkdtempSync(join(tmpdir(), 'cpk-mcp-plans-'));
  const plans = new Map<string, { file: string; document: JsonObject }>();
  const cleanups: Array<() => Promise<void> | void> = [() => rmSync(planDir, { recursive: true, force: true })];

  let env: Env = ctx.env;
  // The sandbox's emulator is the service: no profile or base URL given to cpk mcp applies to it.
  const globals = globalArgs(ctx, opts.sandbox);
  const runCommand = async (argv: string[]): Promise<CommandRun> => {
    let stdout = '';
    let stderr = '';
    // No terminal, nothing to read: a command that would prompt refuses instead, and nothing reaches the
    // protocol's own stdout.
    const io: IO = {
      stdout: { write: (text: string) => ((stdout += text), true) },
      stderr: { write: (text: string) => ((stderr += text), true) },
      stdin: Readable.from([]),
      stdinIsTTY: false,
      stdoutIsTTY: false,
      stderrIsTTY: false,
      // A tool's result is what --json prints, its error the object --json writes on stderr: never agent mode's
      // one document on stdout, which the agent's own environment would otherwise turn on.
      env: { ...env, CPK_AGENT: '0' },
    };
    const code = await runCommandLine([...globals, ...argv], io);
    return { code, stdout, stderr };
  };

  try {
    if (opts.sandbox) {
      const sandbox = await startSandbox(ctx.env, runCommand, (next) => (env = next));
      cleanups.push(sandbox.close);
    }

    // The SDK checks an elicitation's answer with this; its default, made with the server, compiles ajv's formats
    // before the first message is read. Made at the first question instead, as the only one ever asked is a
    // deletion's, and most sessions ask none.
    let validator: InstanceType<typeof AjvJsonSchemaValidator> | undefined;
    const jsonSchemaValidator: jsonSchemaValidator = {
      getValidator: (schema) => (validator ??= new AjvJsonSchemaValidator()).getValidator(schema),
    };
    const server = new Server(
      { name: 'cpk', version },
      {
        jsonSchemaValidator,
        capabilities: { tools: {} },
        instructions:
          `Tools of cpk, the command line of a monitoring service. ${DATA_NOT_INSTRUCTIONS} ` +
          (opts.allowWrite
            ? 'Changes are allowed; a deletion is confirmed by the person first. apply carries out only a plan the plan tool issued (by its plan_id).'
            : 'This server is read-only: tools that change the service are not offered.') +
          (opts.sandbox ? ` ${SANDBOX_NOTE}` : ''),
      },
    );

    const finish = (result: ToolResult): ToolResult =>
      opts.sandbox
        ? { ...result, content: [...result.content, { type: 'text', text: SANDBOX_NOTE }], _meta: { sandbox: true } }
        : result;
    const refuse = (message: string): ToolResult =>
      finish({
        content: [{ type: 'text', text: `refused: ${message}` }],
        structuredContent: { error: message, refused: true },
        isError: true,
      });

    /** The person says yes to a deletion: asked through the client where it can ask, else --allow-delete. */
    const deletionAllowed = async (what: string): Promise<string | undefined> => {
      if (server.getClientCapabilities()?.elicitation) {
        const answer = await server.elicitInput({
          message: `An agent asks cpk to ${what}. This cannot be undone. Allow it?`,
          requestedSchema: {
            type: 'object',
            properties: { confirm: { type: 'boolean', title: 'Delete', description: 'yes to delete' } },
            required: ['confirm'],
          },
        });
        return answer.action === 'accept' && answer.content?.confirm === true
          ? undefined
          : `the person did not allow cpk to ${what}; nothing was sent`;
      }
      if (opts.allowDelete) return undefined;
      return `not allowed to ${what}: this client cannot ask the person (no MCP elicitation), and the server was not started with --allow-delete; nothing was sent`;
    };

    const outcome = (tool: ToolSpec, run: CommandRun, extra: JsonObject = {}): ToolResult => {
      const ok = run.code === ExitCode.OK || (tool.name === 'plan' && run.code === ExitCode.PLAN_CHANGES);
      const result = resultObject(run.stdout);
      if (ok) {
        const structured = { ...result, ...extra };
        return finish({ content: [{ type: 'text', text: asText(structured) }], structuredContent: structured });
      }
      // The error object --json writes on stderr (error, status, request_id, exit_code): a 403 is an answer too.
      let error = resultObject(run.stderr);
      if (error === undefined || 'text' in error)
        error = { error: sanitizeLine(run.stderr.trim()) || `exit code ${run.code}`, exit_code: run.code };
      const structured = result === undefined ? error : { ...error, result };
      return finish({
        content: [{ type: 'text', text: asText(structured) }],
        structuredContent: structured,
        isError: true,
      });
    };

    const callTool = async (name: string, input: Record<string, unknown>): Promise<ToolResult> => {
      const tool = tools.find((t) => t.name === name);
      if (!tool) return refuse(`no tool named ${sanitizeLine(name)}`);
      if (tool.effect !== 'read' && !opts.allowWrite)
        return refuse(
          `${tool.name} changes the service, and this server is read-only (a person can start it with cpk mcp --allow-write); nothing was sent`,
        );
      let argv: string[];
      try {
        if (tool.name === 'apply') return await applyPlan(tool, input);
        argv = argvOf(tool, input, tool.effect === 'destroy' ? ['--yes'] : []);
      } catch (error) {
        return refuse((error as Error).message);
      }
      if (tool.name === 'plan') {
        const file = join(planDir, `${randomBytes(8).toString('hex')}.json`);
        const run = await runCommand(argvOf(tool, input, [`--out=${file}`]));
        const document = resultObject(run.stdout);
        if (run.code !== ExitCode.OK && run.code !== ExitCode.PLAN_CHANGES) return outcome(tool, run);
        const planId = `plan_${randomBytes(8).toString('hex')}`;
        plans.set(planId, { file, document: document ?? {} });
        return outcome(tool, run, { plan_id: planId });
      }
      if (tool.effect === 'destroy' && input['dry-run'] !== true) {
        const ids = (Array.isArray(input.ids) ? input.ids : [input.ids]).map(String);
        const refused = await deletionAllowed(`delete ${await monitorNames(ids)}`);
        if (refused) return refuse(refused);
      }
      return outcome(tool, await runCommand(argv));
    };

    /** `apply` of a plan this server's plan tool issued: cpk apply FILE refuses it once stale, as for any saved plan. */
    const applyPlan = async (tool: ToolSpec, input: Record<string, unknown>): Promise<ToolResult> => {
      const planId = input.plan;
      const saved = typeof planId === 'string' ? plans.get(planId) : undefined;
      if (!saved)
        return refuse(
          `${typeof planId === 'string' ? `plan ${sanitizeLine(planId)}` : 'that plan'} was not issued by this server's plan tool; call plan first and pass its plan_id`,
        );
      const deleted = (Array.isArray(saved.document.monitors) ? saved.document.monitors : []).filter(
        (step): step is JsonObject => isPlainObject(step) && step.action === 'delete',
      );
      if (deleted.length > 0) {
        const names = deleted.map((step) => `${String(step.id)} "${String(step.key)}"`).join(', ');
        const refused = await deletionAllowed(`apply ${planId as string}, which deletes monitors ${names}`);
        if (refused) return refuse(refused);
      }
      // Used once: after an apply the state has moved on, and a plan is made again for what remains.
      plans.delete(planId as string);
      return outcome(tool, await runCommand(argvOf(tool, { ...input, plan: saved.file }, ['--yes'])));
    };

    /** `mon_1 "Checkout API", mon_2`: the names a confirmation shows, read as monitors get reads them. */
    const monitorNames = async (ids: string[]): Promise<string> => {
      const run = await runCommand(['monitors', 'get', '--json', '--', ...ids]);
      const result = run.code === ExitCode.OK ? resultObject(run.stdout) : undefined;
      const found = (result?.items ?? [result]) as unknown[];
      const names = new Map<string, string>();
      for (const m of found) if (isPlainObject(m) && typeof m.name === 'string') names.set(String(m.id), m.name);
      const each = ids.map((id) => (names.has(id) ? `${id} "${sanitizeLine(names.get(id) as string)}"` : id));
      return `${ids.length === 1 ? 'monitor' : `${ids.length} monitors`} ${each.join(', ')}`;
    };

    // The kinds of check the service declares, from its cached document only (as completion reads them):
    // listing tools never waits for the network, and a tool that reads the document caches it for the next list.
    const declaredTypes = async (): Promise<string[]> => {
      const { cachedSpecInfo } = await import('../core/api/spec.js');
      const baseUrl = opts.sandbox ? env.CPK_BASE_URL : (await ctx.session({ anonymous: true })).baseUrl.value;
      const type = cachedSpecInfo(baseUrl ?? '', env)
        .body('create')
        ?.fields.find((field) => field.name === 'type');
      return (type?.enum ?? []).filter((value): value is string => typeof value === 'string').map(sanitizeLine);
    };
    server.setRequestHandler(ListToolsRequestSchema, async () => {
      const types = await declaredTypes().catch(() => []);
      return {
        tools: listed.map((tool) => ({
          name: tool.name,
          description: tool.description,
          inputSchema: inputSchema(tool, types),
          annotations: { title: `cpk ${tool.path.join(' ')}`, ...tool.annotations },
        })),
      };
    });
    server.setRequestHandler(CallToolRequestSchema, (request) =>
      callTool(request.params.name, request.params.arguments ?? {}),
    );

    const stdin = ctx.io.stdin as Readable;
    const stdout = new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        ctx.io.stdout.write(chunk.toString());
        callback();
      },
    });
    const closed = new Promise<void>((resolve) => {
      server.onclose = resolve;
      // The client closing our stdin ends the session, as Ctrl-C does.
      stdin.once('end', () => void server.close());
      ctx.signal?.addEventListener('abort', () => void server.close(), { once: true });
    });
    await server.connect(new StdioServerTransport(stdin, stdout));
    await closed;
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

/** The global options `cpk mcp` was given, passed on to every command it runs (the profile, the base URL, limits). */
function globalArgs(ctx: Context, sandbox: boolean): string[] {
  const g = ctx.globals;
  return [
    ...(g.profile !== undefined && !sandbox ? [`--profile=${g.profile}`] : []),
    ...(g.baseUrl !== undefined && !sandbox ? [`--base-url=${g.baseUrl}`] : []),
    ...(g.timeoutGiven ? [`--timeout=${g.timeoutSeconds}`] : []),
    ...(g.maxTimeSeconds !== undefined ? [`--max-time=${g.maxTimeSeconds}`] : []),
    ...(g.retries !== undefined ? [`--retries=${g.retries}`] : []),
  ];
}

/**
 * `--sandbox`: an emulator in this process, seeded with a few monitors, and an environment of its own (config,
 * cache and data in a temporary directory) so that no profile, token or inventory of this machine is read or
 * written.
 */
async function startSandbox(
  base: Env,
  runCommand: (argv: string[]) => Promise<CommandRun>,
  useEnv: (env: Env) => void,
): Promise<{ close: () => Promise<void> }> {
  const { startEmulator } = await import('../emulator/server.js');
  const emu = await startEmulator({ host: '127.0.0.1', port: 0, seed: 1 });
  const home = mkdtempSync(join(tmpdir(), 'cpk-mcp-sandbox-'));
  useEnv({
    PATH: base.PATH,
    HOME: home,
    TMPDIR: base.TMPDIR,
    CPK_CONFIG_DIR: join(home, 'config'),
    CPK_CACHE_DIR: join(home, 'cache'),
    CPK_DATA_DIR: join(home, 'data'),
    CPK_BASE_URL: emu.baseUrl,
    CPK_TOKEN: emu.token,
  });
  for (const [name, target] of [
    ['Checkout API', 'https://shop.example.com/health'],
    ['Marketing site', 'https://www.example.com/'],
  ] as const)
    await runCommand(['monitors', 'create', `--name=${name}`, '--type=http', `--target=${target}`, '--interval=1m']);
  return {
    close: async () => {
      await emu.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
