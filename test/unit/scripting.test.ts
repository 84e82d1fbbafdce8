// The pure pieces of the scripting features: id lists, --from records, the
// `cpk api` path check, curl quoting, request descriptions, --query, the
// bulk pool and the progress count.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import fc from 'fast-check';
import { parseIdLines, readIdList } from '../../src/parse/ids.js';
import { parseConcurrency } from '../../src/parse/concurrency.js';
import { onlyText, parseOnly, parseRecords, selectRecords } from '../../src/parse/records.js';
import { resolveRawPath } from '../../src/core/http/raw-path.js';
import { shellQuote, toCurl } from '../../src/core/http/curl.js';
import { HttpClient } from '../../src/core/http/client.js';
import { compileQuery } from '../../src/output/query.js';
import { Output } from '../../src/output/output.js';
import { startProgress } from '../../src/output/progress.js';
import { mapPool } from '../../src/core/pool.js';
import { InterruptedError, UsageError } from '../../src/core/errors.js';
import type { IO } from '../../src/core/io.js';

const BASE = 'http://127.0.0.1:4010/v1';

describe('id lists', () => {
  it('skips blank lines and # comment lines, trims, keeps order', () => {
    expect(parseIdLines('# header\nmon_b\n\n  mon_a  \r\n#mon_skipped\nmon_c')).toEqual(['mon_b', 'mon_a', 'mon_c']);
  });

  it('refuses an invalid id on stdin naming its line', () => {
    expect(() => parseIdLines('mon_a\n..\n')).toThrow(/stdin line 2: invalid id "\.\."/);
  });

  it('reads what cpk prints: a JSON array of ids, JSON lines of objects with an id, JSON strings', () => {
    expect(parseIdLines('[\n  "mon_a",\n  "mon_b"\n]\n')).toEqual(['mon_a', 'mon_b']);
    expect(parseIdLines('[{"id":"mon_a","name":"x"},"mon_b"]')).toEqual(['mon_a', 'mon_b']);
    expect(parseIdLines('{"id":"mon_a","name":"a"}\n\n{"id":"mon_b"}\n"mon_c"\nmon_d\n')).toEqual([
      'mon_a',
      'mon_b',
      'mon_c',
      'mon_d',
    ]);
    expect(parseIdLines('[]')).toEqual([]);
  });

  it.each([
    ['[\n  "mon_a",\n  "mon_b"', /^stdin is not a JSON array of ids/],
    ['[1]', /^stdin item 1: it is number, not an id; nothing was sent$/],
    ['[null]', /^stdin item 1: it is null, not an id/],
    ['["mon_a", ".."]', /^stdin item 2: invalid id "\.\."/],
    ['mon_a\n"mon_b",\n', /^stdin line 2: ""mon_b"," is not an id \(give ids one per line/],
    ['{"name":"x"}', /^stdin line 1: "\{"name":"x"\}" is not an id/],
    ['mon_a\n]\n', /^stdin line 2: "\]" is not an id/],
    ['{"id":".."}', /^stdin line 1: invalid id "\.\."/],
  ])('refuses %j as ids, naming where', (text, message) => {
    expect(() => parseIdLines(text)).toThrow(UsageError);
    expect(() => parseIdLines(text)).toThrow(message);
  });

  it('reads 300,000 ids from stdin (far more than a call takes as arguments)', async () => {
    const many = Array.from({ length: 300_000 }, (_, i) => `mon_${i}`);
    const big = await readIdList(['-'], { stdin: Readable.from([many.join('\n')]) });
    expect(big.ids).toEqual(many);
  });

  it('expands - in place, once; one argument id is "single"', async () => {
    const list = await readIdList(['mon_1', '-', 'mon_9'], { stdin: Readable.from(['mon_2\nmon_3\n']) });
    expect(list).toEqual({ ids: ['mon_1', 'mon_2', 'mon_3', 'mon_9'], single: false });
    expect((await readIdList(['mon_1'], { stdin: Readable.from([]) })).single).toBe(true);
    expect((await readIdList(['-'], { stdin: Readable.from(['mon_1\n']) })).single).toBe(false);
    await expect(readIdList(['-', '-'], { stdin: Readable.from([]) })).rejects.toThrow(UsageError);
  });

  it.each([
    [undefined, 8],
    ['1', 1],
    ['64', 64],
  ])('--concurrency %s -> %d', (input, n) => expect(parseConcurrency(input)).toBe(n));

  it.each(['0', '65', '-1', '2.5', 'many', ''])('--concurrency %j is a usage error', (input) => {
    expect(() => parseConcurrency(input)).toThrow(UsageError);
  });
});

describe('--from records', () => {
  it('reads NDJSON with 1-based line numbers, blank lines counted', () => {
    const records = parseRecords('{"name":"a"}\n\n{"name":"b"}\n', 'f');
    expect(records.map((r) => [r.label, r.position, r.value])).toEqual([
      ['line 1', 1, { name: 'a' }],
      ['line 3', 3, { name: 'b' }],
    ]);
  });

  it('reads a JSON array with 0-based element indexes', () => {
    const records = parseRecords(' [{"name":"a"},\n{"name":"b"}]', 'f');
    expect(records.map((r) => [r.label, r.position])).toEqual([
      ['element [0]', 0],
      ['element [1]', 1],
    ]);
  });

  it.each([
    ['{"name":"a"}\n{oops\n', /f line 2 is not valid JSON/],
    ['{"name":"a"}\n[1]\n', /f line 2 is not a JSON object/],
    ['[{"name":"a"}, 3]', /f element \[1\] is not a JSON object/],
    ['[{"name":"a"}', /^f is not valid JSON \(line 1, column \d+\); nothing was sent$/],
  ])('refuses %j as a whole', (text, message) => {
    expect(() => parseRecords(text, 'f')).toThrow(message);
  });
});

describe('--only', () => {
  it.each([
    [[2], '2'],
    [[3, 1, 2, 2], '1-3'],
    [[1, 2, 5, 6, 7, 9], '1,2,5-7,9'],
  ])('writes %j as %s', (positions, text) => {
    expect(onlyText(positions)).toBe(text);
  });

  it('reads back every list it writes: the same items are selected', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 200 }), { minLength: 1 }), (positions) => {
        const records = Array.from({ length: 201 }, (_, i) => ({ label: `line ${i}`, position: i, value: {} }));
        const chosen = selectRecords(records, parseOnly(onlyText(positions)), 'f').map((r) => r.position);
        expect(chosen).toEqual([...positions].sort((a, b) => a - b));
      }),
    );
  });
});

describe('cpk api PATH', () => {
  it.each([
    ['/monitors/mon_1', '/monitors/mon_1'],
    ['monitors/mon_1', '/monitors/mon_1'],
    ['/v1/monitors/mon_1', '/monitors/mon_1'],
    ['/v1', ''],
    ['/v1x/y', '/v1x/y'],
    ['/monitors?x=1&y=a%20b', '/monitors?x=1&y=a%20b'],
    ['/monitors/a%2Fb', '/monitors/a%2Fb'],
    [`${BASE}/monitors/mon_1`, '/monitors/mon_1'],
    ['/monitors/caf\u00e9', '/monitors/caf%C3%A9'],
  ])('%s -> %s', (input, output) => {
    expect(resolveRawPath(BASE, input)).toBe(output);
  });

  it.each([
    'https://evil.example.com/v1/monitors',
    '//evil.example.com/v1/monitors',
    'http://127.0.0.1:4011/v1/monitors',
    'http://127.0.0.1:4010/__emulator/faults',
    'http://user:pw@127.0.0.1:4010/v1/monitors',
    '/monitors/../../__emulator/faults',
    '/..',
    '/monitors/%2e%2E/x',
    '/monitors/.%2e',
    '/monitors\\..\\x',
    '/monitors/a b',
    '/monitors#frag',
    '',
  ])('refuses %j', (input) => {
    expect(() => resolveRawPath(BASE, input)).toThrow(UsageError);
  });

  it('property: whatever is accepted stays under the base URL', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('/', '.', '%', '2', 'e', 'E', 'a', '?', ':', '\\', 'v', '1', '@') }),
        (input) => {
          let path: string;
          try {
            path = resolveRawPath(BASE, input);
          } catch (error) {
            expect(error).toBeInstanceOf(UsageError);
            return;
          }
          const url = new URL(BASE + (path.startsWith('/') || path === '' ? path : `/${path}`));
          expect(url.origin).toBe('http://127.0.0.1:4010');
          expect(url.pathname === '/v1' || url.pathname.startsWith('/v1/')).toBe(true);
        },
      ),
    );
  });
});

/** Runs `command` in a real bash where curl is a function printing its arguments one per line. */
function argvInBash(command: string, env: Record<string, string> = {}): string[] {
  const script = `curl() { printf '%s\\n' "$@"; }\n${command}\n`;
  const r = spawnSync('bash', ['-c', script], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' });
  expect(r.status).toBe(0);
  return r.stdout.split('\n').slice(0, -1);
}

describe('curl command lines', () => {
  it('property: shellQuote survives a real shell unchanged (one bash for 300 samples)', () => {
    const words = fc.sample(
      fc.string({ minLength: 1, unit: 'binary' }).filter((s) => !s.includes('\u0000') && !s.includes('\n')),
      300,
    );
    words.push(`it's`, '$HOME', '`id`', '"q"', '\\', '!x', '*', '~', '-X', '=a', 'a b');
    expect(argvInBash(`curl ${words.map(shellQuote).join(' ')}`)).toEqual(words);
  });

  it('describes the request without the token, and the printed command runs with $CPK_TOKEN', () => {
    const http = new HttpClient({
      baseUrl: BASE,
      token: 'cpk_secret_value_123',
      timeoutMs: 1000,
      userAgent: 'cpk/test',
      transport: () => Promise.reject(new Error('a description must not open a transport')),
    });
    const body = { name: `it's "quoted" $HOME \`x\``, n: 1 };
    const described = http.describe({ method: 'post', segments: ['monitors', 'a b'], body });
    expect(described).toEqual({
      method: 'POST',
      url: `${BASE}/monitors/a%20b`,
      headers: {
        accept: 'application/json',
        'user-agent': 'cpk/test',
        'content-type': 'application/json',
        authorization: 'Bearer $CPK_TOKEN',
      },
      body: JSON.stringify(body),
    });
    const line = toCurl(described);
    expect(line).not.toContain('cpk_secret_value_123');
    expect(argvInBash(line, { CPK_TOKEN: 'cpk_from_env' })).toEqual([
      '-X',
      'POST',
      `${BASE}/monitors/a%20b`,
      '-H',
      'Accept: application/json',
      '-H',
      'User-Agent: cpk/test',
      '-H',
      'Content-Type: application/json',
      '-H',
      'Authorization: Bearer cpk_from_env',
      '--data-raw',
      JSON.stringify(body),
    ]);
  });

  it('a GET has no -X and no body; an anonymous request no authorization', () => {
    const http = new HttpClient({
      baseUrl: BASE,
      timeoutMs: 1000,
      userAgent: 'ua',
      transport: () => Promise.reject(new Error('no')),
    });
    expect(toCurl(http.describe({ method: 'GET', segments: ['openapi.json'], auth: false }))).toBe(
      `curl ${BASE}/openapi.json -H 'Accept: application/json' -H 'User-Agent: ua'`,
    );
  });
});

describe('--query', () => {
  it('selects from objects and arrays', async () => {
    const q = await compileQuery('[].{id: id, up: status == `up`}');
    expect(
      q([
        { id: 'a', status: 'up' },
        { id: 'b', status: 'down' },
      ]),
    ).toEqual([
      { id: 'a', up: true },
      { id: 'b', up: false },
    ]);
  });

  it.each(['foo[', '', 'a ||', 'nosuch(@)', 'sort_by(@, &x).bogus_fn(@)'])(
    'refuses %j before anything is sent',
    async (expr) => {
      await expect(compileQuery(expr)).rejects.toThrow(UsageError);
    },
  );

  it('an expression that fails on the result is a usage error', async () => {
    const q = await compileQuery('length(@)');
    expect(() => q(5)).toThrow(UsageError);
  });
});

function fakeIO(options: { stdoutIsTTY?: boolean; stderr?: IO['stderr'] } = {}): IO & { out: string[] } {
  const out: string[] = [];
  return {
    out,
    stdout: { write: (chunk: string) => out.push(chunk) },
    stderr: options.stderr ?? { write: () => true },
    stdin: Readable.from([]),
    stdinIsTTY: false,
    stdoutIsTTY: options.stdoutIsTTY ?? false,
    stderrIsTTY: options.stderr !== undefined,
    env: {},
  };
}

describe('Output.printJson with --query', () => {
  it('prints a string raw, null and other values as JSON', async () => {
    const io = fakeIO();
    const out = new Output(io, { json: true, colorFlag: true, debug: false });
    out.query = await compileQuery('name');
    out.printJson({ name: 'a "b"' });
    out.printJson({});
    out.query = await compileQuery('tags');
    out.printJson({ tags: ['x'] });
    expect(io.out.join('')).toBe('a "b"\nnull\n[\n  "x"\n]\n');
  });

  it('sanitizes a raw string only when it goes to a terminal', async () => {
    const tty = fakeIO({ stdoutIsTTY: true });
    const piped = fakeIO();
    for (const io of [tty, piped]) {
      const out = new Output(io, { json: true, colorFlag: true, debug: false });
      out.query = await compileQuery('name');
      out.printJson({ name: 'x\u001b[2Jy' });
    }
    expect(tty.out.join('')).toBe('xy\n');
    expect(piped.out.join('')).toBe('x\u001b[2Jy\n');
  });
});

describe('mapPool', () => {
  it('keeps input order, never runs more than the limit at once, and goes on after a failure', async () => {
    let running = 0;
    let peak = 0;
    const items = Array.from({ length: 20 }, (_, i) => i);
    const outcomes = await mapPool(items, 3, async (n) => {
      running++;
      peak = Math.max(peak, running);
      // finish out of order: later items resolve sooner
      await new Promise((resolve) => setImmediate(resolve));
      if (n % 2 === 0) await new Promise((resolve) => setImmediate(resolve));
      running--;
      if (n === 5) throw new Error('five');
      return n * 10;
    });
    expect(peak).toBe(3);
    expect(outcomes.map((o) => (o?.ok ? o.value : 'x'))).toEqual(items.map((n) => (n === 5 ? 'x' : n * 10)));
  });

  it('starts nothing new once the signal aborts, and leaves interrupted items unsettled', async () => {
    const controller = new AbortController();
    const started: number[] = [];
    const outcomes = await mapPool(
      [0, 1, 2, 3, 4],
      2,
      async (n) => {
        started.push(n);
        if (n === 1) {
          controller.abort();
          throw new InterruptedError();
        }
        return n;
      },
      { signal: controller.signal },
    );
    expect(started).toEqual([0, 1]);
    expect(outcomes).toEqual([{ ok: true, value: 0 }, undefined, undefined, undefined, undefined]);
  });
});

describe('progress', () => {
  it('counts on a terminal', async () => {
    let text = '';
    const stream = Object.assign(
      new Writable({
        write(chunk, _enc, done) {
          text += String(chunk);
          done();
        },
      }),
      { isTTY: true, columns: 80, cursorTo: () => true, moveCursor: () => true, clearLine: () => true },
    );
    const out = new Output(fakeIO({ stderr: stream }), { json: false, colorFlag: true, debug: false });
    const progress = await startProgress(out, 'Deleting monitors', 3);
    progress.tick();
    progress.tick();
    progress.stop();
    expect(text).toContain('Deleting monitors 0/3');
    expect(text).toContain('Deleting monitors 2/3');
  });

  it('shows nothing off a terminal', async () => {
    const writes: string[] = [];
    const out = new Output(fakeIO(), { json: false, colorFlag: true, debug: false });
    out.io.stderr.write = (chunk: string) => writes.push(chunk);
    const progress = await startProgress(out, 'Deleting monitors', 3);
    progress.tick();
    progress.stop();
    expect(writes).toEqual([]);
  });
});

describe('monitors delete on a terminal', () => {
  async function runMain(args: string[], stdinText: string): Promise<{ code: number; stderr: string }> {
    const { main } = await import('../../src/cli/main.js');
    let stderr = '';
    const io: IO = {
      stdout: { write: () => true },
      stderr: { write: (chunk: string) => (stderr += chunk) },
      stdin: Readable.from([stdinText]),
      stdinIsTTY: true,
      stdoutIsTTY: false,
      stderrIsTTY: false,
      env: { CPK_BASE_URL: 'http://127.0.0.1:9/v1', CPK_TOKEN: 'cpk_unused' },
    };
    const code = await main(args, io, { handleSignals: false });
    return { code, stderr };
  }

  it('asks once for several ids, naming each; "y" sends nothing (exit 2): only "yes" deletes, and says which went', async () => {
    const { startEmulator } = await import('../../src/emulator/server.js');
    const emu = await startEmulator({ port: 0 });
    try {
      const ids: string[] = [];
      for (const name of ['Checkout API', 'Search']) {
        const created = await fetch(`${emu.baseUrl}/monitors`, {
          method: 'POST',
          headers: { authorization: `Bearer ${emu.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name }),
        });
        ids.push(((await created.json()) as { id: string }).id);
      }
      const { main } = await import('../../src/cli/main.js');
      let stderr = '';
      const io = (text: string): IO => ({
        stdout: { write: () => true },
        stderr: { write: (chunk: string) => (stderr += chunk) },
        stdin: Readable.from([text]),
        stdinIsTTY: true,
        stdoutIsTTY: false,
        stderrIsTTY: false,
        env: { CPK_BASE_URL: emu.baseUrl, CPK_TOKEN: emu.token, CPK_DATA_DIR: '/nonexistent/cpk' },
      });
      const named = `${ids[0]} "Checkout API", ${ids[1]} "Search"`;
      expect(await main(['monitors', 'delete', ...ids], io('y\n'), { handleSignals: false })).toBe(2);
      expect(stderr).toBe(
        `Delete 2 monitors (${named})? Type yes to confirm: cpk: delete cancelled; nothing was sent; only yes, typed in full, confirms deleting monitors\n`,
      );
      expect(emu.monitors()).toHaveLength(2);
      stderr = '';
      expect(await main(['monitors', 'delete', ...ids], io('yes\n'), { handleSignals: false })).toBe(0);
      expect(stderr).toBe(`Delete 2 monitors (${named})? Type yes to confirm: Deleted 2 monitors: ${named}.\n`);
      expect(emu.monitors()).toHaveLength(0);
    } finally {
      await emu.close();
    }
  });

  it('names one monitor by its name, from one GET first; a wrong id fails before the question', async () => {
    const { startEmulator } = await import('../../src/emulator/server.js');
    const emu = await startEmulator({ port: 0 });
    try {
      const env = { CPK_BASE_URL: emu.baseUrl, CPK_TOKEN: emu.token, CPK_DATA_DIR: '/nonexistent/cpk' };
      const created = await fetch(`${emu.baseUrl}/monitors`, {
        method: 'POST',
        headers: { authorization: `Bearer ${emu.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Checkout API' }),
      });
      const { id } = (await created.json()) as { id: string };
      const { main } = await import('../../src/cli/main.js');
      let stderr = '';
      const io = (text: string): IO => ({
        stdout: { write: () => true },
        stderr: { write: (chunk: string) => (stderr += chunk) },
        stdin: Readable.from([text]),
        stdinIsTTY: true,
        stdoutIsTTY: false,
        stderrIsTTY: false,
        env,
      });
      expect(await main(['monitors', 'delete', id], io('n\n'), { handleSignals: false })).toBe(2);
      expect(stderr).toBe(
        `Delete monitor ${id} "Checkout API"? Type yes to confirm: cpk: delete cancelled; nothing was sent; only yes, typed in full, confirms deleting monitors\n`,
      );
      stderr = '';
      expect(await main(['monitors', 'delete', 'mon_nothere'], io('y\n'), { handleSignals: false })).toBe(6);
      expect(stderr).toMatch(/^cpk: monitor not found: mon_nothere \(request id: req_\w+\)\n$/);
      expect(emu.monitors().map((m) => m.id)).toContain(id);
    } finally {
      await emu.close();
    }
  });

  it('needs --yes when the ids come from stdin, even on a terminal', async () => {
    const r = await runMain(['monitors', 'delete', '-'], 'mon_1\n');
    expect(r).toEqual({
      code: 2,
      stderr: 'cpk: ids from stdin (-) need --yes: stdin cannot also answer the confirmation; nothing was sent\n',
    });
  });
});
