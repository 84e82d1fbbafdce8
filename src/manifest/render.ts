// How plans and apply results look: text for people (colored on a terminal),
// and stable JSON for machines (--json). Every piece of text from the state
// file or the service is sanitized before it reaches a terminal.
import type { Output } from '../output/output.js';
import { describeError } from '../output/errors.js';
import { toJson } from '../output/json.js';
import { sanitizeLine } from '../core/sanitize.js';
import type { JsonObject } from '../core/json.js';
import type { Outcome } from './apply.js';
import type { FieldChange } from './diff.js';
import { countSteps, hasChanges, type ChannelStep, type MonitorStep, type Plan } from './plan.js';

type Painter = (text: string) => string;
export type Paint = Record<'add' | 'change' | 'remove' | 'warn' | 'dim', Painter>;
const plain: Painter = (text) => text;
const PLAIN: Paint = { add: plain, change: plain, remove: plain, warn: plain, dim: plain };

/** Colors for stdout: on a terminal or under FORCE_COLOR, never under --json, --no-color, NO_COLOR or CI (see Output). */
export async function paintFor(out: Output): Promise<Paint> {
  if (!out.stdoutColor) return PLAIN;
  const colors = await out.colors();
  return { add: colors.ok, change: colors.warn, remove: colors.bad, warn: colors.note, dim: colors.dim };
}

/** A value as compact JSON on one line, safe for a terminal. */
export function show(value: unknown): string {
  return sanitizeLine(toJson(value, 0));
}

const safe = sanitizeLine;

function changeLines(changes: FieldChange[], unset: string, paint: Paint): string[] {
  return changes.map((c) => `    ${safe(c.field)}: ${'from' in c ? show(c.from) : paint.dim(unset)} -> ${show(c.to)}`);
}

function monitorLines(step: MonitorStep, paint: Paint): string[] {
  const key = safe(step.key);
  switch (step.action) {
    case 'create': {
      let why = '';
      if (step.replaces)
        why = ` (${safe(step.replaces)} answers 404: it was deleted outside cpk, so it is created again)`;
      if (step.uncertainSince)
        why = ` (again: --create-uncertain, though the create sent at ${safe(step.uncertainSince)} may have reached the service)`;
      return [
        paint.add(`+ ${key}: create${why}`),
        ...Object.entries(step.body).map(([field, value]) => `    ${safe(field)}: ${show(value)}`),
      ];
    }
    case 'update':
      return [paint.change(`~ ${key} (${safe(step.id)}): update`), ...changeLines(step.changes, '(unset)', paint)];
    case 'unchanged':
      // Only what changes is listed, as Terraform does: the summary counts the rest.
      return [];
    case 'delete':
      return [paint.remove(`- ${key} (${safe(step.id)}): delete`)];
    case 'orphaned':
      return step.id !== undefined
        ? [paint.warn(`  ${key} (${safe(step.id)}): not in the manifest; kept (apply --prune deletes it)`)]
        : [
            paint.warn(
              `  ${key}: not in the manifest; an uncertain create from ${safe(step.uncertainSince ?? '?')} (apply --prune forgets it)`,
            ),
          ];
    case 'uncertain':
      return [
        paint.warn(
          `! ${key}: uncertain: a create sent at ${safe(step.uncertainSince)} may have reached the service; apply will not create it again`,
        ),
        ...(step.unresolved ? [`    ${safe(step.unresolved)}`] : []),
        step.candidates && step.candidates.length > 0
          ? `    it could be ${step.candidates.map(safe).join(', ')}: adopt the right one with: cpk import ${key}=ID; if none: cpk apply --create-uncertain`
          : `    if it exists, adopt it with: cpk import ${key}=ID; if not: cpk apply --create-uncertain`,
      ];
    case 'forget':
      return [
        paint.remove(
          `- ${key}: forget the uncertain create from ${safe(step.uncertainSince)} (no id is known, so nothing can be deleted)`,
        ),
      ];
  }
}

function channelLines(step: ChannelStep, paint: Paint): string[] {
  if (step.action === 'unchanged') return [];
  return [
    paint.change(`~ channel ${safe(step.id)}: update`),
    ...changeLines(step.changes, '(not applied by cpk yet)', paint),
  ];
}

export function renderPlan(plan: Plan, paint: Paint): string {
  const lines = [
    paint.dim(`Plan for ${safe(plan.manifest)} against ${safe(plan.baseUrl)} (state: ${safe(plan.state)})`),
    '',
  ];
  // Line by line, never push(...lines): an entry of many fields would pass each as an argument.
  for (const step of plan.monitors) for (const line of monitorLines(step, paint)) lines.push(line);
  for (const step of plan.channels) for (const line of channelLines(step, paint)) lines.push(line);
  const n = countSteps(plan);
  if (plan.monitors.length + plan.channels.length > n.unchanged) lines.push('');
  const kept =
    n.orphaned > 0
      ? ` ${n.orphaned} not in the manifest ${n.orphaned === 1 ? 'is' : 'are'} kept (--prune deletes them).`
      : '';
  if (!hasChanges(plan)) {
    lines.push(`No changes: the service matches ${safe(plan.manifest)} (${n.unchanged} unchanged).${kept}`);
  } else {
    const parts = [
      `${n.create} to create`,
      `${n.update} to update`,
      `${n.delete} to delete`,
      `${n.unchanged} unchanged`,
    ];
    if (n.uncertain > 0) parts.push(`${n.uncertain} uncertain`);
    if (plan.adopted && plan.adopted.length > 0) parts.push(`${plan.adopted.length} to adopt`);
    if (n.forget > 0) parts.push(`${n.forget} to forget`);
    lines.push(`Plan: ${parts.join(', ')}.${kept}`);
  }
  return `${lines.join('\n')}\n`;
}

function changesJson(changes: FieldChange[]): JsonObject[] {
  return changes.map((c) => ('from' in c ? { field: c.field, from: c.from, to: c.to } : { field: c.field, to: c.to }));
}

export function monitorJson(step: MonitorStep): JsonObject {
  const out: JsonObject = { key: step.key, action: step.action };
  if ('id' in step && step.id !== undefined) out.id = step.id;
  if (step.action === 'create') {
    if (step.replaces) out.replaces = step.replaces;
    out.body = step.body;
  }
  if (step.action === 'update') out.changes = changesJson(step.changes);
  if ('uncertainSince' in step && step.uncertainSince !== undefined) out.uncertain_since = step.uncertainSince;
  if (step.action === 'uncertain' && step.candidates) out.candidates = step.candidates;
  if (step.action === 'uncertain' && step.unresolved) out.unresolved = step.unresolved;
  return out;
}

export function channelJson(step: ChannelStep): JsonObject {
  return step.action === 'update'
    ? { id: step.id, action: step.action, changes: changesJson(step.changes) }
    : { id: step.id, action: step.action };
}

/** A code span in a table cell: GitHub splits cells at a pipe even inside a code span, unless it is escaped. */
function cell(text: string): string {
  return code(text).replaceAll('|', '\\|');
}

/** The longest run of backticks in `text`: a Markdown fence around it must be longer. */
function longestRun(text: string): number {
  return (text.match(/`+/g) ?? []).reduce((most, run) => Math.max(most, run.length), 0);
}

/** Inline code in Markdown for any text. */
function code(text: string): string {
  const clean = sanitizeLine(text);
  const longest = longestRun(clean);
  const fence = '`'.repeat(longest + 1);
  return longest > 0 || clean.startsWith(' ') ? `${fence} ${clean} ${fence}` : `${fence}${clean}${fence}`;
}

/** The plan as a diff: + create, ~ update (- from, + to), - delete. */
function diffLines(plan: Plan): string[] {
  const lines: string[] = [];
  for (const step of plan.monitors) {
    const key = safe(step.key);
    switch (step.action) {
      case 'create':
        lines.push(`+ ${key}: create${step.replaces ? ` (${safe(step.replaces)} answers 404)` : ''}`);
        for (const [field, value] of Object.entries(step.body)) lines.push(`+     ${safe(field)}: ${show(value)}`);
        break;
      case 'update':
        lines.push(`! ${key} (${safe(step.id)}): update`);
        diffChanges(lines, step.changes);
        break;
      case 'delete':
        lines.push(`- ${key} (${safe(step.id)}): delete`);
        break;
      case 'forget':
        lines.push(`- ${key}: forget the uncertain create from ${safe(step.uncertainSince)}`);
        break;
      case 'uncertain':
        lines.push(`! ${key}: uncertain (a create sent at ${safe(step.uncertainSince)} may have reached the service)`);
        break;
      case 'orphaned':
        lines.push(`# ${key}: not in the manifest; kept (apply --prune deletes it)`);
        break;
      case 'unchanged':
        break;
    }
  }
  for (const { key, id, since } of plan.adopted ?? [])
    lines.push(`! ${safe(key)}: adopt ${safe(id)} (made by the uncertain create sent at ${safe(since)})`);
  for (const step of plan.channels) {
    if (step.action !== 'update') continue;
    lines.push(`! channel ${safe(step.id)}: update`);
    diffChanges(lines, step.changes);
  }
  return lines;
}

/** Each changed field as a diff: - from (when there is one), + to. */
function diffChanges(lines: string[], changes: FieldChange[]): void {
  for (const c of changes) {
    if ('from' in c) lines.push(`-     ${safe(c.field)}: ${show(c.from)}`);
    lines.push(`+     ${safe(c.field)}: ${show(c.to)}`);
  }
}

/** `cpk plan -o markdown`: a summary and a collapsible diff, for a pull-request comment. */
export function renderPlanMarkdown(plan: Plan): string {
  const n = countSteps(plan);
  const against = `${code(plan.manifest)} against ${code(plan.baseUrl)} (state: ${code(plan.state)})`;
  if (!hasChanges(plan)) {
    const kept = n.orphaned > 0 ? ` ${n.orphaned} not in the manifest kept.` : '';
    return `### cpk plan: no changes

The service matches ${against}: ${n.unchanged} unchanged.${kept}
`;
  }
  const rows: Array<[string, number]> = [
    ['to create', n.create],
    ['to update', n.update],
    ['to delete', n.delete],
    ['unchanged', n.unchanged],
    ['uncertain', n.uncertain],
    ['to forget', n.forget],
    ['to adopt', plan.adopted?.length ?? 0],
    ['not in the manifest, kept', n.orphaned],
  ];
  const diff = diffLines(plan);
  const fence = '`'.repeat(Math.max(2, longestRun(diff.join('\n'))) + 1);
  const changed = n.create + n.update + n.delete + n.uncertain + n.forget + (plan.adopted?.length ?? 0);
  return [
    `### cpk plan: ${n.create} to create, ${n.update} to update, ${n.delete} to delete`,
    '',
    `Plan for ${against}.`,
    '',
    '| Monitors and channels | Count |',
    '| --- | ---: |',
    ...rows
      .filter(([label, count]) => count > 0 || ['to create', 'to update', 'to delete'].includes(label))
      .map(([label, count]) => `| ${label} | ${count} |`),
    '',
    '<details>',
    `<summary>Changes (${changed})</summary>`,
    '',
    `${fence}diff`,
    ...diff,
    fence,
    '',
    '</details>',
    '',
  ].join('\n');
}

/** Uncertain creates whose monitor a declared list found (src/manifest/adopt.ts), when there are any. */
export function adoptedJson(plan: Plan): { adopted?: JsonObject[] } {
  return plan.adopted && plan.adopted.length > 0 ? { adopted: plan.adopted.map(({ key, id }) => ({ key, id })) } : {};
}

export function summarize(plan: Plan, outcomes: Outcome[]) {
  const s = { created: 0, updated: 0, deleted: 0, unchanged: countSteps(plan).unchanged, failed: 0, skipped: 0 };
  for (const o of outcomes) {
    if (o.result === 'failed') s.failed += 1;
    else if (o.result === 'skipped') s.skipped += 1;
    else if (o.step.action === 'create') s.created += 1;
    else if (o.step.action === 'update') s.updated += 1;
    else if (o.step.action === 'delete' || o.step.action === 'forget') s.deleted += 1;
  }
  return s;
}

export function renderSummary(summary: ReturnType<typeof summarize>): string {
  const parts = [
    `${summary.created} created`,
    `${summary.updated} updated`,
    `${summary.deleted} deleted`,
    `${summary.unchanged} unchanged`,
    `${summary.failed} failed`,
  ];
  if (summary.skipped > 0) parts.push(`${summary.skipped} not started`);
  return `Apply: ${parts.join(', ')}.\n`;
}

function errorJson(error: unknown): JsonObject {
  const report = describeError(error);
  return { message: report.message, status: report.status, request_id: report.requestId, exit_code: report.exitCode };
}

/** `cpk apply --json`: every step of the plan with what became of it. */
export function applyJson(plan: Plan, outcomes: Outcome[]): JsonObject {
  const byStep = new Map<unknown, Outcome>(outcomes.map((o) => [o.step, o]));
  const withResult = (base: JsonObject, step: MonitorStep | ChannelStep): JsonObject => {
    const outcome = byStep.get(step);
    // Steps apply had nothing to do for: unchanged, or not in the manifest and kept.
    if (!outcome) return { ...base, result: step.action === 'orphaned' ? 'kept' : 'unchanged' };
    const out: JsonObject = { ...base, result: outcome.result };
    if (outcome.kind === 'monitor' && outcome.id !== undefined) out.id = outcome.id;
    if (outcome.note) out.note = outcome.note;
    if (outcome.result === 'failed') out.error = errorJson(outcome.error);
    return out;
  };
  return {
    manifest: plan.manifest,
    state: plan.state,
    base_url: plan.baseUrl,
    ...adoptedJson(plan),
    monitors: plan.monitors.map((step) => withResult(monitorJson(step), step)),
    channels: plan.channels.map((step) => withResult(channelJson(step), step)),
    summary: summarize(plan, outcomes),
  };
}

/** What an apply did, as markdown for the job summary (failures in code spans: server text cannot become markup). */
export function renderApplyMarkdown(plan: Plan, outcomes: Outcome[]): string {
  const s = summarize(plan, outcomes);
  const failed = outcomes.filter((o) => o.result === 'failed');
  const lines = [
    `### cpk apply: ${s.created} created, ${s.updated} updated, ${s.deleted} deleted, ${s.failed} failed`,
    '',
    `${s.unchanged} unchanged${s.skipped > 0 ? `, ${s.skipped} not started` : ''}.`,
    '',
  ];
  if (failed.length > 0) {
    lines.push('| Failed | Error |', '| --- | --- |');
    for (const o of failed) {
      const name = o.kind === 'channel' ? `channel ${(o.step as ChannelStep).id}` : (o.step as MonitorStep).key;
      lines.push(`| ${cell(name)} | ${cell(failure(o.error))} |`);
    }
    lines.push('');
  }
  // What was done, not the plan again: the plan's own step put the plan in the summary already.
  const done = outcomes.filter((o) => o.result !== 'failed' && o.result !== 'skipped').map(outcomeLine);
  if (done.length > 0) {
    const fence = '`'.repeat(Math.max(2, longestRun(done.join('\n'))) + 1);
    lines.push(
      '<details>',
      `<summary>Done (${done.length})</summary>`,
      '',
      `${fence}text`,
      ...done,
      fence,
      '',
      '</details>',
      '',
    );
  }
  return `${lines.join('\n')}\n`;
}

/** One line on stderr as each step finishes (people only; --json reports at the end). */
export function outcomeLine(outcome: Outcome): string {
  if (outcome.kind === 'channel') {
    const step = outcome.step as ChannelStep;
    const fields = step.action === 'update' ? step.changes.map((c) => c.field).join(', ') : '';
    return outcome.result === 'failed'
      ? `cpk: update channel ${safe(step.id)}: ${failure(outcome.error)}`
      : `updated channel ${safe(step.id)}: ${safe(fields)}`;
  }
  const s = outcome.step as MonitorStep;
  const key = safe(s.key);
  const id = outcome.id !== undefined ? safe(outcome.id) : undefined;
  const verb = s.action === 'uncertain' ? 'create' : s.action;
  if (outcome.result === 'failed') return `cpk: ${verb} ${key}${id ? ` (${id})` : ''}: ${failure(outcome.error)}`;
  switch (s.action) {
    case 'create':
      return `created ${key}: ${id ?? '?'}${s.replaces ? ` (replacing ${safe(s.replaces)}, which answered 404)` : ''}`;
    case 'update':
      return `updated ${key} (${id}): ${safe(s.changes.map((c) => c.field).join(', '))}`;
    case 'delete':
      return `deleted ${key} (${id})${outcome.note ? ` (${outcome.note})` : ''}`;
    case 'forget':
      return `forgot ${key} (an uncertain create; no id to delete)`;
    default:
      return `${s.action} ${key}`;
  }
}

/** `cpk: <what>: <message> (request id: ...)`, the line for one failed step. */
export function failureLine(what: string, error: unknown): string {
  return `cpk: ${safe(what)}: ${failure(error)}`;
}

function failure(error: unknown): string {
  const report = describeError(error);
  return `${report.message}${report.requestId ? ` (request id: ${safe(report.requestId)})` : ''}`;
}
