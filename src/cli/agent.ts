// Agent mode (docs/agents.md, "Agent mode"): for a coding agent that runs cpk
// and reads what it prints. stdout carries exactly one JSON document, the
// result or the error; nothing prompts, nothing spins, nothing is colored;
// and a command that would ask first prints what it would do and exits 2.
//
// Everything the command writes to stdout is held here, and main writes the
// one document once the command's outcome is known: a result followed by an
// error (a failed --assert, a bulk command with failures) becomes one error
// document that carries the result, never two documents.
import type { IO, Writer } from '../core/io.js';
import type { Env } from '../core/paths.js';
import { ExitCode } from '../core/errors.js';
import { toJson } from '../output/json.js';

/**
 * The variables coding agents set in the shells they run commands in, each with the agent that sets it.
 * Any non-empty value turns agent mode on (CPK_AGENT=0 turns this detection off). AI_AGENT is the
 * tool-neutral name proposed for any agent to set.
 */
export const AGENT_ENVIRONMENTS: ReadonlyArray<{ variable: string; agent: string }> = [
  { variable: 'AI_AGENT', agent: 'any agent that sets it' },
  { variable: 'CLAUDECODE', agent: 'Claude Code' },
  { variable: 'CURSOR_AGENT', agent: 'Cursor (its agent and cursor-agent CLI)' },
  { variable: 'CODEX_SANDBOX', agent: 'OpenAI Codex CLI (a sandboxed command)' },
  { variable: 'CODEX_CI', agent: 'OpenAI Codex' },
  { variable: 'CODEX_THREAD_ID', agent: 'OpenAI Codex' },
  { variable: 'GEMINI_CLI', agent: 'Gemini CLI' },
  { variable: 'ANTIGRAVITY_AGENT', agent: 'Google Antigravity' },
  { variable: 'AUGMENT_AGENT', agent: 'Augment CLI' },
];

/** `--agent`, else CPK_AGENT (1 on, 0 off), else one of the agent environments detected. */
export function agentMode(flag: boolean, env: Env): boolean {
  if (flag) return true;
  const chosen = env.CPK_AGENT?.trim();
  if (chosen === '1' || chosen === 'true') return true;
  if (chosen === '0' || chosen === 'false') return false;
  return AGENT_ENVIRONMENTS.some(({ variable }) => (env[variable] ?? '') !== '');
}

/** What a command wrote to stdout under agent mode, until main writes the document (or the command streams). */
export class HeldStdout implements Writer {
  text = '';
  /** Set once a command that streams passed its output through: nothing is held, nothing is written after it. */
  private through: Writer | undefined;
  constructor(private readonly stdout: Writer) {}

  write(chunk: string): unknown {
    if (this.through) return this.through.write(chunk);
    this.text += chunk;
    return true;
  }

  /**
   * A command that runs until it is stopped (a watch, the emulator) cannot end in one document: its
   * output goes out as it is written, as without agent mode.
   */
  stream(): void {
    this.through = this.stdout;
    if (this.text !== '') this.stdout.write(this.text);
    this.text = '';
  }

  get streaming(): boolean {
    return this.through !== undefined;
  }
}

/** The IO a command gets in agent mode: stdout held, and no terminal anywhere, so nothing prompts or spins. */
export function agentIO(io: IO, held: HeldStdout): IO {
  // Not a spread: that would make the lazy stdin stream (src/core/io.ts).
  const agent = Object.create(io) as IO;
  for (const [key, value] of Object.entries({
    stdout: held,
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdoutColumns: undefined,
  }))
    Object.defineProperty(agent, key, { value, enumerable: true });
  return agent;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The error object of a command interrupted (Ctrl-C, SIGTERM), which says nothing itself outside agent mode. */
export const INTERRUPTED_DOCUMENT = `${toJson({ error: 'interrupted', status: null, request_id: null, exit_code: ExitCode.INTERRUPTED }, 0)}\n`;

/**
 * The one document: `held` is what the command printed, `error` the error object main made (one JSON line),
 * `code` the exit code. A result keeps its text (its numbers exactly as printed); text that is not JSON
 * (help, a completion script) is given as {"text": ...}. A result that ends with a code other than 0 (plan's
 * 10) says so in `exit_code`, as an error does, so the document alone tells the outcome.
 */
export function agentDocument(held: string, error: string | undefined, code: number): string {
  const body = held.trim();
  const json = body !== '' && isJson(body);
  if (error !== undefined) {
    // Only a whole result goes with an error: a list cut short by it is half-written, and left out.
    const object = error.trim();
    return json ? `${object.slice(0, -1)},"result":${body}}\n` : `${object}\n`;
  }
  const document = json ? body : body === '' ? '{}' : toJson({ text: held }, 2);
  if (code === 0) return `${document}\n`;
  // An object gets the code beside its fields; anything else (a list) goes under "result".
  if (document.startsWith('{')) {
    const inner = document.slice(1, -1).trim();
    return `{${inner === '' ? '' : `${document.slice(1, -1).trimEnd()},\n  `}"exit_code": ${code}\n}\n`;
  }
  return `{"result":${document},"exit_code":${code}}\n`;
}
