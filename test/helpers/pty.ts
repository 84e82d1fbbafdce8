// Runs the built CLI in a pseudo-terminal (test/helpers/pty-run.py, python3),
// for the live views: what reached the terminal, Ctrl-C typed on it, a resize.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { BIN, baseEnv } from './cli.js';
import { track } from './children.js';

const DRIVER = resolve(import.meta.dirname, 'pty-run.py');

export interface PtyRun {
  /** Everything written to the terminal so far (stdout and stderr, as a terminal mixes them). */
  output(): string;
  /** Resolves once the output, from `from` on, matches `pattern`; rejects after `timeoutMs`. */
  waitFor(pattern: RegExp, from?: number, timeoutMs?: number): Promise<void>;
  /** Types Ctrl-C. */
  interrupt(): void;
  /** Types `text` on the terminal, as keys (\t is Tab, \r is Enter). */
  type(text: string): void;
  /** Sends a signal to the command (TERM). */
  signal(name: 'TERM'): void;
  resize(columns: number, rows: number): void;
  /** The end: the exit code (null when killed by a signal), and the whole output. */
  done: Promise<{ code: number | null; signal: number | null; output: string }>;
}

export interface PtyOptions {
  env?: Record<string, string | undefined>;
  columns?: number;
  rows?: number;
  timeoutMs?: number;
}

/** The built CLI with `args`, in a pseudo-terminal. */
export function runInPty(args: string[], options: PtyOptions = {}): PtyRun {
  return runCommandInPty([process.execPath, BIN, ...args], options);
}

/** Any command (an interactive shell, for completion) in a pseudo-terminal. */
export function runCommandInPty(argv: string[], options: PtyOptions = {}): PtyRun {
  const child = track(
    spawn('python3', [DRIVER, String(options.columns ?? 100), String(options.rows ?? 30), ...argv], {
      env: baseEnv({ TERM: 'xterm-256color', ...options.env }),
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    }),
  );
  let output = '';
  let status = '';
  const watchers = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    output += d;
    for (const w of watchers) w();
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => (status += d));
  // At the deadline the driver kills the command (SIGTERM to the driver), then itself if it must.
  let last: NodeJS.Timeout | undefined;
  const timer = setTimeout(() => {
    child.kill('SIGTERM');
    last = setTimeout(() => child.kill('SIGKILL'), 5_000);
  }, options.timeoutMs ?? 40_000);
  const done = new Promise<{ code: number | null; signal: number | null; output: string }>((resolveDone, reject) => {
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      clearTimeout(last);
      const exit = /exit (\d+)/.exec(status);
      const signal = /signal (\d+)/.exec(status);
      resolveDone({ code: exit ? Number(exit[1]) : null, signal: signal ? Number(signal[1]) : null, output });
    });
  });
  child.stdin.on('error', () => {});
  return {
    output: () => output,
    waitFor(pattern, from = 0, timeoutMs = 30_000) {
      return new Promise((resolveWait, reject) => {
        const check = () => {
          if (!pattern.test(output.slice(from))) return false;
          watchers.delete(check);
          clearTimeout(giveUp);
          resolveWait();
          return true;
        };
        const giveUp = setTimeout(() => {
          watchers.delete(check);
          reject(new Error(`no ${String(pattern)} on the terminal within ${timeoutMs} ms; it shows:\n${output}`));
        }, timeoutMs);
        if (!check()) watchers.add(check);
      });
    },
    interrupt: () => child.stdin.write('INT\n'),
    type: (text) => child.stdin.write(`KEYS ${Buffer.from(text, 'utf8').toString('hex')}\n`),
    signal: (name) => child.stdin.write(`${name}\n`),
    resize: (columns, rows) => child.stdin.write(`RESIZE ${columns} ${rows}\n`),
    done,
  };
}
