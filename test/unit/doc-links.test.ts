// Links between the documents, and the sections that code comments send a
// reader to, must lead somewhere: a moved or renamed section fails here
// instead of leaving a reader at a dead end.
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const DOCS = ['README.md', 'CONTRIBUTING.md', ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith('.md'),
);

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6} (.+)$/.exec(line);
    if (!heading) continue;
    const base = heading[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\- _]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Headings as written, for comments that name a section by its title. */
function titles(markdown: string): Set<string> {
  return new Set([...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((m) => m[1]!.trim()));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|js|mjs|cjs)$/.test(name) && !name.includes('.generated.') ? [path] : [];
  });
}

describe('documentation links', () => {
  it('every relative link in README.md, CONTRIBUTING.md and docs/ names a file and a heading that exist', () => {
    const broken: string[] = [];
    for (const doc of DOCS) {
      const text = readFileSync(join(ROOT, doc), 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target!)) continue;
        const [file, anchor] = target!.split('#') as [string, string | undefined];
        const path = file === '' ? join(ROOT, doc) : resolve(dirname(join(ROOT, doc)), file);
        if (!existsSync(path)) {
          broken.push(`${doc}: ${target} (no such file)`);
          continue;
        }
        if (anchor !== undefined && !anchors(readFileSync(path, 'utf8')).has(anchor))
          broken.push(`${doc}: ${target} (no such heading in ${relative(ROOT, path)})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('a code comment that names a section of a document names one that exists', () => {
    const broken: string[] = [];
    for (const file of ['src', 'bin', 'scripts'].flatMap((d) => sourceFiles(join(ROOT, d)))) {
      const text = readFileSync(file, 'utf8');
      for (const [, doc, section] of text.matchAll(/\b(README|docs\/[\w-]+\.md)[,:]? "([^"\n]+)"/g)) {
        const path = join(ROOT, doc === 'README' ? 'README.md' : doc!);
        if (!existsSync(path) || !titles(readFileSync(path, 'utf8')).has(section!))
          broken.push(`${relative(ROOT, file)}: ${doc}, "${section}"`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('finds the anchors GitHub makes', () => {
    const made = anchors('# Exit codes\n## Proxies and private CAs\n```\n# not a heading\n```\n## Exit codes\n');
    expect([...made]).toEqual(['exit-codes', 'proxies-and-private-cas', 'exit-codes-1']);
  });
});
