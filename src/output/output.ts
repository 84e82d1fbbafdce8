// Everything cpk prints goes through an Output: results to stdout, messages,
// spinners and errors to stderr. Decoration (color, spinners) only on a
// terminal, never under --json, NO_COLOR or CI.
//
// Sanitizing and redaction happen here (and, under GitHub Actions, defusing
// workflow commands), in two private writers (toStdout, toStderr), and
// nowhere else: test/unit/output-guard.test.ts proves it for every method.
// src/core/redact.ts says why stdout masks only the secrets in use.
//
// Commands hand Output data, never strings, and it prints it in the format
// chosen with `-o` (kubectl's printers; src/output/format.ts).
import { knownColumns, type IO } from '../core/io.js';
import { InterruptedError } from '../core/errors.js';
import { writeError } from './errors.js';
import { toJson } from './json.js';
import {
  defuseWorkflowCommands,
  defuseWorkflowCommandsEncoded,
  sanitize,
  sanitizeKeepingColor,
  sanitizeLine,
} from '../core/sanitize.js';
import { redactKnown, redactSecrets } from '../core/redact.js';
import { colorPalette, PLAIN, statusPainter, type ColorLevel, type Palette } from './palette.js';
import type { OutputFormat } from './format.js';
import type { Query } from './query.js';
import { closest } from '../core/closest.js';
import {
  defaultColumns,
  detailLines,
  isObject,
  pagedRows,
  pathValue,
  tableLines,
  tsvLines,
  tsvRows,
  wideColumns,
  type Cell,
  type View,
} from './render.js';
import { toYaml } from './yaml.js';
import { borderedDetailLines } from './bordered.js';
import { markdownLines, pagedMarkdown } from './markdown.js';
import { startSpinner } from './progress.js';
import { promptSecret } from './secret-prompt.js';

/** Lines written between two checks for an interrupt. */
const CHUNK_LINES = 2_000;

export interface OutputSettings {
  /** A machine format (json, jsonl, yaml): errors go to stderr as JSON. */
  json: boolean;
  /** -o; json when --json, table when neither is given. */
  format?: OutputFormat | undefined;
  /** --columns: dotted paths, one column each. */
  columns?: string[] | undefined;
  /** Now in ms (tests fix it). */
  now?: (() => number) | undefined;
  /** false under --no-color */
  colorFlag: boolean;
  debug: boolean;
  /** Aborted on Ctrl-C: a running spinner stops at once and the terminal is restored. */
  signal?: AbortSignal | undefined;
  /** Agent mode: stdout is one JSON document, so a string --query selects is printed as JSON too. */
  agent?: boolean;
}

function envFlag(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** Whether decoration is allowed on a stream: a terminal, no NO_COLOR, no CI, no --json, no --no-color. */
export function decorate(io: IO, isTTY: boolean, settings: Pick<OutputSettings, 'json' | 'colorFlag'>): boolean {
  // NO_COLOR: any non-empty value disables color (no-color.org). chalk alone does not honour it.
  if (!isTTY || settings.json || !settings.colorFlag || io.env.NO_COLOR) return false;
  return !envFlag(io.env.CI) && io.env.TERM !== 'dumb';
}

/** FORCE_COLOR as chalk reads it: unset gives undefined, `0` or `false` 0, empty or `true` 1, else the number (at most 3). */
function forcedLevel(value: string | undefined): 0 | ColorLevel | undefined {
  if (value === undefined) return undefined;
  if (value === '' || value === 'true') return 1;
  if (value === 'false') return 0;
  const n = Number.parseInt(value, 10);
  return Number.isNaN(n) ? undefined : (Math.max(0, Math.min(3, n)) as 0 | ColorLevel);
}

/** stdout's color level (0: none): FORCE_COLOR holds even for a pipe or a file, never over --json, --no-color, NO_COLOR. */
export function colorLevel(
  io: IO,
  isTTY: boolean,
  settings: Pick<OutputSettings, 'json' | 'colorFlag'>,
): 0 | ColorLevel | 'detect' {
  if (settings.json || !settings.colorFlag || io.env.NO_COLOR) return 0;
  return forcedLevel(io.env.FORCE_COLOR) ?? (decorate(io, isTTY, settings) ? 'detect' : 0);
}

export interface DetailOptions {
  /** A title for -o markdown (`Report`). */
  title?: string;
  /** Keys whose value changed since the last display, with the old value's text ('' when the key is new). */
  changed?: ReadonlyMap<string, string>;
}

export class Output {
  readonly stdoutColor: boolean;
  private readonly stdoutLevel: 0 | ColorLevel | 'detect';
  /** A live view's frame is on the screen and the cursor hidden (drawFrame). */
  private liveView = false;
  readonly stderrColor: boolean;
  /**
   * Under GitHub Actions every line either stream carries is read for workflow commands: text from a
   * service, a manifest or the person is defused (src/core/sanitize.ts), JSON and YAML with an escape
   * that keeps their value. cpk cannot tell the log from a pipe (the runner reads a pipe too), so it is
   * done whatever stdout is.
   */
  private readonly ciLog: boolean;
  /** --query, applied to every JSON result (src/output/query.ts). */
  query: (((value: unknown) => unknown) & Partial<Pick<Query, 'expression'>>) | undefined;
  constructor(
    readonly io: IO,
    readonly settings: OutputSettings,
  ) {
    this.stdoutLevel = colorLevel(io, io.stdoutIsTTY, settings);
    this.stdoutColor = this.stdoutLevel !== 0;
    this.stderrColor = decorate(io, io.stderrIsTTY, settings);
    this.ciLog = io.env.GITHUB_ACTIONS === 'true';
  }

  get json(): boolean {
    return this.settings.json;
  }

  get format(): OutputFormat {
    return this.settings.format ?? (this.settings.json ? 'json' : 'table');
  }

  /** A JSON result; under --query what it selects, a string raw (no quotes) so `$(cpk ... --query id)` is the value. */
  printJson(value: unknown, options: { compact?: boolean } = {}): void {
    if (this.query) {
      const selected = this.query(value);
      if (typeof selected === 'string' && this.settings.agent !== true) {
        this.printData(`${selected}\n`);
        return;
      }
      value = selected;
    }
    const format = this.format;
    if (format === 'yaml') this.toStdout(toYaml(value, { ciLog: this.ciLog }), 'encoded');
    else if (format === 'jsonl' && Array.isArray(value))
      for (const item of value) this.toStdout(`${toJson(item, 0)}\n`, 'encoded');
    else this.toStdout(`${toJson(value, options.compact || format === 'jsonl' ? 0 : 2)}\n`, 'encoded');
  }

  /** A plain line of result on stdout (sanitized: it may hold server text). */
  printLine(text: string): void {
    this.toStdout(`${text}\n`);
  }

  /** Text for stdout as it is, sanitized (a YAML document, a completion script, a blank line between tables). */
  printText(text: string): void {
    this.toStdout(text);
  }

  /** Text cpk rendered and painted itself (a plan, a summary): sanitized, cpk's own colors kept. */
  printRendered(text: string): void {
    this.toStdout(text, 'painted');
  }

  /**
   * Data a script pipes on (a raw response body, a curl command): written
   * exactly as given when stdout is not a terminal, sanitized when it is; the
   * secrets in use masked either way (a body echoing the user's own token).
   */
  printData(text: string): void {
    this.toStdout(text, this.io.stdoutIsTTY ? 'text' : 'exact');
  }

  /** printData without the mask: for `cpk auth token` alone, the one command that prints the token. */
  printSecret(text: string): void {
    this.toStdout(text, this.io.stdoutIsTTY ? 'text' : 'exact', { unmasked: true });
  }

  /**
   * A watch's poll that printed nothing, to a pipe: one empty line. Only a write notices that the reader has
   * gone (`| head -1`, EPIPE), and a write of zero bytes succeeds regardless: without it a watch of monitors
   * that never change would outlive its reader. JSON-lines readers skip empty lines (jq does).
   */
  heartbeat(): void {
    if (!this.io.stdoutIsTTY && this.io.stdoutIsPipe === true) this.toStdout('\n', 'exact');
  }

  /**
   * One frame of a live view (`monitors watch`), drawn over the last without flicker: each line cleared
   * first, so a line as wide as the terminal keeps its last cell. `clear` starts over (a resize). A dumb
   * terminal, and one that does not say its width (`sized: false`: where its lines wrap is unknown, so
   * going back over them would garble the screen), get the frames one after the other.
   */
  drawFrame(lines: readonly string[], options: { clear?: boolean; sized?: boolean } = {}): void {
    const body = lines.map((line) => sanitizeKeepingColor(line));
    if (this.io.env.TERM === 'dumb' || options.sized === false) {
      // A frame drawn in place before (the terminal lost its size) gives the cursor back.
      this.endFrames();
      return this.toStdout(`${body.join('\n')}\n\n`, 'exact');
    }
    const start = !this.liveView || options.clear ? `${HIDE_CURSOR}${CLEAR_SCREEN}` : HOME;
    this.liveView = true;
    this.toStdout(`${start}${body.map((line) => CLEAR_LINE + line).join('\n')}\n${CLEAR_BELOW}`, 'exact');
  }

  /** Ends a live view: the cursor shown again, the last frame left on the screen. Safe to call twice. */
  endFrames(): void {
    if (!this.liveView) return;
    this.liveView = false;
    this.toStdout(SHOW_CURSOR, 'exact');
  }

  /**
   * A workflow command cpk gives the runner itself (an annotation, src/output/workflow.ts, which escapes
   * what it holds): the one stderr text left as a command; sanitized and redacted.
   */
  workflowCommand(line: string): void {
    this.toStderr(`${line}\n`, { command: true });
  }

  /** A message for the person on stderr (progress, confirmations): sanitized and redacted, newlines kept. */
  info(text: string): void {
    this.toStderr(`${text}\n`);
  }

  /** A question on stderr, without a newline: the answer is typed after it. */
  prompt(text: string): void {
    this.toStderr(sanitizeLine(text));
  }

  warn(text: string): void {
    this.toStderr(`${sanitizeLine(`warning: ${text}`)}\n`);
  }

  debug(text: string): void {
    if (this.settings.debug) this.toStderr(`${sanitizeLine(text)}\n`);
  }

  /** One failed item of a bulk command on stderr (a line naming it, or JSON under --json); returns its exit code. */
  itemError(item: { label: string; fields: Record<string, unknown> }, error: unknown): number {
    return writeError(this.guardedStderr(), error, { json: this.json, item });
  }

  /** Asks for a secret on the terminal without echoing it (src/output/secret-prompt.ts); the question goes to stderr. */
  async promptSecret(question: string): Promise<string> {
    return promptSecret(this.guardedStderr(), question, this.settings.signal);
  }

  /**
   * The one writer of stdout: the secrets in use masked in place (so JSON stays valid) unless `unmasked`.
   * `text` may hold server text: escape sequences and control characters out; `painted` the same, cpk's
   * colors kept. `encoded` (JSON, YAML) is written as it is: its encoders already escape what a terminal
   * could act on (json.ts, yaml.ts), so the value stays exact. `exact`: printData to a pipe, cursor codes.
   */
  private toStdout(
    text: string,
    kind: 'text' | 'painted' | 'encoded' | 'exact' = 'text',
    options: { unmasked?: boolean } = {},
  ): void {
    if (kind === 'text') text = sanitize(text);
    else if (kind === 'painted') text = sanitizeKeepingColor(text);
    if (!options.unmasked) text = redactKnown(text);
    // After the mask: a token is masked as it is, then the result defused.
    if (this.ciLog) text = kind === 'encoded' ? defuseWorkflowCommandsEncoded(text) : defuseWorkflowCommands(text);
    this.io.stdout.write(text);
  }

  /** This IO with stderr going through toStderr, for the helpers that write to an IO. */
  private guardedStderr(): IO {
    // Not a spread: that would make the lazy stdin stream (src/core/io.ts).
    const io = Object.create(this.io) as IO;
    Object.defineProperty(io, 'stderr', { value: { write: (text: string) => this.toStderr(text) } });
    return io;
  }

  /**
   * The one writer of stderr text: escape sequences and control characters out, secrets masked, and under
   * GitHub Actions workflow commands defused (but for cpk's own, `command`).
   */
  private toStderr(text: string, options: { command?: boolean } = {}): void {
    text = redactSecrets(sanitize(text));
    this.io.stderr.write(this.ciLog && !options.command ? defuseWorkflowCommands(text) : text);
  }

  /** The colors of stdout (PLAIN when it is not colored); chalk is loaded only for colored output. */
  async colors(): Promise<Palette> {
    return this.stdoutLevel === 0 ? PLAIN : colorPalette(this.stdoutLevel);
  }

  /** What the terminal allows: width, color, ages, sparklines. */
  async view(changed?: ReadonlyMap<string, string>): Promise<View> {
    return {
      tty: this.io.stdoutIsTTY,
      width: this.width(),
      now: (this.settings.now ?? Date.now)(),
      paint: await this.colors(),
      changed,
    };
  }

  /** Wrap width: the terminal's, or COLUMNS when set (`COLUMNS=80 cpk ... > file`); else none. */
  private width(): number | undefined {
    const fromEnv = knownColumns(Number(this.io.env.COLUMNS));
    // A terminal without a size (a pty nobody sized, a serial console) says 0 columns: unknown.
    const terminal = knownColumns(this.io.stdoutColumns);
    if (this.io.stdoutIsTTY) return terminal ?? fromEnv ?? 80;
    return fromEnv;
  }

  /** Writes lines in chunks, yielding between them so that Ctrl-C or SIGTERM is seen (InterruptedError, exit 130). */
  async writeLines(lines: readonly string[]): Promise<void> {
    const signal = this.settings.signal;
    for (let i = 0; i < lines.length; i += CHUNK_LINES) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      if (signal?.aborted) throw new InterruptedError();
      this.toStdout(`${lines.slice(i, i + CHUNK_LINES).join('\n')}\n`, 'painted');
    }
  }

  /** One object: a detail view (detailLines), or JSON, YAML, Markdown. */
  async print(value: unknown, options: DetailOptions = {}): Promise<void> {
    const format = this.format;
    if (this.json) return this.printJson(value);
    if (format === 'name') return this.printList([value]);
    if (format === 'markdown') return this.writeLines(markdownLines(value, options.title));
    if (this.settings.columns || format === 'wide') return this.printList([value]);
    return this.writeLines(await this.detailLines(value, options));
  }

  /**
   * On a terminal, bordered (cli-table3) unless too big for it; off one, describe-style lines a script can
   * read, and on a dumb terminal, which may not draw box-drawing characters.
   */
  async detailLines(value: unknown, options: DetailOptions = {}): Promise<string[]> {
    const view = await this.view(options.changed);
    const boxes = view.tty && this.io.env.TERM !== 'dumb';
    const bordered = boxes ? await borderedDetailLines(value, view) : undefined;
    return bordered ?? detailLines(value, view);
  }

  /** Several results: one row each in a table, or a JSON array, one JSON line each, a YAML list. */
  async printList(items: readonly unknown[]): Promise<void> {
    const list = this.list();
    await list.add(items);
    await list.end();
  }

  /**
   * A list that arrives in pages, each printed as it is added, so that a list of any length holds one page:
   * JSON lines one per item, a JSON array and a YAML list item by item, a table (or Markdown table) whose
   * columns and widths the first page sets (pagedRows). Only --query over a JSON or YAML list holds every
   * item, since its expression is over the whole list (`length(@)`); under -o jsonl it is over each item.
   */
  list() {
    const format = this.format;
    const query = this.query;
    const held: unknown[] | undefined = query && format !== 'jsonl' ? [] : undefined;
    let started = false;
    // Under -o jsonl the expression is over each item: one written for the whole list (`[].id`) gives null each time.
    let selected = 0;
    let nulls = 0;
    let lastPage: readonly unknown[] = [];
    let rows: ((items: unknown[]) => string[]) | undefined;
    return {
      add: async (items: readonly unknown[]): Promise<void> => {
        if (held) {
          for (const item of items) held.push(item);
          return;
        }
        if (items.length === 0) return;
        if (this.settings.signal?.aborted) throw new InterruptedError();
        const page = [...items];
        lastPage = page;
        const first = !started;
        started = true;
        if (format === 'name') {
          const { ids, missing } = idLines(page);
          if (missing > 0) this.warn(`${missing === 1 ? '1 item has' : `${missing} items have`} no "id" to print`);
          return this.writeLines(ids);
        }
        if (format === 'jsonl') {
          const lines = page.map((item) => {
            const value = query ? query(item) : item;
            selected++;
            if (value === null) nulls++;
            if (typeof value === 'string' && query) return value;
            return this.ciLog ? defuseWorkflowCommandsEncoded(toJson(value, 0)) : toJson(value, 0);
          });
          return this.writeLines(lines);
        }
        if (format === 'json') {
          // The array JSON.stringify writes, an item at a time: each indented one level, comma-separated.
          const body = page.map((item) => `  ${toJson(item, 2).replace(/\n/g, '\n  ')}`).join(',\n');
          return this.toStdout(`${first ? '[\n' : ',\n'}${body}`, 'encoded');
        }
        // A YAML list is its items one after the other: each page's list goes on from the last.
        if (format === 'yaml') return this.toStdout(toYaml(page, { ciLog: this.ciLog }), 'encoded');
        if (!rows && format === 'markdown') rows = pagedMarkdown();
        if (!rows) {
          // The first page chooses the columns, and on a terminal fits them to its width (gh, kubectl);
          // -o wide gets every value whole, and a reader that is not a terminal tab-separated fields.
          const columns = this.settings.columns ?? (format === 'wide' ? wideColumns(page) : defaultColumns(page));
          if (this.settings.columns) unknownColumns(this.settings.columns, page).forEach((w) => this.warn(w));
          const view = await this.view();
          rows = view.tty
            ? pagedRows(columns, view, format === 'table' ? view.width : undefined)
            : tsvRows(columns, view);
        }
        return this.writeLines(rows(page));
      },
      end: async (): Promise<void> => {
        if (query && selected > 0 && nulls === selected) this.warn(nullQuery(query.expression ?? '', lastPage));
        if (held) return this.printJson(held);
        if (format === 'json') return this.toStdout(started ? '\n]\n' : '[]\n', 'encoded');
        if (format === 'yaml' && !started) return this.toStdout(toYaml([], { ciLog: this.ciLog }), 'encoded');
      },
    };
  }

  /** Rows under a header, in columns (for lists such as the monitors create --from made); off a terminal, tsvLines. */
  async printRows(head: string[], rows: string[][]): Promise<void> {
    const view = await this.view();
    const table = view.tty ? tableLines : (cells: Cell[][]) => tsvLines(cells.slice(1));
    await this.writeLines(
      table([
        head.map((h) => ({ text: sanitizeLine(h), paint: view.paint.key })),
        ...rows.map((row) =>
          row.map((cell, i) => {
            const text = sanitizeLine(cell);
            return { text, paint: statusPainter(head[i] ?? '', text, view.paint) };
          }),
        ),
      ]),
    );
  }

  /**
   * Runs `work` with a spinner on stderr when decoration is allowed and the work is slow. On Ctrl-C the
   * spinner stops at once and this rejects without waiting for `work`, which gets the same signal.
   */
  async spin<T>(text: string, work: () => Promise<T>): Promise<T> {
    if (!this.stderrColor) return work();
    const signal = this.settings.signal;
    if (signal?.aborted) throw new InterruptedError();
    let spinner: { stop(): void } | undefined;
    let done = false;
    // Only slow calls get a spinner, so fast ones never pay for loading ora.
    const timer = setTimeout(() => {
      startSpinner(this.io.stderr, redactSecrets(sanitizeLine(text)), () => !done)
        .then((started) => {
          if (done) started?.stop();
          else spinner = started;
        })
        .catch(() => {}); // no spinner is no loss
    }, 150);
    let onAbort = () => {};
    const interrupted = new Promise<never>((_, reject) => {
      onAbort = () => reject(new InterruptedError());
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    const running = work();
    // Whichever loses the race must not become an unhandled rejection.
    running.catch(() => {});
    interrupted.catch(() => {});
    try {
      return await Promise.race([running, interrupted]);
    } finally {
      // Before the caller sees the result or the interrupt: the spinner's line is cleared first.
      signal?.removeEventListener('abort', onAbort);
      done = true;
      clearTimeout(timer);
      spinner?.stop();
    }
  }
}

/**
 * `-o name` (kubectl's form): each item's id alone, one a line, as `-` reads them back. kubectl prints
 * `type/name`; cpk's id readers take bare ids, so bare ids it is. An item without an id is counted for a
 * warning, never printed as a blank line a reader would take for an id.
 */
function idLines(items: readonly unknown[]): { ids: string[]; missing: number } {
  const ids: string[] = [];
  let missing = 0;
  for (const item of items) {
    const id = isObject(item) ? item.id : undefined;
    if (typeof id === 'string' || typeof id === 'number') ids.push(sanitizeLine(String(id)));
    else missing++;
  }
  return { ids, missing };
}

/** A --columns path no item of the first page has shows `-` in every row: a warning each, naming the nearest field. */
function unknownColumns(columns: readonly string[], items: readonly unknown[]): string[] {
  const fields = wideColumns([...items]);
  const warnings: string[] = [];
  for (const column of columns) {
    if (items.some((item) => pathValue(item, column) !== undefined)) continue;
    warnings.push(`--columns: no item has a field "${column}"${nearestField(column, fields)}`);
  }
  return warnings;
}

/** Under -o jsonl, --query is over each item: an expression that gave null for every one was likely meant for the list. */
function nullQuery(expression: string, items: readonly unknown[]): string {
  const fields = wideColumns([...items]);
  // `[].id`, `[*].name`: an expression over the list; its field part is what each line would select.
  const field = expression.replace(/^\s*\[\*?\]\s*\.?/, '');
  const hint =
    field !== expression && fields.includes(field) ? ` (did you mean "${field}"?)` : nearestField(field, fields);
  return `--query "${expression}" selected null from every item: under -o jsonl it applies to each item, not the list${hint}`;
}

/** `(did you mean "name"?)`, or the fields there are when none is near. */
function nearestField(word: string, fields: readonly string[]): string {
  const near = closest(word, fields);
  if (near !== undefined) return ` (did you mean "${near}"?)`;
  const shown = fields.slice(0, 8).join(', ');
  return fields.length === 0 ? '' : `; the fields are ${shown}${fields.length > 8 ? ', …' : ''}`;
}

/** Home the cursor and clear the screen. */
const CLEAR_SCREEN = '\u001b[H\u001b[2J';
const HOME = '\u001b[H';
/** Erase the whole line the cursor is on. */
const CLEAR_LINE = '\u001b[2K';
const CLEAR_BELOW = '\u001b[J';
const HIDE_CURSOR = '\u001b[?25l';
const SHOW_CURSOR = '\u001b[?25h';
