// Installs a Node.js from the npm registry's `node` package into node_modules/.cache/cpk-node/<spec>/,
// once (npm ci starts it afresh), without touching the system's.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** `spec`: a major version ("26"), an exact one ("20.18.1") or "min" (the minimum of engines.node). */
export function installNode(spec) {
  const { engines } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  if (spec === 'min') spec = engines.node.replace(/^>=\s*/, '');
  if (!/^\d+(\.\d+\.\d+)?$/.test(spec)) throw new Error(`"${spec}" is not a major version, x.y.z or "min"`);

  const dir = join(root, 'node_modules', '.cache', 'cpk-node', spec);
  const node = join(dir, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(node)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    // The package's preinstall script puts the platform's binary (another
    // registry package) in place: allowed by name, for npm versions that gate
    // install scripts (allowScripts, npm >= 11.16).
    writeFileSync(join(dir, 'package.json'), '{ "private": true, "allowScripts": { "node": true } }\n');
    process.stderr.write(`installing node@${spec} into ${dir}\n`);
    execFileSync('npm', ['install', `node@${spec}`, '--prefix', dir, '--no-audit', '--no-fund', '--loglevel=error'], {
      stdio: ['ignore', 'inherit', 'inherit'],
      cwd: dir,
    });
  }
  return { node, version: execFileSync(node, ['--version'], { encoding: 'utf8' }).trim() };
}
