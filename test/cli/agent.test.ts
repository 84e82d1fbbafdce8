// Agent mode (docs/agents.md, "Agent mode"): one JSON document on stdout, the
// result or the error, with the exit code the document says; nothing asked, a
// confirmation printed as a preview with exit 2 and nothing changed.
// In-process against an emulator started here (test/helpers/in-process.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { main } from '../../src/cli/main.js';
import { AGENT_ENVIRONMENTS, agentMode } from '../../src/cli/agent.js';
import { buildProgram } from '../../src/cli/program.js';
import { allCommands, describeCommand } from '../../src/completion/tree.js';
import type { IO } from '../../src/core/io.js';
import { useEmulator } from '../helpers/emulator.js';
import { runInPty } from '../helpers/pty.js';
import { BIN, baseEnv } from '../helpers/cli.js';

const f = useEmulator({}, { inProcess: true });

/** The one document on stdout (JSON.parse refuses two), and the exit code it says: its exit_code, else 0. */
function documentOf(stdout: string): { doc: unknown; says: number } {
  const doc = JSON.parse(stdout) as unknown;
  const code =
    doc !== null && typeof doc === 'object' && !Array.isArray(doc) ? (doc as { exit_code?: unknown }).exit_code : 0;
  return { doc, says: typeof code === 'number' ? code : 0 };
}

/** cpk in-process with a fake IO that claims a terminal on every stream, answering `answer` to any question. */
async function onTerminal(args: string[], env: Record<string, string> = {}, answer = 'yes\n') {
  const out = { stdout: '', stderr: '' };
  const io: IO = {
    stdout: { write: (s: string) => (out.stdout += s) },
    stderr: { write: (s: string) => (out.stderr += s) },
    stdin: Readable.from([answer]),
    stdinIsTTY: true,
    stdoutIsTTY: true,
    stderrIsTTY: true,
    stdoutColumns: 100,
    env: baseEnv({ ...f.env, FORCE_COLOR: '3', ...env }),
  };
  const code = await main(args, io, { handleSignals: false });
  return { code, ...out };
}

describe('turning agent mode on', () => {
  it('each documented agent environment turns it on; CPK_AGENT=1 does, CPK_AGENT=0 wins over detection', () => {
    expect(AGENT_ENVIRONMENTS.length).toBeGreaterThan(5);
    const documented = readFileSync(join(import.meta.dirname, '../../docs/agents.md'), 'utf8');
    for (const { variable } of AGENT_ENVIRONMENTS) {
      expect(documented, `docs/agents.md names ${variable}`).toContain(`\`${variable}\``);
      expect(agentMode(false, { [variable]: '1' }), variable).toBe(true);
      expect(agentMode(false, { [variable]: '1', CPK_AGENT: '0' }), variable).toBe(false);
      expect(agentMode(false, { [variable]: '' }), variable).toBe(false);
    }
    expect(agentMode(false, { CPK_AGENT: '1' })).toBe(true);
    expect(agentMode(false, {})).toBe(false);
    expect(agentMode(true, { CPK_AGENT: '0' })).toBe(true);
  });

  it('a detected agent (CLAUDECODE=1) gets the error as one JSON document on stdout; CPK_AGENT=0 gets the line on stderr', async () => {
    const agent = await f.cpk(['monitors', 'get', 'mon_nope'], { env: { CLAUDECODE: '1' } });
    expect(agent.code).toBe(6);
    expect(agent.stderr).toBe('');
    const { doc, says } = documentOf(agent.stdout);
    expect(says).toBe(6);
    expect(doc).toMatchObject({ error: 'monitor not found: mon_nope', status: 404, exit_code: 6 });
    expect((doc as { request_id: unknown }).request_id).toMatch(/^req_/);

    const person = await f.cpk(['monitors', 'get', 'mon_nope'], { env: { CLAUDECODE: '1', CPK_AGENT: '0' } });
    expect(person.code).toBe(6);
    expect(person.stdout).toBe('');
    expect(person.stderr).toMatch(/^cpk: monitor not found: mon_nope \(request id: req_\w+\)\n$/);
  });

  it('CPK_AGENT=1 turns it on: a usage error is one JSON document on stdout, exit 2', async () => {
    const r = await f.cpk(['monitors', 'frobnicate'], { env: { CPK_AGENT: '1' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('');
    expect(documentOf(r.stdout)).toMatchObject({ says: 2, doc: { status: null, request_id: null, exit_code: 2 } });
  });
});

describe('what an agent reads', () => {
  it('the result as --json prints it, uncolored, even when every stream claims a terminal and -o asks for a table', async () => {
    const id = await f.create({ name: 'agent reads', target: 'https://a.example' });
    const json = await f.cpk(['monitors', 'get', id, '--json']);
    const r = await onTerminal(['monitors', 'get', id, '-o', 'table', '--agent']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stderr).toBe('');
    const { doc } = documentOf(r.stdout);
    // The same monitor as --json gives, but for what the emulator's checks changed in between.
    const { last_check: _a, status: _b, updated_at: _c, ...shown } = doc as Record<string, unknown>;
    expect(JSON.parse(json.stdout)).toMatchObject(shown);
  });

  // A real terminal (a pty), where a slow call would show a spinner 150 ms in: this one answers after a second.
  it('on a terminal, a slow call shows no spinner and no color: the terminal gets the document alone', async () => {
    const id = await f.create({ name: 'slow' });
    const body = JSON.stringify({ id, name: 'slow' });
    f.emu.injectFault({ method: 'GET', path: `/v1/monitors/${id}`, status: 200, body, delayMs: 1_000 });
    const pty = runInPty(['monitors', 'get', id], {
      env: { ...f.env, CLAUDECODE: '1', FORCE_COLOR: '3' },
      columns: 80,
      rows: 24,
      timeoutMs: 30_000,
    });
    const { code, output } = await pty.done;
    expect(code).toBe(0);
    expect(output.replace(/\r\n/g, '\n')).toBe(`{\n  "id": "${id}",\n  "name": "slow"\n}\n`);
  });

  it('a result followed by an error (a failed --assert) is one error document carrying the result, exit 9', async () => {
    const id = await f.create({ name: 'asserted', target: 'https://a.example' });
    const r = await f.cpk(['monitors', 'get', id, '--assert', "name == 'other'", '--agent']);
    expect(r.code).toBe(9);
    const { doc, says } = documentOf(r.stdout);
    expect(says).toBe(9);
    expect(doc).toMatchObject({ exit_code: 9, result: { id, name: 'asserted' } });
    expect((doc as { error: string }).error).toContain("name == 'other'");
  });

  it('a result that ends with another code than 0 (plan with changes: 10) says it in exit_code', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-agent-plan-'));
    writeFileSync(join(dir, 'cpk.yaml'), 'monitors:\n  planned:\n    name: planned\n');
    const r = await f.cpk(['plan', '-f', join(dir, 'cpk.yaml'), '--state', join(dir, 'state.json'), '--agent']);
    expect(r.code).toBe(10);
    const { doc, says } = documentOf(r.stdout);
    expect(says).toBe(10);
    expect(doc).toMatchObject({ monitors: [{ key: 'planned', action: 'create' }], exit_code: 10 });
  });

  it('a string that --query selects is a JSON string, not the raw text a shell variable gets', async () => {
    const id = await f.create({ name: 'queried' });
    const r = await f.cpk(['monitors', 'get', id, '--query', 'name', '--agent']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('"queried"\n');
  });

  it('text that is not JSON (help, and the help a group alone shows) comes as {"text": ...}', async () => {
    for (const args of [['monitors', '--help'], ['monitors']]) {
      const r = await f.cpk([...args, '--agent']);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      const { doc } = documentOf(r.stdout);
      expect((doc as { text: string }).text).toMatch(/^Usage: cpk monitors /);
    }
  });
});

describe('a confirmation in agent mode', () => {
  it('monitors delete asks nothing, even on a terminal: a preview naming the monitor, exit 2, no DELETE sent', async () => {
    const id = await f.create({ name: 'kept by the preview' });
    const sent = f.mark();
    const r = await onTerminal(['monitors', 'delete', id], { CPK_AGENT: '1' });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('Type yes');
    expect(r.stderr).toBe('');
    expect(documentOf(r.stdout)).toEqual({
      says: 2,
      doc: {
        confirmation_required: {
          question: `Delete monitor ${id} "kept by the preview"?`,
          delete: [{ id, name: 'kept by the preview' }],
        },
        exit_code: 2,
      },
    });
    expect(sent().map((q) => q.method)).toEqual(['GET']);
    expect(f.emu.monitors().some((m) => m.id === id)).toBe(true);
  });

  it('monitors delete off a terminal: the same preview, not the refusal a script gets; --yes deletes', async () => {
    const ids = [await f.create({ name: 'one' }), await f.create({ name: 'two' })];
    const sent = f.mark();
    const r = await f.cpk(['monitors', 'delete', ...ids, '--agent']);
    expect(r.code).toBe(2);
    expect(documentOf(r.stdout).doc).toMatchObject({
      confirmation_required: {
        delete: [
          { id: ids[0], name: 'one' },
          { id: ids[1], name: 'two' },
        ],
      },
    });
    expect(sent().filter((q) => q.method !== 'GET')).toEqual([]);

    // Ids from stdin too: stdin answers no question here, so it may hold the ids.
    const piped = await f.cpk(['monitors', 'delete', '-', '--agent'], { input: `${ids.join('\n')}\n` });
    expect(piped.code).toBe(2);
    expect(documentOf(piped.stdout).doc).toMatchObject({
      confirmation_required: { delete: [{ id: ids[0] }, { id: ids[1] }] },
    });
    expect(sent().filter((q) => q.method !== 'GET')).toEqual([]);

    const yes = await f.cpk(['monitors', 'delete', ...ids, '--agent', '--yes']);
    expect(yes.code).toBe(0);
    expect(documentOf(yes.stdout).doc).toEqual(ids.map((id) => ({ id, deleted: true })));
    expect(sent().filter((q) => q.method === 'DELETE')).toHaveLength(2);
    expect(f.emu.monitors().filter((m) => ids.includes(m.id as string))).toEqual([]);
  });

  it('apply --prune: a preview of the plan naming the deletion, exit 2, state and service unchanged; --yes applies', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpk-agent-apply-'));
    const [file, state] = [join(dir, 'cpk.yaml'), join(dir, 'state.json')];
    writeFileSync(file, 'monitors:\n  stays:\n    name: stays\n  goes:\n    name: goes\n');
    const first = await f.cpk(['apply', '-f', file, '--state', state, '--yes', '--agent']);
    expect(first.code).toBe(0);
    const goes = f.emu.monitors().find((m) => m.name === 'goes')?.id;
    writeFileSync(file, 'monitors:\n  stays:\n    name: stays\n');
    const before = readFileSync(state, 'utf8');

    const sent = f.mark();
    const r = await f.cpk(['apply', '-f', file, '--state', state, '--prune', '--agent']);
    expect(r.code).toBe(2);
    const { doc, says } = documentOf(r.stdout);
    expect(says).toBe(2);
    expect(doc).toMatchObject({
      confirmation_required: {
        question: `Apply these changes to ${f.emu.baseUrl}, deleting 1 monitor?`,
        base_url: f.emu.baseUrl,
        deletes: [{ key: 'goes', id: goes }],
        monitors: expect.arrayContaining([{ key: 'goes', action: 'delete', id: goes }]),
      },
    });
    expect(sent().filter((q) => q.method !== 'GET')).toEqual([]);
    expect(readFileSync(state, 'utf8')).toBe(before);
    expect(f.emu.monitors().some((m) => m.id === goes)).toBe(true);

    const yes = await f.cpk(['apply', '-f', file, '--state', state, '--prune', '--yes', '--agent']);
    expect(yes.code).toBe(0);
    expect(documentOf(yes.stdout).doc).toMatchObject({ summary: { deleted: 1 } });
    expect(f.emu.monitors().some((m) => m.id === goes)).toBe(false);
  });
});

describe('every command, walked from the command tree', () => {
  it('prints one JSON document on stdout under --agent, and exits with the code it says', async () => {
    const monitor = await f.create({ name: 'walked', target: 'https://walk.example' });
    const report = f.emu.monitors().find((m) => m.id === monitor)?.report_id as string;
    const channel = f.emu.channels()[0]?.id as string;
    const values: Record<string, string> = { 'monitor-ids': monitor, 'report-ids': report, 'channel-ids': channel };
    const tree = describeCommand(buildProgram({ io: { env: {} } as IO }));
    const walked: string[] = [];
    for (const spec of allCommands(tree)) {
      // A command that runs until it is stopped declares it (Traits.streams) and is exempt, as docs/agents.md says.
      if (spec.streams) continue;
      // Each argument it needs, and each it can complete from the service (so delete meets a real monitor).
      const known = spec.completes === undefined ? undefined : values[spec.completes];
      const args = spec.arguments
        .filter((a, i) => a.term.startsWith('<') || (i === 0 && known !== undefined))
        .map((a) => a.choices[0] ?? known ?? 'x');
      const argv = [...spec.path, ...args, '--agent'];
      const sent = f.mark();
      const r = await f.cpk(argv);
      // What the tree declares destructive destroys nothing without --yes: it previews, or refuses.
      if (spec.effect === 'destroy')
        expect(
          sent().filter((q) => q.method === 'DELETE'),
          argv.join(' '),
        ).toEqual([]);
      let document;
      try {
        document = documentOf(r.stdout);
      } catch {
        throw new Error(`cpk ${argv.join(' ')}: stdout is not one JSON document:\n${r.stdout}`);
      }
      expect(r.code, `cpk ${argv.join(' ')}: ${r.stdout}`).toBe(document.says);
      walked.push(argv.join(' '));
    }
    // The walk reached the leaves of every group, the destructive ones among them.
    expect(walked).toEqual(
      expect.arrayContaining([`monitors delete ${monitor} --agent`, `reports get ${report} --agent`, 'apply --agent']),
    );
  });
});

describe('a command that runs until it is stopped', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill('SIGKILL');
  });

  it("the shell's completion callback answers the shell, not an agent: candidate lines under a detected agent", async () => {
    // One HOME for the three runs: the ids offered are those this machine has seen.
    const env = baseEnv(f.env);
    const id = (await f.cpk(['monitors', 'create', '--name', 'completed', '-q'], { env })).stdout.trim();
    const r = await f.cpk(['__complete', 'monitor-ids', id], { env: { ...env, CLAUDECODE: '1' } });
    const person = await f.cpk(['__complete', 'monitor-ids', id], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(person.stdout);
    expect(r.stdout).toMatch(new RegExp(`^${id}\\b`));
  });

  // A real process: only a child can be signalled.
  it('Ctrl-C mid-request: one document saying so, exit 130', async () => {
    const path = '/v1/monitors/mon_sigint';
    f.emu.injectFault({ method: 'GET', path, kind: 'hang' });
    const r = await f.spawned(['monitors', 'get', 'mon_sigint', '--agent'], {
      onSpawn: (spawned) => {
        // The signal goes once the request has reached the server, so that it interrupts the wait for the answer.
        const poll = setInterval(() => {
          if (f.emu.requests.some((q) => q.path === path)) {
            clearInterval(poll);
            spawned.kill('SIGINT');
          }
        }, 20);
        spawned.once('exit', () => clearInterval(poll));
      },
    });
    expect(r.code).toBe(130);
    expect(r.stdout).toBe('{"error":"interrupted","status":null,"request_id":null,"exit_code":130}\n');
  });

  // A real process: the emulator serves until it is signalled, which only a child can be.
  it('the emulator under a detected agent says where it listens at once, as one JSON line, not at its end', async () => {
    const line = await new Promise<string>((resolve, reject) => {
      child = spawn(process.execPath, [BIN, 'emulator', '--port', '0', '-q'], {
        env: baseEnv({ CLAUDECODE: '1' }),
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout?.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        if (out.includes('\n')) resolve(out);
      });
      child.on('error', reject);
      child.on('close', (code) => reject(new Error(`the emulator ended (${code}) before printing a line: ${out}`)));
    });
    expect(JSON.parse(line)).toMatchObject({ base_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1$/) });
  });
});
