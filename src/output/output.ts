// Everything cpk prints goes through an Output: results to stdout, messages,
// spinners and errors to stderr. Decoration (color, spinners) only on a
// terminal, never under --json, NO_COLOR or CI.
import type { IO } from '../io.js';
import { InterruptedError } from '../errors.js';
import { toJson } from './json.js';
import { sanitize, sanitizeLine } from './sanitize.js';
import { flatten } from './flatten.js';
import { redactSecrets } from './redact.js';

export interface OutputSettings {
  json: boolean;
  /** false under --no-color */
  colorFlag: boolean;
  debug: boolean;
  /** Aborted on Ctrl-C: a running spinner stops at once and the terminal is restored. */
  signal?: AbortSignal | undefined;
}

function envFlag(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** Whether decoration is allowed on a stream: a terminal, no NO_COLOR, no CI, no --json, no --no-color. */
export function decorate(io: IO, isTTY: boolean, settings: Pick<OutputSettings, 'json' | 'colorFlag'>): boolean {
  if (!isTTY || settings.json || !settings.colorFlag) return false;
  // NO_COLOR: any non-empty value disables color (no-color.org). chalk alone does not honour it.
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') return false;
  if (envFlag(io.env.CI)) return false;
  if (io.env.TERM === 'dumb') return false;
  return true;
}

type Painter = (text: string) => string;
interface Palette {
  key: Painter;
  dim: Painter;
  ok: Painter;
  bad: Painter;
  warn: Painter;
  changed: Painter;
}
const PLAIN: Palette = { key: (t) => t, dim: (t) => t, ok: (t) => t, bad: (t) => t, warn: (t) => t, changed: (t) => t };

export interface DetailOptions {
  /** Keys whose value changed since the last display, with the old value's text ('' when the key is new). */
  changed?: ReadonlyMap<string, string>;
}

export class Output {
  readonly stdoutColor: boolean;
  readonly stderrColor: boolean;
  /** --query, applied to every JSON result (src/output/query.ts). */
  query: ((value: unknown) => unknown) | undefined;
  constructor(
    readonly io: IO,
    readonly settings: OutputSettings,
  ) {
    this.stdoutColor = decorate(io, io.stdoutIsTTY, settings);
    this.stderrColor = decorate(io, io.stderrIsTTY, settings);
  }

  get json(): boolean {
    return this.settings.json;
  }

  /**
   * A JSON result on stdout, exactly the value given; under --query, what the
   * expression selects, and a string raw (no quotes) so `$(cpk ... --query id)`
   * gives the value itself.
   */
  printJson(value: unknown, options: { compact?: boolean } = {}): void {
    if (this.query) {
      const selected = this.query(value);
      if (typeof selected === 'string') {
        this.io.stdout.write(`${this.io.stdoutIsTTY ? sanitize(selected) : selected}\n`);
        return;
      }
      value = selected;
    }
    this.io.stdout.write(`${toJson(value, options.compact ? 0 : 2)}\n`);
  }

  /** A plain line of result on stdout (sanitized: it may hold server text). */
  printLine(text: string): void {
    this.io.stdout.write(`${sanitize(text)}\n`);
  }

  /** A message for the person on stderr (progress, confirmations, warnings). */
  info(text: string): void {
    this.io.stderr.write(`${sanitize(text)}\n`);
  }

  warn(text: string): void {
    this.io.stderr.write(`${redactSecrets(sanitizeLine(`warning: ${text}`))}\n`);
  }

  debug(text: string): void {
    if (this.settings.debug) this.io.stderr.write(`${redactSecrets(sanitizeLine(text))}\n`);
  }

  private async palette(): Promise<Palette> {
    if (!this.stdoutColor) return PLAIN;
    const { Chalk } = await import('chalk');
    const chalk = new Chalk({ level: 1 });
    return {
      key: chalk.bold,
      dim: chalk.dim,
      ok: chalk.green,
      bad: chalk.red,
      warn: chalk.yellow,
      changed: chalk.inverse,
    };
  }

  /**
   * A detail object as a key/value table: nested fields as dotted keys.
   * Changed values are shown in inverse video, or without color followed by
   * the value they had (`(was 100)`), so the change is visible either way.
   */
  async printDetail(value: unknown, options: DetailOptions = {}): Promise<void> {
    const rows = flatten(value);
    const paint = await this.palette();
    const { default: Table } = await import('cli-table3');
    const table = new Table({
      chars: {
        top: '',
        'top-mid': '',
        'top-left': '',
        'top-right': '',
        bottom: '',
        'bottom-mid': '',
        'bottom-left': '',
        'bottom-right': '',
        left: '',
        'left-mid': '',
        mid: '',
        'mid-mid': '',
        right: '',
        'right-mid': '',
        middle: '  ',
      },
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
    });
    for (const [key, text] of rows) {
      const old = options.changed?.get(key);
      let cell = colorValue(key, sanitize(text), paint);
      if (old !== undefined)
        cell = this.stdoutColor ? paint.changed(cell) : `${cell}  (${old === '' ? 'new' : `was ${sanitizeLine(old)}`})`;
      table.push([paint.key(sanitizeLine(key)), cell]);
    }
    // cli-table3 pads every cell; trailing blanks only get in the way of grep and diff.
    const text =
      rows.length === 0
        ? '(empty)'
        : table
            .toString()
            .split('\n')
            .map((line) => line.trimEnd())
            .join('\n');
    this.io.stdout.write(`${text}\n`);
  }

  /** Rows under a header, in columns (for lists such as the monitors create --from made). */
  async printRows(head: string[], rows: string[][]): Promise<void> {
    const paint = await this.palette();
    const { default: Table } = await import('cli-table3');
    const table = new Table({
      chars: BORDERLESS,
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
    });
    table.push(head.map((h) => paint.key(sanitizeLine(h))));
    for (const row of rows) table.push(row.map((cell, i) => colorValue(head[i] ?? '', sanitizeLine(cell), paint)));
    this.io.stdout.write(
      `${table
        .toString()
        .split('\n')
        .map((line) => line.trimEnd())
        .join('\n')}\n`,
    );
  }

  /**
   * Runs `work` with a spinner on stderr when decoration is allowed and the
   * work is slow. On Ctrl-C the spinner stops at once (its line cleared, the
   * cursor shown again) and this rejects with InterruptedError without waiting
   * for `work`, which gets the same signal and unwinds on its own.
   */
  async spin<T>(text: string, work: () => Promise<T>): Promise<T> {
    if (!this.stderrColor) return work();
    const signal = this.settings.signal;
    if (signal?.aborted) throw new InterruptedError();
    let spinner: { stop(): void } | undefined;
    let done = false;
    const stop = () => {
      done = true;
      clearTimeout(timer);
      spinner?.stop();
      spinner = undefined;
    };
    // Only slow calls get a spinner, so fast ones never pay for loading ora.
    const timer = setTimeout(() => {
      import('ora')
        .then(({ default: ora }) => {
          if (done) return;
          // isEnabled: decorate() already decided (it reads the IO's env, not process.env).
          spinner = ora({
            text,
            stream: this.io.stderr as NodeJS.WritableStream,
            discardStdin: false,
            isEnabled: true,
          }).start();
        })
        .catch(() => {}); // no spinner is no loss
    }, 150);
    let onAbort: (() => void) | undefined;
    const interrupted = new Promise<never>((_, reject) => {
      onAbort = () => {
        stop();
        reject(new InterruptedError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    const running = work();
    // Whichever loses the race must not become an unhandled rejection.
    running.catch(() => {});
    interrupted.catch(() => {});
    try {
      return await Promise.race([running, interrupted]);
    } finally {
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      stop();
    }
  }
}

const BORDERLESS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '  ',
};

function colorValue(key: string, text: string, paint: Palette): string {
  if (key !== 'status' && !key.endsWith('.status')) return text;
  if (/^(up|ok|active|healthy|passing)$/i.test(text)) return paint.ok(text);
  if (/^(down|failing|error|critical)$/i.test(text)) return paint.bad(text);
  if (/^(paused|pending|degraded|warning)$/i.test(text)) return paint.warn(text);
  return text;
}
