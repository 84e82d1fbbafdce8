// Runs before each test file: os.tmpdir() (which reads TMPDIR on each call)
// becomes the run's own directory (test/global-setup.ts), and
// test/helpers/cli.ts's baseEnv passes it on to the CLI processes.
import { inject } from 'vitest';

process.env.TMPDIR = inject('cpkTmpRoot');
