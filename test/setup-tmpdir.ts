// Runs before each test file: os.tmpdir() (which reads TMPDIR on each call)
// becomes the run's own directory (test/global-setup.ts), and
// test/helpers/cli.ts's baseEnv passes it on to the CLI processes. When the
// file ends, any process it started that is still running is killed
// (test/helpers/children.ts), so none outlives the file that started it.
import { afterAll, inject } from 'vitest';
import { killAllTracked } from './helpers/children.js';

process.env.TMPDIR = inject('cpkTmpRoot');

afterAll(killAllTracked);
