// Text in a CI log is data (docs/reliability-and-security.md): under GitHub
// Actions, no text that came from the service, a manifest or the person
// reaches stdout or stderr in a form the runner reads as a workflow command,
// whatever the command and format; cpk's own annotations stay. Each case runs
// with the hostile texts below and is checked by one reader of the runner's
// rules (test/helpers/workflow-commands.ts); without GITHUB_ACTIONS the same
// text is printed as it is.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { workflowCommandsIn } from '../helpers/workflow-commands.js';

const f = useEmulator({}, { inProcess: true });

/** Texts a hostile service, manifest or person could hold: the legacy form anywhere, the new form after a line break. */
// Named by what each tries, never by its text: a test's name is printed in the suite's own CI log, where the
// runner would obey it.
const HOSTILE: Array<[string, string]> = [
  ['a legacy warning inside a line', 'x ##[warning]forged'],
  ['a legacy stop-commands', '##[stop-commands]T'],
  ['a legacy add-mask', '##[add-mask]hidden'],
  ['a warning at the start of a second line', 'ok\n  ::warning::x'],
];

/** A YAML double-quoted scalar holding `text` exactly. */
const yamlString = (text: string) => JSON.stringify(text);

const ACTIONS = { GITHUB_ACTIONS: 'true' };

interface Case {
  name: string;
  /** The command's output under the given env, for a hostile text. */
  run: (hostile: string, env: Record<string, string>) => Promise<CliResult>;
  /** The exit code expected. */
  code: number | ((hostile: string) => number);
  /** cpk's own workflow commands expected under Actions (0 for none). */
  own: number;
}

async function monitorNamed(name: string): Promise<string> {
  return f.create({ name, type: 'http', target: 'https://shop.example.com/health', interval_seconds: 60 });
}

/** The service refuses the next create with this error text. */
function refuseCreate(message: string) {
  f.emu.injectFault({
    method: 'POST',
    path: '/v1/monitors',
    status: 422,
    body: JSON.stringify({ error: message, request_id: 'req_1' }),
    headers: { 'content-type': 'application/json' },
  });
}

function manifest(name: string): string {
  const d = mkdtempSync(join(tmpdir(), 'cpk-ci-log-'));
  const file = join(d, 'monitors.yaml');
  writeFileSync(
    file,
    `monitors:\n  checkout:\n    name: ${yamlString(name)}\n    target: https://shop.example.com/health\n    interval: 1m\n`,
  );
  return file;
}

const cases: Case[] = [
  {
    name: 'monitors create: the service error',
    code: 7,
    own: 0,
    run: (h, env) => {
      refuseCreate(h);
      return f.cpk(['monitors', 'create', '--name', 'n', '--target', 'https://a.example.com', '--interval', '1m'], {
        env,
      });
    },
  },
  {
    name: 'monitors create --json: the service error as JSON',
    code: 7,
    own: 0,
    run: (h, env) => {
      refuseCreate(h);
      return f.cpk(
        ['monitors', 'create', '--name', 'n', '--target', 'https://a.example.com', '--interval', '1m', '--json'],
        { env },
      );
    },
  },
  {
    name: "apply: a failed change's lines and its annotation",
    code: 7,
    own: 1,
    run: (h, env) => {
      refuseCreate(h);
      return f.cpk(['apply', '-f', manifest('plain'), '--yes'], { env });
    },
  },
  {
    name: "plan: the diff of a manifest's name",
    code: 10,
    own: 0,
    run: (h, env) => f.cpk(['plan', '-f', manifest(h)], { env }),
  },
  {
    name: "monitors get --assert: the verdict's value",
    code: 9,
    own: 1,
    run: async (h, env) => f.cpk(['monitors', 'get', await monitorNamed(h), '--assert', 'name == `"other"`'], { env }),
  },
  {
    name: "monitors wait: the timeout's last value",
    code: 8,
    own: 1,
    run: async (h, env) =>
      f.cpk(['monitors', 'wait', await monitorNamed(h), '--for', 'name=other', '--every', '1s', '--timeout', '1s'], {
        env,
      }),
  },
  {
    name: 'monitors get: the table off a terminal',
    code: 0,
    own: 0,
    run: async (h, env) => f.cpk(['monitors', 'get', await monitorNamed(h)], { env }),
  },
  {
    name: 'monitors list: rows off a terminal',
    code: 0,
    own: 0,
    run: async (h, env) => {
      await monitorNamed(h);
      return f.cpk(['monitors', 'list'], { env });
    },
  },
  {
    name: 'monitors get -o yaml',
    code: 0,
    own: 0,
    run: async (h, env) => f.cpk(['monitors', 'get', await monitorNamed(h), '-o', 'yaml'], { env }),
  },
  {
    name: 'monitors get --json',
    code: 0,
    own: 0,
    run: async (h, env) => f.cpk(['monitors', 'get', await monitorNamed(h), '--json'], { env }),
  },
  {
    name: 'monitors get --query name (a raw string)',
    code: 0,
    own: 0,
    run: async (h, env) => f.cpk(['monitors', 'get', await monitorNamed(h), '--query', 'name'], { env }),
  },
  {
    name: 'monitors get: an unknown id the person typed',
    // An id holding a line break is refused before any request.
    code: (h) => (h.includes('\n') ? 2 : 6),
    own: 0,
    run: (h, env) => f.cpk(['monitors', 'get', h], { env }),
  },
];

describe('under GitHub Actions, foreign text never makes a workflow command', () => {
  describe.each(cases)('$name', ({ run, code, own }) => {
    it.each(HOSTILE)('%s', async (_what, hostile) => {
      const r = await run(hostile, ACTIONS);
      expect(r.code).toBe(typeof code === 'number' ? code : code(hostile));
      const commands = workflowCommandsIn(`${r.stdout}\n${r.stderr}`);
      expect(commands).toHaveLength(own);
      // cpk's own: one annotation, on stderr, its text escaped.
      for (const line of commands)
        expect(line).toMatch(/^::error (?:file=[^,:]+,line=\d+,col=\d+,)?title=cpk [a-z ]+::/);
    });
  });

  it('the checker is not blind: without GITHUB_ACTIONS the same texts are printed as they are', async () => {
    refuseCreate('x ##[warning]forged');
    const error = await f.cpk([
      'monitors',
      'create',
      '--name',
      'n',
      '--target',
      'https://a.example.com',
      '--interval',
      '1m',
    ]);
    expect(error.stderr).toBe('cpk: x ##[warning]forged (request id: req_1)\n');
    expect(workflowCommandsIn(error.stderr)).toHaveLength(1);
    const id = await monitorNamed('ok\n::warning::x');
    const yaml = await f.cpk(['monitors', 'get', id, '--query', 'name']);
    expect(yaml.stdout).toBe('ok\n::warning::x\n');
    expect(workflowCommandsIn(yaml.stdout)).toHaveLength(1);
  });
});
