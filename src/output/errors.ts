import { ApiError, CpkError, ExitCode } from '../core/errors.js';
import type { IO } from '../core/io.js';
import { toJson } from './json.js';
import { defuseWorkflowCommands, defuseWorkflowCommandsEncoded, sanitize, sanitizeLine } from '../core/sanitize.js';
import { redactSecrets } from '../core/redact.js';

/** What the person sees about an error: one line, in the service's words where it gave them. */
export function describeError(error: unknown, hint?: string) {
  // Messages and request ids hold server text, which may echo the token (a hostile or broken server).
  const clean = (text: string) => redactSecrets(sanitizeLine(text));
  if (error instanceof CpkError) {
    const api = error instanceof ApiError ? error : undefined;
    // A hint that knows where things came from replaces the error's general one.
    const next = hint ?? error.hint;
    return {
      message: next ? `${clean(error.message)}; ${clean(next)}` : clean(error.message),
      exitCode: error.exitCode,
      status: api && api.status > 0 ? api.status : null,
      requestId: api?.requestId === undefined ? null : clean(api.requestId),
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    message: `unexpected error: ${clean(message)} (run with --debug for details)`,
    exitCode: ExitCode.FAILURE,
    status: null,
    requestId: null,
  };
}

/** Writes an error to stderr: one line, or JSON under --json; an `item` of a bulk command is named, its fields kept. */
export function writeError(
  io: IO,
  error: unknown,
  options: {
    json: boolean;
    debug?: boolean;
    hint?: string | undefined;
    item?: { label: string; fields: Record<string, unknown> };
  },
): number {
  const report = describeError(error, options.hint);
  // Under GitHub Actions the runner reads stderr for workflow commands, and the message is the service's.
  const ciLog = io.env.GITHUB_ACTIONS === 'true';
  const defuse = (text: string) => (ciLog ? defuseWorkflowCommands(text) : text);
  if (options.json) {
    const line = toJson(
      {
        ...options.item?.fields,
        error: report.message,
        status: report.status,
        request_id: report.requestId,
        exit_code: report.exitCode,
      },
      0,
    );
    io.stderr.write(`${ciLog ? defuseWorkflowCommandsEncoded(line) : line}\n`);
  } else {
    const label = options.item ? `${sanitizeLine(options.item.label)}: ` : '';
    const id = report.requestId ? ` (request id: ${report.requestId})` : '';
    io.stderr.write(`${defuse(`cpk: ${label}${report.message}${id}`)}\n`);
  }
  if (
    options.debug &&
    error instanceof Error &&
    error.stack &&
    !(error instanceof CpkError && error.exitCode === ExitCode.USAGE)
  ) {
    io.stderr.write(`${defuse(sanitizeStack(error))}\n`);
  }
  return report.exitCode;
}

function sanitizeStack(error: Error): string {
  let text = error.stack ?? '';
  let cause = error.cause;
  while (cause instanceof Error) {
    text += `\ncaused by: ${cause.stack ?? cause.message}`;
    cause = cause.cause;
  }
  // A stack holds messages, and messages may hold server text.
  return redactSecrets(sanitize(text));
}
