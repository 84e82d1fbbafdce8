// Tab completes every value: the formats after -o, ids (not file names) after
// `monitors wait`, `monitors watch` and `channels update`, in a real
// interactive bash on a pseudo-terminal; ids a 404 proved gone are not
// offered. zsh, fish and PowerShell are checked through their scripts' text.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { pressTab, withCpkOnPath } from '../helpers/bash-tab.js';
import { runCpk } from '../helpers/in-process.js';
import { FORMATS } from '../../src/output/format.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const script = (name: string) => readFileSync(resolve(ROOT, 'completions', name), 'utf8');
const f = useEmulator();

function setup() {
  const env = withCpkOnPath(f.env);
  // A directory with a file bash's default completion would offer.
  const cwd = mkdtempSync(join(tmpdir(), 'cpk-cwd-'));
  writeFileSync(join(cwd, 'zz-notes.txt'), '');
  const cpk = async (args: string[]) => {
    const child = run('cpk', args, { env, encoding: 'utf8', cwd });
    child.child.stdin!.end();
    return (await child).stdout;
  };
  return { env, cwd, cpk };
}

describe('Tab completes values in a real bash', () => {
  it('-o offers the formats; wait, watch and channels update offer ids, never file names', async () => {
    const { env, cwd, cpk } = setup();
    const a = (await cpk(['monitors', 'create', '--name', 'Checkout API', '-q'])).trim();
    writeFileSync(
      join(cwd, 'cpk.state.json'),
      JSON.stringify({ version: 1, base_url: f.env.CPK_BASE_URL, monitors: {}, channels: { ch_ops: { applied: {} } } }),
    );
    const [formats, formatsJ, waitIds, watchIds, channelIds, noIds] = await pressTab(
      env,
      [
        'cpk -o ',
        'cpk monitors list --output js',
        'cpk monitors wait ',
        'cpk monitors watch --every 1s ',
        'cpk channels update ',
        'cpk monitors wait zz',
      ],
      cwd,
    );
    for (const format of FORMATS) expect(formats!.shown).toContain(format);
    expect(formatsJ!.line).toBe('cpk monitors list --output json');
    expect(formatsJ!.shown).toMatch(/json +jsonl/);
    // One monitor known: its id is inserted whole.
    expect(waitIds!.line).toBe(`cpk monitors wait ${a} `);
    expect(watchIds!.line).toBe(`cpk monitors watch --every 1s ${a} `);
    expect(channelIds!.line).toBe('cpk channels update ch_ops ');
    // No id starts with zz: the file that does is not offered either.
    expect(noIds!.line).toBe('cpk monitors wait zz');
    for (const r of [waitIds, watchIds, channelIds, noIds]) expect(r!.shown).not.toContain('zz-notes');
  });

  it('an id a 404 proved gone is no longer offered', async () => {
    const { cpk } = setup();
    const a = (await cpk(['monitors', 'create', '--name', 'Gone soon', '-q'])).trim();
    const b = (await cpk(['monitors', 'create', '--name', 'Stays', '-q'])).trim();
    expect(await cpk(['__complete', 'monitor-ids'])).toContain(a);
    // Deleted behind cpk's back (the api command records nothing)...
    await cpk(['api', 'DELETE', `/monitors/${a}`]);
    expect(await cpk(['__complete', 'monitor-ids'])).toContain(a);
    // ...then a get answers 404, and the inventory forgets it.
    await expect(cpk(['monitors', 'get', a])).rejects.toMatchObject({ code: 6 });
    const left = await cpk(['__complete', 'monitor-ids']);
    expect(left).not.toContain(a);
    expect(left).toContain(`${b}\tStays`);
  });

  it('channels update offers the channels a list showed here, with their names', async () => {
    const { env, cwd } = setup();
    expect((await runCpk(['channels', 'list'], { env })).code).toBe(0);
    const [all, ops] = await pressTab(env, ['cpk channels update ', 'cpk channels update ch_op'], cwd);
    expect(all!.shown).toMatch(/ch_oncall +\(On-call webhook\)/);
    expect(all!.shown).toMatch(/ch_slack +\(Slack #alerts\)/);
    expect(all!.line).toBe('cpk channels update ch_');
    expect(ops!.line).toBe('cpk channels update ch_ops ');
  });

  it("lists each id with its monitor's name, as cobra's bash script does, and inserts the id alone", async () => {
    const { env, cwd } = setup();
    const a = await f.create({ name: 'Checkout API' });
    const b = await f.create({ name: 'Search (eu)' });
    // A list makes them known here, with their names.
    expect((await runCpk(['monitors', 'list', '-q'], { env })).code).toBe(0);
    const [several, one] = await pressTab(env, ['cpk monitors get mon_', `cpk monitors get ${b.slice(0, -1)}`], cwd);
    // Several match: each is listed as "id  (name)"; what is typed grows by their common prefix only.
    expect(several!.shown).toContain(`${a}  (Checkout API)`);
    expect(several!.shown).toContain(`${b}  (Search (eu))`);
    expect(several!.line).toMatch(/^cpk monitors get mon_\S*$/);
    // One matches: its id is inserted, without its name.
    expect(one!.line).toBe(`cpk monitors get ${b} `);
  });
});

describe('zsh, fish and PowerShell complete the same values', () => {
  const zsh = script('cpk.zsh');
  const fish = script('cpk.fish');
  const ps = script('cpk.ps1');
  const idPlaces: Array<[string, string]> = [
    ['monitors wait', 'monitor-ids'],
    ['monitors watch', 'monitor-ids'],
    ['channels update', 'channel-ids'],
    ['monitors get', 'monitor-ids'],
  ];

  it('offer the formats after -o and --output', () => {
    const list = FORMATS.map((v) => `'${v}'`).join(' ');
    expect(zsh).toContain(`'monitors list/-o=') __cpk_list=(${list})`);
    expect(zsh).toContain(`'monitors list/--output=') __cpk_list=(${list})`);
    expect(fish).toMatch(
      new RegExp(`-n '__cpk_at \\\\'monitors list\\\\'' -l 'output' -s 'o' -x -a '${FORMATS.join(' ')}'`),
    );
    expect(ps).toContain(`$choices['monitors list/-o'] = @(${FORMATS.map((v) => `'${v}'`).join(', ')})`);
  });

  it('ask cpk __complete for ids with their names at wait, watch and channels update, and offer no files there', () => {
    for (const [path, kind] of idPlaces) {
      expect(zsh).toContain(`'${path}/') __cpk_dynamic ${kind}; :; return 0 ;;`);
      expect(fish).toContain(`complete -c cpk -n '__cpk_at \\'${path}\\'' -f -a '(__cpk_dynamic ${kind})'`);
      expect(ps).toContain(`$dynamic['${path}/'] = '${kind}'`);
    }
    // zsh falls back to files only where no id belongs; fish completes no files by default.
    expect(zsh).toMatch(/__cpk_more "\$cmdpath\/" && ids=0[\s\S]*elif \(\( ids \)\); then\n\s+_files/);
    expect(fish).toContain('complete -c cpk -f\n');
  });

  it('keep each line as data: a value must be a plain word, a name is only shown', () => {
    // zsh: read -r into variables, the value matched against the plain-word classes, the name a description.
    expect(zsh).toContain('while IFS= read -r line; do');
    expect(zsh).toMatch(/'' \| \[\^[A-Za-z0-9_]+\]\* \| \*\[\^[A-Za-z0-9_.+@/-]+\]\*\) continue ;;/);
    expect(zsh).toContain('description=${description//[[:cntrl:]]/ }');
    // fish: the value must match the plain-word pattern; printf prints the pair, never evaluated.
    expect(fish).toMatch(
      /string match -qr -- '\^\[[A-Za-z0-9_]+\]\[[A-Za-z0-9_.+@/-]+\]\*\$' \$parts\[1\]; or continue/,
    );
    expect(fish).toContain("printf '%s\\t%s\\n' $parts[1] (string replace -ra '[\\x00-\\x1f\\x7f]' ' ' -- $parts[2])");
    // PowerShell: the value matched case-sensitively, the name only a tooltip.
    expect(ps).toMatch(/if \(\$value -cmatch '\^\[[A-Za-z0-9_]+\]\[[A-Za-z0-9_.+@/-]+\]\*\$'\)/);
    expect(ps).toContain(
      "[System.Management.Automation.CompletionResult]::new($value, $value, 'ParameterValue', $tip)",
    );
    for (const text of [zsh, fish, ps]) {
      expect(text).not.toMatch(/\beval\b|Invoke-Expression \$|compgen -W/);
    }
  });
});
