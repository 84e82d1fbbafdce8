// Completions and docs/commands.md are generated from the command tree: the
// files in the repository must match it, and the scripts must offer what the
// tree holds, checked in real shells.
import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Argument, Option, type Command } from 'commander';
import { generatedFiles, referenceProgram } from '../../src/gen/files.js';
import { completionScript } from '../../src/completion/index.js';
import { COMPLETION_FILES, SHELLS } from '../../src/completion/shells.js';
import { isPlainCandidate } from '../../src/completion/candidate.js';
import { textWidth } from '../../src/output/text.js';

const ROOT = resolve(import.meta.dirname, '../..');

function sub(cmd: Command, ...names: string[]): Command {
  return names.reduce((c, name) => {
    const found = c.commands.find((s) => s.name() === name);
    if (!found) throw new Error(`no command ${name}`);
    return found;
  }, cmd);
}

/** Subcommand names as commander's own help lists them (its implicit `help` included). */
function subcommands(cmd: Command): string[] {
  return cmd
    .createHelp()
    .visibleCommands(cmd)
    .flatMap((c) => [c.name(), ...c.aliases()]); // aliases complete too (monitors ls)
}

/** Long options commander accepts at `cmd`: its own, its ancestors', and --help. */
function longOptions(cmd: Command): string[] {
  const names = new Set<string>(['--help']);
  for (let c: Command | null = cmd; c; c = c.parent) for (const o of c.options) if (o.long) names.add(o.long);
  return [...names].sort();
}

/**
 * Runs a bash completion script in a real bash and returns what each command
 * line (the last word being completed) gets in COMPREPLY, sorted.
 */
function bashComplete(script: string, lines: string[][]): string[][] {
  const cases = lines.map((words) => `comp ${words.map((w) => `'${w}'`).join(' ')}`).join('\n');
  const driver = `${script}
comp() { COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMPREPLY=(); _cpk; printf '%s\\n' "\${COMPREPLY[@]}" | LC_ALL=C sort | tr '\\n' ' '; echo; }
complete -p cpk >/dev/null || echo 'cpk is not registered' >&2
${cases}`;
  const out = execFileSync('bash', ['--norc', '--noprofile', '-c', driver], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return out
    .split('\n')
    .slice(0, lines.length)
    .map((line) => line.split(' ').filter(Boolean));
}

const program = referenceProgram();
const sorted = (words: string[]) => [...words].sort();

describe('generated files', () => {
  it.each(Object.entries(generatedFiles()))(
    '%s matches the command tree (npm run gen rewrites it)',
    (path, content) => {
      const onDisk = readFileSync(resolve(ROOT, path), 'utf8');
      expect(onDisk, `${path} is out of date: run npm run gen`).toBe(content);
    },
  );
});

describe('bash completion (completions/cpk.bash in a real bash)', () => {
  const script = readFileSync(resolve(ROOT, COMPLETION_FILES.bash), 'utf8');

  it('is valid bash', () => {
    const r = spawnSync('bash', ['-n', resolve(ROOT, COMPLETION_FILES.bash)], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('completes commands, subcommands, options and fixed values', () => {
    const [mon, monitors, createFlags, afterValue, shells, root, longOnly] = bashComplete(script, [
      ['cpk', 'mon'],
      ['cpk', 'monitors', ''],
      ['cpk', 'monitors', 'create', '--'],
      // --base-url takes a value: "monitors" is that value, not the command.
      ['cpk', '--base-url', 'monitors', ''],
      ['cpk', 'completion', ''],
      ['cpk', '--json', 're'],
      ['cpk', 'monitors', 'create', '--int'],
    ]);
    expect(mon).toEqual(['monitors']);
    expect(monitors).toEqual(expect.arrayContaining(['create', 'delete', 'get', 'update']));
    expect(monitors).toEqual(sorted(subcommands(sub(program, 'monitors'))));
    expect(createFlags).toEqual(
      expect.arrayContaining([
        '--name',
        '--type',
        '--target',
        '--interval',
        '--data',
        '--quiet',
        '--json',
        '--base-url',
        '--help',
      ]),
    );
    expect(createFlags).toEqual(longOptions(sub(program, 'monitors', 'create')));
    expect(afterValue).toEqual(sorted(subcommands(program)));
    expect(shells).toEqual(['bash', 'fish', 'powershell', 'zsh']);
    expect(root).toEqual(['reports']);
    expect(longOnly).toEqual(['--interval']);
  });

  it('follows the tree: a command or flag added to it is completed without touching the generator', () => {
    const changed = referenceProgram();
    sub(changed, 'monitors', 'create').option('--brand-new <x>', 'added by a test');
    changed.command('zebra').description('added by a test').command('stripe');
    const [flags, top, nested] = bashComplete(completionScript('bash', changed), [
      ['cpk', 'monitors', 'create', '--br'],
      ['cpk', 'ze'],
      ['cpk', 'zebra', ''],
    ]);
    expect(flags).toEqual(['--brand-new']);
    expect(top).toEqual(['zebra']);
    expect(nested).toEqual(expect.arrayContaining(['stripe']));
  });
});

/** The words each `complete ... -a '...'` line of a fish script gives fish, which expands them as it completes. */
function fishArguments(script: string): string[][] {
  return [...script.matchAll(/ -a '((?:[^'\\]|\\.)*)'/g)]
    .map((m) => m[1]!.replace(/\\([\\'])/g, '$1'))
    .filter((words) => !DYNAMIC_CALL.test(words))
    .map((words) => words.split(' '));
}

/** The one call a fish `-a` list makes: the script's own reader of `cpk __complete KIND`, a fixed kind. */
const DYNAMIC_CALL = /^\(__cpk_dynamic [a-z-]+\)$/;

describe('every word a script offers is a plain word, in all four shells', () => {
  const marks = mkdtempSync(join(tmpdir(), 'cpk-marks-'));
  const hostile = [
    `$(touch ${marks}/dollar)`,
    `\`touch ${marks}/backquote\``,
    `a;touch\${IFS}${marks}/semicolon`,
    `a|touch\${IFS}${marks}/pipe`,
    `a'$(touch\${IFS}${marks}/quote)'`,
    `a"$(touch\${IFS}${marks}/double)"`,
    `a\n$(touch\${IFS}${marks}/newline)`,
    `(touch ${marks}/fish)`,
    `{a,b}`,
    `a*`,
    `-x`,
    `\u2019$(touch${marks}/typographic)`,
  ];
  // A tree whose fixed values and command words were written carelessly (or by a generator fed server text).
  const program = referenceProgram();
  const zebra = program.command('zebra').description('added by a test');
  zebra.addArgument(new Argument('<kind>').choices(['plain', ...hostile]));
  zebra.addOption(new Option('--mode <m>', 'a mode').choices(['fast', ...hostile]));
  zebra.command('stripe').alias(hostile[0]!).alias(hostile[1]!);

  it('leaves out the others: bash offers and runs none of them', () => {
    const [words, values, subcommands] = bashComplete(completionScript('bash', program), [
      ['cpk', 'zebra', ''],
      ['cpk', 'zebra', '--mode', ''],
      ['cpk', 'zebra', 's'],
    ]);
    expect(words).toEqual(['help', 'plain', 'stripe']);
    expect(values).toEqual(['fast']);
    expect(subcommands).toEqual(['stripe']);
    expect(readdirSync(marks)).toEqual([]);
  });

  it('fish, zsh and PowerShell scripts hold none of them; fish expands only plain words', () => {
    for (const shell of SHELLS) {
      const script = completionScript(shell, program);
      expect(script, shell).toContain('plain');
      expect(script, shell).toContain('fast');
      expect(script, shell).not.toContain('touch');
      expect(script, shell).not.toContain('{a,b}');
      // No script evaluates a word; what cpk __complete prints is read as data (test/cli/complete-values.test.ts).
      const code = script
        .split('\n')
        .filter((line) => !/^\s*#/.test(line))
        .join('\n');
      expect(code, shell).not.toMatch(shell === 'bash' ? /\beval\b|\bcompgen\b/ : /\beval\b|Invoke-Expression|iex\b/);
    }
    const fish = fishArguments(completionScript('fish', program)).flat();
    expect(fish).toEqual(expect.arrayContaining(['plain', 'fast', 'stripe']));
    expect(fish.filter((w) => !isPlainCandidate(w))).toEqual([]);
    // The shipped script too.
    const shipped = fishArguments(readFileSync(resolve(ROOT, COMPLETION_FILES.fish), 'utf8')).flat();
    expect(shipped).toEqual(expect.arrayContaining(['monitors', 'bash', 'powershell']));
    expect(shipped.filter((w) => !isPlainCandidate(w))).toEqual([]);
  });
});

describe('the two filters of dynamic candidates agree', () => {
  // Lines as a server could make cpk print them (no NUL or newline: a line cannot hold one).
  const unit = fc.constantFrom(
    ...'aZm09_.+@/-$`;|&<>(){}[]*?~\'"\\ #%!^=,:\t\r\u00e9\u2019\u201c\u001b\u0085\u00a0'.split(''),
  );
  const lines = fc.sample(fc.string({ unit, minLength: 1, maxLength: 12 }), { numRuns: 3000, seed: 20261125 });

  it('the bash script keeps exactly the words cpk __complete would print (a property over 3000 lines)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-lines-'));
    writeFileSync(join(dir, 'lines'), `${lines.join('\n')}\n`);
    writeFileSync(join(dir, 'cpk'), `#!/bin/sh\ncat '${join(dir, 'lines')}'\n`);
    chmodSync(join(dir, 'cpk'), 0o755);
    const driver = `${readFileSync(resolve(ROOT, COMPLETION_FILES.bash), 'utf8')}
COMP_WORDS=('${join(dir, 'cpk')}' monitors get ''); cur=''; __cpk_list=()
__cpk_dynamic monitor-ids
printf '%s\\0' "\${__cpk_list[@]}"`;
    const kept = execFileSync('bash', ['--norc', '--noprofile', '-c', driver], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, LANG: 'C.UTF-8' },
    })
      .split('\0')
      .slice(0, -1);
    const values = lines.map((line) => line.split('\t')[0]!);
    expect(kept.map((entry) => entry.split('\t')[0])).toEqual(values.filter(isPlainCandidate));
    // A description is kept beside its word, on its line, with no control character left in it.
    // eslint-disable-next-line no-control-regex
    for (const entry of kept) expect(entry.split('\t').slice(1).join('')).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(kept.filter((entry) => entry.includes('\t')).length).toBeGreaterThan(5);
    // The sample holds both kinds, so the comparison means something.
    expect(kept.length).toBeGreaterThan(30);
    expect(values.length - kept.length).toBeGreaterThan(1000);
  });
});

describe('docs/commands.md', () => {
  const doc = readFileSync(resolve(ROOT, 'docs/commands.md'), 'utf8');

  function walk(cmd: Command, path: string[]): Array<[string[], Command]> {
    // Hidden commands (`cpk __complete`) have no section, as they have no help.
    const visible = cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);
    return [[path, cmd], ...visible.flatMap((c) => walk(c, [...path, c.name()]))];
  }

  it('has a section for every command, naming each of its options', () => {
    for (const [path, cmd] of walk(program, [])) {
      const heading = `\n## ${['cpk', ...path].join(' ')}\n`;
      expect(doc, `no section for ${heading.trim()}`).toContain(heading);
      const section = doc.slice(doc.indexOf(heading) + heading.length).split('\n## ')[0]!;
      const options = path.length === 0 ? doc.slice(doc.indexOf('## Global options')) : section;
      for (const option of cmd.options)
        expect(options, `${path.join(' ')} ${option.flags}`).toContain(`| \`${option.flags}\` |`);
    }
  });
});

describe('the picker at a terminal width', () => {
  it('cuts a long label with … so that no line wraps; the id (hint) stays whole', async () => {
    const { fitChoices } = await import('../../src/cli/pick.js');
    const long = {
      value: 'mon_yrhwxbg45iq2',
      label: `${'checkout service '.repeat(6)} up  https://a`,
      hint: 'mon_yrhwxbg45iq2',
    };
    const short = { value: 'mon_2', label: 'web  up', hint: 'mon_2' };
    const [cut, kept] = fitChoices([long, short], 60);
    expect(kept).toEqual(short);
    expect(cut!.hint).toBe(long.hint);
    expect(cut!.label.endsWith('…')).toBe(true);
    // clack's gutter and mark, the label, then ` (id)`: within 60 cells.
    expect(6 + textWidth(cut!.label) + 3 + long.hint.length).toBeLessThanOrEqual(60);
  });
});
