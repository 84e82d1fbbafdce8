// Runs a step of the repository's action.yml as the GitHub runner does for a
// composite action: `${{ inputs.NAME }}` in the step's env replaced by the
// given input or the input's default, the runner's variables set (RUNNER_OS,
// RUNNER_ARCH, RUNNER_TEMP, GITHUB_ACTION_PATH) and GITHUB_PATH, GITHUB_ENV
// and GITHUB_OUTPUT pointing at empty files in a temp dir, and the step's
// `run` text written to a file and run with `bash --noprofile --norc -eo
// pipefail FILE` (the runner's `shell: bash`).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import YAML from 'yaml';

const ROOT = resolve(import.meta.dirname, '../..');

interface ActionInput {
  default?: string;
}
interface ActionStep {
  id?: string;
  shell?: string;
  run?: string;
  env?: Record<string, string>;
}
export interface Action {
  inputs: Record<string, ActionInput>;
  runs: { using: string; steps: ActionStep[] };
}

export function readAction(): Action {
  return YAML.parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;
}

export interface StepRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The lines the step added to GITHUB_PATH, GITHUB_ENV and GITHUB_OUTPUT. */
  path: string[];
  env: string;
  output: string;
}

export async function runActionStep(
  id: string,
  inputs: Record<string, string>,
  runner: Record<string, string> = {},
): Promise<StepRun> {
  const action = readAction();
  const step = action.runs.steps.find((s) => s.id === id);
  if (!step?.run || step.shell !== 'bash') throw new Error(`action.yml has no bash step "${id}"`);
  const value = (name: string) => inputs[name] ?? action.inputs[name]?.default ?? '';
  const stepEnv: Record<string, string> = {};
  for (const [key, text] of Object.entries(step.env ?? {})) {
    stepEnv[key] = String(text).replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, name: string) => value(name));
    if (stepEnv[key].includes('${{'))
      throw new Error(`action.yml: ${key} uses an expression this runner cannot evaluate`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'cpk-runner-'));
  const files = { path: join(dir, 'path'), env: join(dir, 'env'), output: join(dir, 'output') };
  for (const file of Object.values(files)) writeFileSync(file, '');
  mkdirSync(join(dir, 'temp'));
  const script = join(dir, 'step.sh');
  writeFileSync(script, step.run);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    RUNNER_OS: 'Linux',
    RUNNER_ARCH: 'X64',
    RUNNER_TEMP: join(dir, 'temp'),
    GITHUB_ACTIONS: 'true',
    GITHUB_ACTION_PATH: ROOT,
    GITHUB_PATH: files.path,
    GITHUB_ENV: files.env,
    GITHUB_OUTPUT: files.output,
    ...runner,
    ...stepEnv,
  };
  return new Promise((done, fail) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      env,
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) =>
      done({
        code,
        stdout,
        stderr,
        path: readFileSync(files.path, 'utf8').split('\n').filter(Boolean),
        env: readFileSync(files.env, 'utf8'),
        output: readFileSync(files.output, 'utf8'),
      }),
    );
  });
}
