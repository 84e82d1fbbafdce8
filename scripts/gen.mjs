// `npm run gen`: writes the files generated from the command tree
// (completions/*, docs/commands.md, man/ and package.json's list of it). `--check` writes nothing and exits 1 when
// a file differs, naming it. The TypeScript generator (src/gen/files.ts) is
// bundled with esbuild in memory first, so this needs no build.
import { build } from 'esbuild';
import { nodeBundle } from './build.mjs';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const check = process.argv.includes('--check');
const { outputFiles } = await build({
  ...nodeBundle,
  entryPoints: ['src/gen/files.ts'],
  write: false,
  format: 'esm',
  // commander and friends are bundled in: a module imported from a data: URL resolves no package.
  banner: {
    js: `import { createRequire as __cr } from 'node:module'; const require = __cr(${JSON.stringify(join(root, 'package.json'))});`,
  },
});
const source = Buffer.from(outputFiles[0].contents).toString('base64');
const { generatedFiles } = await import(`data:text/javascript;base64,${source}`);
const files = generatedFiles();
// npm installs the man pages package.json names: the list is generated with the pages, so a new command needs no
// hand edit there.
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
pkg.man = Object.keys(files)
  .filter((path) => path.startsWith('man/'))
  .sort()
  .map((path) => `./${path}`);
files['package.json'] = `${JSON.stringify(pkg, null, 2)}\n`;
const stale = [];
for (const [path, content] of Object.entries(files)) {
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
