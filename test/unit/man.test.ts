// The man pages ship with the package and are generated from the command tree
// (their content is compared with it by the generated-files test): here, that
// package.json lists exactly those pages, and that each renders cleanly.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { referenceProgram } from '../../src/gen/files.js';
import { manPages } from '../../src/gen/man.js';

const ROOT = resolve(import.meta.dirname, '../..');
const pages = manPages(referenceProgram());
const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { man: string[]; files: string[] };

describe('man pages', () => {
  it("package.json's man lists every generated page and nothing else", () => {
    expect([...pkg.man].sort()).toEqual(
      Object.keys(pages)
        .map((p) => `./${p}`)
        .sort(),
    );
    expect(pkg.files).toContain('man/');
  });

  it('has cpk(1) and one page per command, naming its usage', () => {
    expect(pages['man/man1/cpk.1']).toContain('.SH GLOBAL OPTIONS');
    expect(pages['man/man1/cpk-monitors-get.1']).toMatch(
      /\.SH SYNOPSIS\ncpk monitors get\|view \[options\] \[ids\.\.\.\]/,
    );
    expect(pages['man/man1/cpk-apply.1']).toContain('\\-\\-lock\\-timeout');
  });

  it.each(Object.keys(pages))('%s renders without a groff warning', (path) => {
    const r = spawnSync('groff', ['-man', '-ww', '-z'], { input: pages[path], encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
  });
});
