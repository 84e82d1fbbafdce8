// The layers the lint keeps apart (.oxlintrc.json) say which way an import may
// run; this says no chain of imports comes back to where it started: a module
// in a circle runs against a half-initialised neighbour, and the order of
// start-up then depends on which one a command happened to import first.
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const SRC = resolve(import.meta.dirname, '../../src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Relative imports that run code (static or dynamic; `import type` is erased), as repository paths. */
export function importsOf(file: string, text: string): string[] {
  const specs = [
    ...text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/gms),
    ...text.matchAll(/^import\s+['"](\.{1,2}\/[^'"]+)['"]/gm),
    ...text.matchAll(/\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]!);
  return specs.map((spec) => resolve(dirname(file), spec).replace(/\.js$/, '.ts')).filter((path) => existsSync(path));
}

/** Every circle of the graph, each as the chain of modules that closes it. */
export function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}

describe('imports', () => {
  it('no module of src/ imports itself back through others', () => {
    const graph = new Map(sources(SRC).map((file) => [file, importsOf(file, readFileSync(file, 'utf8'))]));
    const shown = circles(graph).map((chain) => chain.map((f) => relative(SRC, f)).join(' -> '));
    expect(shown).toEqual([]);
  });

  it('finds a circle, static or dynamic, and ignores type-only imports', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', []],
    ]);
    expect(circles(graph)).toEqual([['a', 'b', 'c', 'a']]);
    const file = join(SRC, 'x', 'y.ts');
    const text = "import type { T } from '../core/errors.js';\nconst m = await import('../core/pool.js');\n";
    expect(importsOf(file, text).map((p) => relative(SRC, p))).toEqual(['core/pool.ts']);
  });
});
