// The scripts of docs/scripting.md, run as printed in a real shell against the
// emulator, with `cpk` on PATH as a user would have it.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { useEmulator } from '../helpers/emulator.js';
import { BIN } from '../helpers/cli.js';

const f = useEmulator({}, { inProcess: true });
const PAGE = readFileSync(resolve(import.meta.dirname, '../../docs/scripting.md'), 'utf8');

function script(name: string): string {
  const match = new RegExp(`<!-- tested: ${name}\\b[^\\n]*-->\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\``).exec(PAGE);
  expect(match, `docs/scripting.md block "${name}"`).not.toBeNull();
  return match![1]!;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a documented script with sh in its own directory, `cpk` on PATH. */
function runScript(
  text: string,
  options: { env?: Record<string, string>; files?: Record<string, string> } = {},
): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'cpk-readme-'));
  const shim = join(dir, 'cpk');
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(shim, 0o755);
  for (const [file, content] of Object.entries(options.files ?? {})) writeFileSync(join(dir, file), content);
  writeFileSync(join(dir, 'script.sh'), text);
  return new Promise((resolvePromise, reject) => {
    const child = spawn('sh', ['script.sh'], {
      cwd: dir,
      env: { PATH: `${dir}:${process.env.PATH ?? ''}`, HOME: dir, LANG: 'C.UTF-8', ...f.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

async function monitorWithReport(target: string): Promise<{ id: string; reportId: string }> {
  const id = await f.create({ name: 'gate', target, interval_seconds: 3600 });
  // the first get runs the emulator's simulated check, which fills the report
  const got = await f.cpk(['monitors', 'get', id, '--query', 'report_id']);
  return { id, reportId: got.stdout.trim() };
}

describe('docs/scripting.md: scripts', () => {
  it('create and capture the id', async () => {
    const r = await runScript(script('create-capture'));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [created, status] = r.stdout.trim().split('\n');
    const id = created!.replace(/^created /, '');
    expect(id).toMatch(/^mon_\w+$/);
    expect(status).toBe('up');
    expect(f.emu.monitors().find((m) => m.id === id)?.name).toBe('Checkout API');
  });

  it('bulk delete from a file: all deleted, then a file with an unknown id exits 6', async () => {
    const ids = (
      await f.cpk(['monitors', 'create', '--from', '-', '-q'], {
        input: '{"name":"r1"}\n{"name":"r2"}\n{"name":"r3"}\n',
      })
    ).stdout
      .trim()
      .split('\n');
    const ok = await runScript(script('bulk-delete'), {
      files: { 'retire.txt': `# retired in the migration\n${ids.join('\n')}\n\n` },
    });
    expect(ok.code).toBe(0);
    expect(ok.stdout.match(/^curl -X DELETE /gm)).toHaveLength(3);
    expect(ok.stdout).toMatch(/all deleted\n$/);
    const left = new Set(f.emu.monitors().map((m) => m.id));
    expect(ids.filter((id) => left.has(id))).toEqual([]);

    const again = await runScript(script('bulk-delete'), { files: { 'retire.txt': `${ids[0]}\n` } });
    expect(again.code).toBe(6);
    expect(again.stderr).toMatch(/monitor not found[\s\S]*some deletes failed \(exit 6\)/);
  });

  it('the CI uptime gate passes above the threshold and fails the build below it', async () => {
    const [up, flaky] = await Promise.all([
      monitorWithReport('https://up.example.com'),
      monitorWithReport('https://patchy.example.com'),
    ]);
    // Hourly, the patchy one is up seven times, then down once in an outage: 87.5%.
    f.advance(6 * 3_600_000);
    await f.outage('patchy.example.com');
    f.advance(3_600_000);
    await f.outage(null);
    const gate = script('ci-uptime');
    const [pass, fail, fresh] = await Promise.all([
      runScript(gate, { env: { REPORT_ID: up.reportId } }),
      runScript(gate, { env: { REPORT_ID: flaky.reportId, MIN_UPTIME: '90' } }),
      (async () => {
        const id = await f.create({ name: 'fresh', target: 'https://new.example.com' });
        return runScript(gate, { env: { REPORT_ID: id.replace(/^mon_/, 'rpt_') } });
      })(),
    ]);
    expect(pass.code).toBe(0);
    // The verdict alone: the report is not printed unless asked for.
    expect([pass.stdout, pass.stderr]).toEqual(['', 'the assertion held\n']);
    expect([fail.code, fail.stderr]).toEqual([
      9,
      'cpk: assertion failed: uptime_percent >= `90` (uptime_percent is 87.5)\ncpk: 1 of 1 assertion failed\n',
    ]);
    // A report with no checks yet: uptime_percent is null, which is no pass.
    expect([fresh.code, fresh.stderr]).toEqual([
      9,
      'cpk: assertion failed: uptime_percent >= `99.5` (uptime_percent is null)\ncpk: 1 of 1 assertion failed\n',
    ]);
  });
});
