// `-o FORMAT` and `--columns`: how a result is printed (kubectl's printers).
// Parsed here so a bad value is a usage error before anything is sent.
import { UsageError } from '../core/errors.js';

export const FORMATS = ['table', 'wide', 'json', 'jsonl', 'yaml', 'markdown', 'name'] as const;
export type OutputFormat = (typeof FORMATS)[number];

/** Formats for scripts: stdout is the data, errors are JSON on stderr, --query applies. */
export function isMachineFormat(format: OutputFormat): boolean {
  return format === 'json' || format === 'jsonl' || format === 'yaml';
}

/** The format from `-o` and `--json` (`--json` means `-o json`; `--query` alone implies json). */
export function parseFormat(raw: { output?: unknown; json?: unknown; query?: unknown }): OutputFormat {
  if (raw.output === undefined) return raw.json === true || typeof raw.query === 'string' ? 'json' : 'table';
  const text = String(raw.output).trim().toLowerCase();
  const format = FORMATS.find((f) => f === text) ?? (text === 'md' ? 'markdown' : text === 'yml' ? 'yaml' : undefined);
  if (format === undefined)
    throw new UsageError(`invalid -o "${String(raw.output)}": expected one of ${FORMATS.join(', ')}`);
  if (raw.json === true && format !== 'json')
    throw new UsageError(`--json means -o json; it cannot be used with -o ${format}`);
  if (typeof raw.query === 'string' && !isMachineFormat(format))
    throw new UsageError(`--query applies to json, jsonl and yaml output, not -o ${format}`);
  return format;
}

/** `--columns id,name,last_check.status`: dotted paths, in order. */
export function parseColumns(raw: unknown): string[] | undefined {
  if (raw === undefined) return undefined;
  const columns = String(raw)
    .split(',')
    .map((c) => c.trim());
  if (columns.some((c) => c === '' || c.startsWith('.') || c.endsWith('.')))
    throw new UsageError(
      `invalid --columns "${String(raw)}": expected field paths separated by commas, such as id,name,last_check.status`,
    );
  return columns;
}
