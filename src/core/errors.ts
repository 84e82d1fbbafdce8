// cpk's error types. Everything that can go wrong ends as one of these, and
// only src/cli/main.ts turns them into an exit code and a message (the exit-code
// table is documented in docs/scripting.md, "Exit codes"; keep the two in step).

export const ExitCode = {
  OK: 0,
  FAILURE: 1,
  USAGE: 2,
  NETWORK: 3,
  AUTH: 4,
  FORBIDDEN: 5,
  NOT_FOUND: 6,
  INVALID: 7,
  /** `cpk monitors wait` only: the timeout passed before every monitor matched. */
  WAIT_TIMEOUT: 8,
  /** `--assert` (`reports get`, `monitors get`): an assertion over the result did not hold. */
  ASSERTION_FAILED: 9,
  /** `cpk plan` only: the plan has changes (like `terraform plan -detailed-exitcode`). */
  PLAN_CHANGES: 10,
  /** stdout, or the state file of apply, could not be written (a full disk, a file-size limit): EX_IOERR of sysexits.h. */
  OUTPUT_FAILED: 74,
  /** The state file is locked by another run (apply, import): EX_TEMPFAIL of sysexits.h, "try again later". */
  LOCKED: 75,
  INTERRUPTED: 130,
  /** A read command stopped because its reader closed the pipe, as a process killed by SIGPIPE (128 + 13). */
  BROKEN_PIPE: 141,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export interface CpkErrorOptions {
  cause?: unknown;
  /** The next step for the person who has to act, appended to the message. */
  hint?: string;
}

export class CpkError extends Error {
  readonly exitCode: number;
  readonly hint: string | undefined;
  constructor(message: string, exitCode: number, options: CpkErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.exitCode = exitCode;
    this.hint = options.hint;
  }
}

/** Bad command, flag, argument or local input. Nothing was sent. */
export class UsageError extends CpkError {
  constructor(message: string, options?: CpkErrorOptions) {
    super(message, ExitCode.USAGE, options);
  }
}

/**
 * Agent mode: the command would have asked the person first (a delete, an apply that deletes). Nothing
 * was changed; `preview` says what would happen, and main prints it as {"confirmation_required": ...}.
 */
export class ConfirmationRequiredError extends CpkError {
  constructor(
    readonly preview: Readonly<Record<string, unknown>>,
    what: string,
  ) {
    super(`${what} needs confirmation; nothing was changed`, ExitCode.USAGE, {
      hint: 'run it again with --yes to proceed',
    });
  }
}

/**
 * No token, or a token cpk refuses to send. Nothing was sent. A session keeps it rather than failing, so that
 * commands needing no token still run; `exitCode` is 4 unless the token is input the person must fix (2).
 */
export class AuthError extends CpkError {
  constructor(message: string, options: CpkErrorOptions & { exitCode?: number } = {}) {
    super(message, options.exitCode ?? ExitCode.AUTH, options);
  }
}

/** Could not talk to the server: connect, DNS, TLS, timeout. */
export class NetworkError extends CpkError {
  /**
   * false only when no byte of the request left (refused, DNS, a failed TLS handshake or proxy tunnel).
   * Domain code (apply) decides by this, never by the transport's failure classes.
   */
  readonly mayHaveReachedServer: boolean;
  constructor(message: string, options: CpkErrorOptions & { mayHaveReachedServer?: boolean } = {}) {
    super(message, ExitCode.NETWORK, options);
    this.mayHaveReachedServer = options.mayHaveReachedServer ?? true;
  }
}

export interface ApiErrorDetails {
  status: number;
  method: string;
  url: string;
  requestId?: string | undefined;
  contentType?: string | undefined;
}

/** Maps an HTTP status to cpk's exit code (docs/scripting.md, "Exit codes"). */
export function exitCodeForStatus(status: number): number {
  if (status === 401) return ExitCode.AUTH;
  if (status === 403) return ExitCode.FORBIDDEN;
  if (status === 404) return ExitCode.NOT_FOUND;
  // Timed out or rate limited by the server (after cpk's retries): not a
  // rejection of the request itself, so the generic failure, like a 503.
  if (status === 408 || status === 429) return ExitCode.FAILURE;
  if (status >= 400 && status < 500) return ExitCode.INVALID;
  return ExitCode.FAILURE;
}

/**
 * The server answered, and the answer is a failure: a non-2xx status, or a
 * response cpk cannot use (not JSON, truncated, unexpected shape). The URL
 * never carries the token (it travels in a header only).
 */
export class ApiError extends CpkError {
  readonly status: number;
  readonly method: string;
  readonly url: string;
  readonly requestId: string | undefined;
  readonly contentType: string | undefined;
  constructor(message: string, details: ApiErrorDetails, options: CpkErrorOptions & { exitCode?: number } = {}) {
    super(message, options.exitCode ?? exitCodeForStatus(details.status), options);
    this.status = details.status;
    this.method = details.method;
    this.url = details.url;
    this.requestId = details.requestId;
    this.contentType = details.contentType;
  }
}

/** The user pressed Ctrl-C. */
export class InterruptedError extends CpkError {
  constructor() {
    super('interrupted', ExitCode.INTERRUPTED);
  }
}
