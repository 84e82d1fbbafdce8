// One temporary directory for the whole run, removed when it ends: every
// mkdtemp under os.tmpdir() in the tests and their helpers (the private HOME
// each CLI run gets, sandboxes, manifests) lands inside it, so nothing a test
// made outlives the run, whether the test passed, failed or was cut short.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'cpk-suite-'));
  // Read by os.tmpdir() in the test workers (which inherit this environment)
  // and passed on to the CLI processes by test/helpers/cli.ts's baseEnv.
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true, maxRetries: 3 });
}
