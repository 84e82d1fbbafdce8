// One temporary directory for each run of a project, removed when it ends:
// every mkdtemp under os.tmpdir() in the tests and their helpers (the private
// HOME each CLI run gets, sandboxes, manifests) lands inside it, so nothing a
// test made outlives the run, whether the test passed, failed or was cut
// short. test/setup-tmpdir.ts points each test file's os.tmpdir() at it.
// Before it goes, every process the run started that is still running (a
// worker that died cannot kill its own) is killed: the pid files of
// test/helpers/children.ts name them, never a search by name.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { killGroup, pidDir, startTime } from './helpers/pid-files.js';

declare module 'vitest' {
  export interface ProvidedContext {
    cpkTmpRoot: string;
  }
}

export default function setup(project: TestProject): () => void {
  const root = mkdtempSync(join(tmpdir(), 'cpk-suite-'));
  project.provide('cpkTmpRoot', root);
  return () => {
    const dir = pidDir(root);
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      // no child was started
    }
    for (const name of names) {
      const pid = Number(name);
      // Only the process that was started: a pid the system has since given to another is left alone.
      if (Number.isInteger(pid) && pid > 0 && startTime(pid) === readFileSync(join(dir, name), 'utf8')) killGroup(pid);
    }
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };
}
