// What a command tells CI besides its own output (docs/ci.md, "Annotations,
// job summaries and JUnit"): workflow commands and a job summary under GitHub
// Actions; with --junit FILE, a JUnit report, written atomically either way.
//
// Workflow commands go to stderr: the runner parses both streams alike, and
// stdout is cpk's data (`cpk plan -o markdown > plan.md` stays exact).
import { relative, resolve, isAbsolute, sep } from 'node:path';
import type { Context } from './context.js';
import { ApiError, CpkError, ExitCode } from '../core/errors.js';
import type { RawOptions } from './action.js';
import type { JunitCase } from '../output/junit.js';
import type { Annotation } from '../output/workflow.js';
import { describeError } from '../output/errors.js';
import { redactSecrets } from '../core/redact.js';
import { nonEmpty } from './manifest-flags.js';
import type { Manifest } from '../manifest/load.js';
import type { Problem } from '../manifest/positions.js';

export function parseJunit(opts: RawOptions): string | undefined {
  return nonEmpty(opts.junit, '--junit');
}

export const JUNIT_HELP =
  'write a JUnit XML report to FILE (GitLab, Jenkins, Azure), whether the command succeeds or not';

export class CiReport {
  readonly actions: boolean;
  private readonly cases: JunitCase[] = [];
  private annotated = 0;
  private readonly started = performance.now();
  constructor(
    private readonly ctx: Context,
    readonly suite: string,
    readonly junit: string | undefined,
  ) {
    this.actions = ctx.env.GITHUB_ACTIONS === 'true';
  }

  /** The path as GitHub names files on a diff: relative to the workspace (the repository's root). */
  private repoPath(file: string | undefined): string | undefined {
    if (file === undefined) return undefined;
    const workspace = this.ctx.env.GITHUB_WORKSPACE;
    if (!workspace) return file;
    const path = relative(workspace, resolve(file));
    return path.startsWith('..') || isAbsolute(path) ? file : path.split(sep).join('/');
  }

  /** A problem: a workflow command on stderr under GitHub Actions, nothing elsewhere. */
  async annotate(annotation: Annotation): Promise<void> {
    if (!this.actions) return;
    const { workflowCommand } = await import('../output/workflow.js');
    this.annotated += 1;
    this.ctx.out.workflowCommand(
      workflowCommand('error', { title: this.suite, ...annotation, file: this.repoPath(annotation.file) }),
    );
  }

  add(testcase: JunitCase): void {
    this.cases.push(testcase);
  }

  /** Markdown for the job summary, under GitHub Actions when the runner gives one (made only then: a big plan's takes tens of ms). */
  async summary(markdown: () => string): Promise<void> {
    if (!this.actions) return;
    const { appendStepSummary } = await import('../output/workflow.js');
    try {
      await appendStepSummary(this.ctx.env, redactSecrets(markdown()));
    } catch (error) {
      this.ctx.out.warn(
        `cannot write the job summary ${this.ctx.env.GITHUB_STEP_SUMMARY ?? ''} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      );
    }
  }

  /** Ends the report (`error` undefined: success); an error nothing stood for yet becomes an annotation and a case. */
  async finish(error: unknown): Promise<void> {
    const failed = error !== undefined && !(error instanceof CpkError && error.exitCode === ExitCode.INTERRUPTED);
    // The title already says cpk and the command: the message is the error alone.
    if (failed && this.annotated === 0) await this.annotate({ message: describeError(error).message });
    if (failed && !this.cases.some((c) => c.failure))
      this.add({ name: this.suite, classname: 'cpk', failure: { message: describeError(error).message } });
    if (this.junit === undefined) return;
    const [{ junitXml }, { writeFileAtomic }] = await Promise.all([
      import('../output/junit.js'),
      import('../core/atomic-file.js'),
    ]);
    const xml = await junitXml({
      name: this.suite,
      cases: this.cases,
      time: (performance.now() - this.started) / 1000,
    });
    try {
      await writeFileAtomic(this.junit, xml);
    } catch (cause) {
      const problem = `cannot write the JUnit report ${this.junit} (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`;
      // The command's own failure says more; a success that cannot report it is a failure.
      if (error === undefined) throw new CpkError(problem, ExitCode.FAILURE);
      this.ctx.out.warn(problem);
    }
  }
}

/** Runs a command with its CI report: ctx.ci is set meanwhile, and the report is finished either way. */
export async function withCiReport(
  ctx: Context,
  suite: string,
  junit: string | undefined,
  work: (report: CiReport) => Promise<void>,
): Promise<void> {
  const report = new CiReport(ctx, suite, junit);
  ctx.ci = report;
  try {
    await work(report);
  } catch (error) {
    await report.finish(error);
    throw error;
  }
  // A command that ends without an error but with a failing exit code (validate --json: 2).
  const code = ctx.exitCode ?? ExitCode.OK;
  await report.finish(
    code !== ExitCode.OK && code !== ExitCode.PLAN_CHANGES ? new CpkError('failed', code) : undefined,
  );
}

/** A problem of a manifest: a validation problem also names the entry it is about. */
type PlacedProblem = Problem & { entry?: string[] | undefined };

/** Problems shown at most as annotations: as many as the lines on stderr (GitHub keeps only the first few anyway). */
const MAX_ANNOTATIONS = 50;

/**
 * A manifest's problems: each an annotation at its place, and one JUnit case per entry, failed with its
 * problems; problems of no entry (the file cannot be read as a manifest) make one case per file.
 */
export async function reportProblems(
  report: CiReport,
  problems: readonly PlacedProblem[],
  manifest: Manifest | undefined,
  file?: string,
): Promise<void> {
  for (const p of problems.slice(0, MAX_ANNOTATIONS))
    await report.annotate({ file: p.file ?? file, line: p.line, col: p.col, message: p.message });
  // Keyed by section and entry; problems of no entry by \0 and the file.
  const byKey = new Map<string, PlacedProblem[]>();
  for (const p of problems) {
    const key = p.entry?.length === 2 ? p.entry.join('\u0000') : `\u0000${p.file ?? file ?? 'manifest'}`;
    // Appended in place: copying a list for each problem made 20,000 problems take seconds.
    const list = byKey.get(key);
    if (list) list.push(p);
    else byKey.set(key, [p]);
  }
  const failure = (list: PlacedProblem[]) => ({
    message: list.length === 1 ? list[0]!.message : `${list.length} problems: ${list[0]!.message}; …`,
    details: list.map((p) => `${p.file ?? file ?? ''}:${p.line}:${p.col}: ${p.message}`).join('\n'),
  });
  for (const [key, list] of byKey)
    if (key.startsWith('\u0000')) report.add({ name: key.slice(1), classname: 'manifest', failure: failure(list) });
  for (const { section, name } of manifest ? entriesOf(manifest) : []) {
    const list = byKey.get(`${section}\u0000${name}`);
    report.add({ name, classname: section, failure: list ? failure(list) : undefined });
  }
}

/** A manifest's entries in its order: section, key (or id) and the file that holds it. */
function entriesOf(manifest: Manifest) {
  return [
    ...manifest.monitors.map((m) => ({ section: 'monitors', name: m.key, file: m.file ?? manifest.path })),
    ...manifest.channels.map((c) => ({ section: 'channels', name: c.id, file: c.file ?? manifest.path })),
  ];
}

/** Where each entry of a manifest is written (its key's file, line and column), for an annotation about it. */
export function entryPlaces(
  manifest: Manifest,
): (section: 'monitors' | 'channels', name: string) => Annotation | undefined {
  const fileOf = new Map(entriesOf(manifest).map((e) => [`${e.section}\u0000${e.name}`, e.file]));
  return (section, name) => {
    const file = fileOf.get(`${section}\u0000${name}`);
    if (file === undefined) return undefined;
    return { file, ...manifest.places.get(file)?.at([section, name], 'key'), message: '' };
  };
}

/** A plan's or an apply's JUnit cases, one per entry: a failed change has its error, one never started is skipped. */
export function planCases(
  report: CiReport,
  plan: import('../manifest/plan.js').Plan,
  outcomes: ReadonlyArray<import('../manifest/apply.js').Outcome>,
): void {
  const byStep = new Map<unknown, import('../manifest/apply.js').Outcome>(outcomes.map((o) => [o.step, o]));
  const steps = [
    ...plan.monitors.map((step) => ({ step, section: 'monitors', name: step.key })),
    ...plan.channels.map((step) => ({ step, section: 'channels', name: step.id })),
  ];
  for (const { step, section, name } of steps) {
    const outcome = byStep.get(step);
    const testcase: JunitCase = { name: `${name} (${step.action})`, classname: section };
    if (outcome?.result === 'failed')
      testcase.failure = { message: describeError(outcome.error).message, details: errorText(outcome.error) };
    else if (outcome?.result === 'skipped') testcase.skipped = 'not started';
    report.add(testcase);
  }
}

/** An error's message with its lines kept (describeError folds them) and its request id; sanitized where written. */
export function errorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const requestId = error instanceof ApiError ? error.requestId : undefined;
  return `${message}${requestId ? ` (request id: ${requestId})` : ''}`;
}
