// One temporary directory for each run of a project, removed when it ends:
// every mkdtemp under os.tmpdir() in the tests and their helpers (the private
// HOME each CLI run gets, sandboxes, manifests) lands inside it, so nothing a
// test made outlives the run, whether the test passed, failed or was cut
// short. test/setup-tmpdir.ts points each test file's os.tmpdir() at it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    cpkTmpRoot: string;
  }
}

export default function setup(project: TestProject): () => void {
  const root = mkdtempSync(join(tmpdir(), 'cpk-suite-'));
  project.provide('cpkTmpRoot', root);
  return () => rmSync(root, { recursive: true, force: true, maxRetries: 3 });
}
