// The picker: `cpk monitors get` (update, delete, watch) and `cpk reports get`
// without an id, on a terminal, offer a searchable list of what cpk can list
// (the service's declared list, else the monitors known on this machine), as
// gh does for runs. Off a terminal a missing id stays a usage error. The
// prompt library is loaded only when the picker opens.
import type { Writable } from 'node:stream';
import type { Context } from './context.js';
import type { Api } from '../core/api/client.js';
import { InterruptedError, UsageError } from '../core/errors.js';
import { oneLine } from '../completion/table.js';
import { textWidth, truncate } from '../output/text.js';

/** At most this many items are read from the service's list to pick from. */
const MAX_ITEMS = 1000;

function text(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? oneLine(String(value))
    : '';
}

/** An item as the picker offers it: its name (or id), status and target on one line, its id beside. */
function choice(id: string, ...parts: string[]) {
  return { value: id, label: [parts[0] || id, ...parts.slice(1)].filter(Boolean).join('  '), hint: id };
}

type Choice = ReturnType<typeof choice>;

/** What clack draws around a label on its line: the gutter and the radio mark (`│  ● `), the hint's ` (…)`. */
const PICKER_FRAME = 6;
const HINT_FRAME = 3;

/**
 * Labels cut with `…` to the terminal's width: a label that wraps breaks the picker's gutter, and clack
 * redraws the wrong lines as one moves. The id (the hint) is never cut: it is what is picked.
 */
export function fitChoices(items: readonly Choice[], columns: number): Choice[] {
  return items.map((item) => {
    const room = columns - PICKER_FRAME - HINT_FRAME - textWidth(item.hint);
    return { ...item, label: truncate(item.label, Math.max(1, room)) };
  });
}

function pickable(item: unknown): Choice[] {
  if (item === null || typeof item !== 'object') return [];
  const o = item as Record<string, unknown>;
  const id = text(o.id);
  if (id === '') return [];
  const check =
    o.last_check !== null && typeof o.last_check === 'object' ? (o.last_check as Record<string, unknown>) : {};
  return [choice(id, text(o.name) || text(o.monitor_name), text(o.status) || text(check.status), text(o.target))];
}

/** The service's declared list (`listed`; the first `limit`), else what is known here: to pick from, or to watch. */
export async function candidates(noun: 'monitors' | 'reports', ctx: Context, api: Api, limit?: number) {
  const { loadSpec } = await import('../core/api/spec.js');
  const spec = await loadSpec(api, { env: ctx.env, needAnswer: true, debug: (line) => ctx.out.debug(line) });
  const op = spec.list(noun);
  if (op) {
    const { listItems } = await import('../core/api/list.js');
    const items: Choice[] = [];
    for await (const page of listItems(api, op, { params: [], limit })) {
      api.sawList(noun, page);
      items.push(...page.flatMap(pickable));
    }
    return { listed: true, items };
  }
  const items = ctx.knownMonitors(api).flatMap((m) => {
    const id = noun === 'monitors' ? m.id : m.report;
    return id ? [choice(id, oneLine(m.name ?? ''))] : [];
  });
  return { listed: false, items };
}

/** The id the user picks; off a terminal, the usage error commander would have given for the missing argument. */
export async function pickId(ctx: Context, noun: 'monitors' | 'reports', argument: string): Promise<string> {
  if (!ctx.io.stdinIsTTY || !ctx.io.stderrIsTTY)
    throw new UsageError(`missing required argument '${argument}' (on a terminal, cpk offers a list to pick from)`);
  const api = await ctx.api();
  const { items } = await ctx.out.spin(`Listing ${noun}`, () => candidates(noun, ctx, api, MAX_ITEMS));
  const one = noun === 'monitors' ? 'monitor' : 'report';
  if (items.length === 0) throw new UsageError(`no ${noun} known to pick from: give the ${one} id`);
  const { autocomplete, isCancel } = await import('@clack/prompts');
  // clack reports Esc and Ctrl-C alike as a cancel. cpk's rule: a cancel the person chose (Esc, like a
  // declined confirmation) exits 2 with nothing done; Ctrl-C is an interruption, 130, as everywhere else.
  let interrupted = false;
  const onKey = (_: unknown, key: { ctrl?: boolean; name?: string } | undefined) => {
    if (key?.ctrl && key.name === 'c') interrupted = true;
  };
  ctx.io.stdin.on('keypress', onKey);
  const choice = await autocomplete({
    message: `Which ${one}? (type to search, Esc to cancel)`,
    // clack's own filter: the typed text, in any case, within the label or the id.
    options: fitChoices(items, ctx.io.stdoutColumns ?? 80),
    maxItems: 10,
    input: ctx.io.stdin as NodeJS.ReadStream,
    // The picker is drawn on stderr: stdout keeps the result alone.
    output: ctx.io.stderr as unknown as Writable,
  });
  ctx.io.stdin.off('keypress', onKey);
  if (isCancel(choice)) {
    if (interrupted) throw new InterruptedError();
    throw new UsageError(`cancelled: no ${one} picked; nothing was sent`);
  }
  return choice;
}
