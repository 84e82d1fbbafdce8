// Every generated file of the repository and its content, from the live
// command tree. `npm run gen` (scripts/gen.mjs) writes them; a test fails
// when the files on disk differ.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buildProgram } from '../cli/program.js';
import { completionScript } from '../completion/index.js';
import { COMPLETION_FILES, SHELLS } from '../completion/shells.js';
import type { IO } from '../core/io.js';
import { commandsMarkdown } from './commands-md.js';
import { manPages, releaseDate } from './man.js';
import { MANIFEST_VALIDATOR_FILE, manifestValidatorSource } from './manifest-validator.js';

/** The program as every user gets it; its IO is never used (nothing runs). */
export function referenceProgram() {
  const sink = { write: () => true };
  const io: IO = {
    stdout: sink,
    stderr: sink,
    stdin: Readable.from([]),
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    env: {},
  };
  return buildProgram({ io });
}

/** Repository-relative path -> content. */
export function generatedFiles(): Record<string, string> {
  const program = referenceProgram();
  const files: Record<string, string> = {};
  for (const shell of SHELLS) files[COMPLETION_FILES[shell]] = completionScript(shell, program);
  files['docs/commands.md'] = commandsMarkdown(program);
  // Run from the repository's root (npm run gen, vitest).
  Object.assign(files, manPages(program, releaseDate(readFileSync(join(process.cwd(), 'CHANGELOG.md'), 'utf8'))));
  files[MANIFEST_VALIDATOR_FILE] = manifestValidatorSource();
  return files;
}
