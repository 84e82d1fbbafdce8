// The man pages ship with the package and are generated from the command tree
// (their content is compared with it by the generated-files test): here, that
// package.json lists exactly those pages, and that each renders cleanly.
import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { referenceProgram } from '../../src/gen/files.js';
import { manPages, releaseDate } from '../../src/gen/man.js';

const ROOT = resolve(import.meta.dirname, '../..');
const pages = manPages(referenceProgram(), releaseDate(readFileSync(resolve(ROOT, 'CHANGELOG.md'), 'utf8')));

/** man-pages(7)'s order of the sections a command's page has (GLOBAL OPTIONS and COMMANDS follow OPTIONS). */
const ORDER = [
  'NAME',
  'SYNOPSIS',
  'DESCRIPTION',
  'OPTIONS',
  'GLOBAL OPTIONS',
  'COMMANDS',
  'EXIT STATUS',
  'ENVIRONMENT',
  'FILES',
  'EXAMPLES',
  'SEE ALSO',
];
const sections = (page: string) => [...page.matchAll(/^\.SH (.*)$/gm)].map((m) => m[1]!);
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
      /\.SH SYNOPSIS\n\\fBcpk monitors get\|view \[options\] \[ids\.\.\.\]/,
    );
    expect(pages['man/man1/cpk-apply.1']).toContain('\\-\\-lock\\-timeout');
  });

  it.each(Object.keys(pages))("%s: sections in man-pages(7)'s order, none saying twice what another says", (path) => {
    const page = pages[path]!;
    const found = sections(page);
    expect(found.filter((s) => !ORDER.includes(s))).toEqual([]);
    expect([...found].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b))).toEqual(found);
    expect(found).toContain('EXIT STATUS');
    // A command's page has the options every command takes, as cpk(1) has them.
    if (path !== 'man/man1/cpk.1') expect(found).toContain('GLOBAL OPTIONS');
    const name = /^\.SH NAME\n([^]*?)\n\.SH/m.exec(page)![1]!.replace(/\n/g, ' ');
    const summary = name.slice(name.indexOf(' \\- ') + 4);
    const description = /^\.SH DESCRIPTION\n([^]*?)\n\.SH/m.exec(page)?.[1]?.replace(/\n/g, ' ') ?? '';
    expect(description).not.toContain(summary);
    expect(page).not.toContain('Examples:');
    expect(page).not.toContain('Exit codes:');
  });

  it('cpk(1) has the exit codes under EXIT STATUS, and every CPK_ variable src/ reads under ENVIRONMENT', () => {
    const page = pages['man/man1/cpk.1']!;
    expect(page).toContain('.SH EXIT STATUS\n.TP\n\\fB0\\fR\nok\n.TP\n\\fB1\\fR\nfailure\n');
    const environment = /^\.SH ENVIRONMENT\n([^]*?)\n\.SH/m.exec(page)![1]!;
    const read = execFileSync('grep', ['-rhoE', '\\bCPK_[A-Z0-9_]+', resolve(ROOT, 'src')], { encoding: 'utf8' });
    const names = [...new Set(read.split('\n').filter(Boolean))].sort();
    expect(names.length).toBeGreaterThan(8);
    for (const name of names) expect(environment).toContain(`\\fB${name}\\fR`);
  });

  it.each(Object.keys(pages))('%s passes mandoc -T lint', (path) => {
    const r = spawnSync('mandoc', ['-T', 'lint', '-W', 'style'], { input: pages[path], encoding: 'utf8' });
    expect(r.error).toBeUndefined();
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it.each(Object.keys(pages))('%s renders without a groff warning', (path) => {
    const r = spawnSync('groff', ['-man', '-ww', '-z'], { input: pages[path], encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
  });
});
