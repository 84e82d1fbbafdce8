// Builds dist/ from src/ with esbuild: one ESM entry for the CLI, code-split so
// that modules imported with `await import()` (undici, ora, cli-table3, the
// emulator) load only when a command needs them. Dependencies stay external.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: false,
  logLevel: 'warning',
  chunkNames: 'chunks/[name]-[hash]',
});
