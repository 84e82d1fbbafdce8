// GitHub Actions' workflow commands (`::error file=F,line=L,col=C::message`)
// and its job summary: how cpk speaks to the runner when GITHUB_ACTIONS=true
// (docs/ci.md, "Annotations, job summaries and JUnit"). Nothing here runs outside Actions.
//
// Escaping is that of the runner (and of @actions/core): in the message,
// `%`, CR and LF become %25, %0D and %0A; in a property, `:` and `,` too,
// since they end a property. Text from the server is sanitized first, so no
// escape sequence or control character reaches the log, and defused after:
// the command is cpk's, but a `##[` in its text is no business of the runner.
import { appendFile } from 'node:fs/promises';
import { defuseWorkflowCommands, sanitize } from '../core/sanitize.js';
import type { Env } from '../core/paths.js';

export function escapeData(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

export function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

export interface Annotation {
  /** A path relative to the repository, for the annotation to show on the diff. */
  file?: string | undefined;
  line?: number | undefined;
  col?: number | undefined;
  title?: string | undefined;
  message: string;
}

/** `::error file=...,line=...,col=...,title=...::message`, one line whatever the message holds. */
export function workflowCommand(kind: 'error' | 'warning' | 'notice', annotation: Annotation): string {
  const properties: string[] = [];
  if (annotation.file !== undefined && annotation.file !== '')
    properties.push(`file=${escapeProperty(sanitize(annotation.file))}`);
  if (annotation.line !== undefined) properties.push(`line=${annotation.line}`);
  if (annotation.col !== undefined) properties.push(`col=${annotation.col}`);
  if (annotation.title !== undefined) properties.push(`title=${escapeProperty(sanitize(annotation.title))}`);
  const head = properties.length > 0 ? `${kind} ${properties.join(',')}` : kind;
  // All but the leading `::`, which is the command's own; inside, no line starts (line breaks are escaped).
  return `::${defuseWorkflowCommands(`${head}::${escapeData(sanitize(annotation.message))}`)}`;
}

/** Appends markdown to $GITHUB_STEP_SUMMARY when the runner gives one (each step's is its own file: nothing mixes). */
export async function appendStepSummary(env: Env, markdown: string): Promise<boolean> {
  const path = env.GITHUB_STEP_SUMMARY;
  if (env.GITHUB_ACTIONS !== 'true' || path === undefined || path === '') return false;
  await appendFile(path, markdown.endsWith('\n') ? markdown : `${markdown}\n`, 'utf8');
  return true;
}
