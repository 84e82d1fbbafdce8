// `npm run gen`: writes the files generated from the command tree
// (completions/*, docs/commands.md). `--check` writes nothing and exits 1 when
// a file differs, naming it. The TypeScript generator (src/gen/files.ts) is
// bundled with esbuild into a temporary module first, so this needs no build.
import { build } from 'esbuild';
import { nodeBundle } from './build.mjs';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const check = process.argv.includes('--check');
const dir = mkdtempSync(join(tmpdir(), 'cpk-gen-'));
try {
  const out = join(dir, 'files.mjs');
  await build({
    ...nodeBundle,
    entryPoints: [join(root, 'src/gen/files.ts')],
    outfile: out,
    format: 'esm',
    // commander and friends are bundled in: the module runs outside the repository.
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  const { generatedFiles } = await import(pathToFileURL(out).href);
  const stale = [];
  for (const [path, content] of Object.entries(generatedFiles())) {
    const file = join(root, path);
    if (existsSync(file) && readFileSync(file, 'utf8') === content) continue;
    stale.push(path);
    if (!check) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, content);
    }
  }
  if (check && stale.length) {
    console.error(`out of date (run npm run gen): ${stale.join(', ')}`);
    process.exitCode = 1;
  } else if (!check) {
    console.error(stale.length ? `wrote ${stale.join(', ')}` : 'generated files are up to date');
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
