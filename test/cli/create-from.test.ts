// `monitors create --from`: every item is checked against the service's document before any is sent,
// and a run that did not create everything closes with the command that sends only what was not created.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useEmulator } from '../helpers/emulator.js';

const f = useEmulator({}, { inProcess: true });

function ndjsonFile(lines: object[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'cpk-from-')), 'monitors.ndjson');
  writeFileSync(file, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  return file;
}

const posts = (requests: Array<{ method: string; path: string; body: string }>) =>
  requests.filter((q) => q.method === 'POST' && q.path === '/v1/monitors').map((q) => JSON.parse(q.body) as object);

const named = (name: string) => f.emu.monitors().filter((m) => m.name === name);

/** The command a failed run's closing line prints after "not created: ", as argv (the paths here need no quoting). */
function suggested(stderr: string): string[] {
  const command = /not created: (cpk [^\n]*)\n$/.exec(stderr)?.[1];
  if (command === undefined) throw new Error(`no re-run in: ${stderr}`);
  return command.split(' ').slice(1);
}

describe('monitors create --from: checked before anything is sent', () => {
  it('a bound and an enum the document declares refuse the whole file, each named; nothing is sent', async () => {
    const file = ndjsonFile([
      { name: 'chk-good' },
      { name: 'chk-fast', interval_seconds: 10 },
      { name: 'chk-typo', type: 'htp' },
    ]);
    const sent = f.mark();
    const r = await f.cpk(['monitors', 'create', '--from', file]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const source = `--from file "${file}"`;
    expect(r.stderr).toBe(
      `cpk: ${source} line 2: interval_seconds must be at least 30\n` +
        `cpk: ${source} line 3: type must be one of http, tcp, ping, dns; did you mean "http"?\n` +
        `cpk: ${source} does not match what the service declares (2 problems); nothing was sent\n`,
    );
    expect(posts(sent())).toEqual([]);
    expect(named('chk-good')).toEqual([]);

    // --dry-run checks against the document cached by the run above, and prints no request.
    const dry = await f.cpk(['monitors', 'create', '--from', file, '--dry-run']);
    expect([dry.code, dry.stdout, dry.stderr]).toEqual([2, '', r.stderr]);
  });

  it('a field the document does not declare, where it accepts others, is sent as written', async () => {
    const file = ndjsonFile([{ name: 'extra-1', targte: 'kept as the service keeps extra fields' }]);
    const sent = f.mark();
    const r = await f.cpk(['monitors', 'create', '--from', file, '-q']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(posts(sent())).toEqual([{ name: 'extra-1', targte: 'kept as the service keeps extra fields' }]);
  });

  it('a JSON array names elements by index; --json puts every problem in the one error object', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cpk-from-')), 'monitors.json');
    writeFileSync(file, JSON.stringify([{ name: 'arr-ok' }, { name: 'arr-ro', status: 'up', paused: 'no' }]));
    const sent = f.mark();
    const r = await f.cpk(['monitors', 'create', '--from', file, '--json']);
    expect(r.code).toBe(2);
    const source = `--from file "${file}"`;
    expect(JSON.parse(r.stderr)).toEqual({
      error:
        `${source} does not match what the service declares (2 problems); nothing was sent: ` +
        `${source} element [1]: status is set by the service (read-only in its document); ` +
        `${source} element [1]: paused must be true or false`,
      status: null,
      request_id: null,
      exit_code: 2,
    });
    expect(posts(sent())).toEqual([]);
  });
});

describe('monitors create --from: what was not created, and how to send only that', () => {
  it('a line only the service refuses: the closing line is a re-run that creates only that line', async () => {
    const file = ndjsonFile([
      { name: 'svc-a' },
      { name: 'svc-b', type: 'http', target: 'db.example.com:5432' },
      { name: 'svc-c' },
    ]);
    const first = await f.cpk(['monitors', 'create', '--from', file, '--concurrency', '1', '-q']);
    expect(first.code).toBe(7);
    expect(first.stderr).toMatch(
      /^cpk: line 2: target must be an http:\/\/ or https:\/\/ URL for type http \(request id: req_\w+\)\n/,
    );
    expect(first.stderr.split('\n').at(-2)).toBe(
      `cpk: 1 of 3 monitors could not be created; to send only line 2, which was not created: cpk monitors create --from ${file} --only 2`,
    );
    // The user fixes line 2 in place and runs exactly what was printed.
    writeFileSync(
      file,
      [{ name: 'svc-a' }, { name: 'svc-b', type: 'http', target: 'https://b.example.com' }, { name: 'svc-c' }]
        .map((line) => JSON.stringify(line))
        .join('\n') + '\n',
    );
    const sent = f.mark();
    const again = await f.cpk(suggested(first.stderr));
    expect([again.code, again.stderr]).toEqual([0, '']);
    expect(posts(sent())).toEqual([{ name: 'svc-b', type: 'http', target: 'https://b.example.com' }]);
    expect(['svc-a', 'svc-b', 'svc-c'].map((name) => named(name).length)).toEqual([1, 1, 1]);
  });

  it('a create that may have been applied (connection reset after sending) is left out of the re-run, and said', async () => {
    const file = ndjsonFile([{ name: 'unk-1' }, { name: 'unk-2' }, { name: 'unk-3' }, { name: 'unk-4' }]);
    // In order, with one create at a time: line 1's connection is reset, line 2 is refused (400).
    f.emu.injectFault({ method: 'POST', path: '/v1/monitors', kind: 'reset' });
    f.emu.injectFault({ method: 'POST', path: '/v1/monitors', status: 400 });
    const first = await f.cpk(['monitors', 'create', '--from', file, '--concurrency', '1', '-q']);
    expect(first.code).toBe(3);
    const closing = first.stderr.split('\n').slice(-3, -1);
    expect(closing).toEqual([
      'cpk: line 1 may have been created (sent, and no answer said whether): left out of any re-run; look for it before sending it again with --only',
      `cpk: 2 of 4 monitors could not be created; to send only line 2, which was not created: cpk monitors create --from ${file} --only 2`,
    ]);
    const sent = f.mark();
    const again = await f.cpk(suggested(first.stderr));
    expect(again.code).toBe(0);
    expect(posts(sent())).toEqual([{ name: 'unk-2' }]);
    expect(['unk-2', 'unk-3', 'unk-4'].map((name) => named(name).length)).toEqual([1, 1, 1]);
  });

  it('Ctrl-C: the create in flight may have been applied; those never sent make the re-run', async () => {
    const file = ndjsonFile([{ name: 'int-1' }, { name: 'int-2' }, { name: 'int-3' }, { name: 'int-4' }]);
    f.emu.injectFault({ method: 'POST', path: '/v1/monitors', kind: 'hang' });
    const sent = f.mark();
    // One at a time: line 1's create hangs, and Ctrl-C comes once the emulator has it.
    const r = await f.spawned(['monitors', 'create', '--from', file, '--concurrency', '1', '-q'], {
      onSpawn: (child) => {
        const poll = setInterval(() => {
          if (posts(sent()).length > 0) {
            clearInterval(poll);
            child.kill('SIGINT');
          }
        }, 10);
        child.on('exit', () => clearInterval(poll));
      },
    });
    expect(r.code).toBe(130);
    expect(r.stderr.split('\n').slice(-3, -1)).toEqual([
      'cpk: line 1 may have been created (sent, and no answer said whether): left out of any re-run; look for it before sending it again with --only',
      `cpk: to send only lines 2-4, which were not created: cpk monitors create --from ${file} --only 2-4`,
    ]);
    expect(posts(sent())).toEqual([{ name: 'int-1' }]);
  });

  it('--only names what it sends: a number with no item behind it refuses the run', async () => {
    const file = ndjsonFile([{ name: 'only-1' }, { name: 'only-2' }]);
    const sent = f.mark();
    const r = await f.cpk(['monitors', 'create', '--from', file, '--only', '2-4']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`cpk: --only names line 3, where --from file "${file}" holds no item; nothing was sent\n`);
    const bad = await f.cpk(['monitors', 'create', '--from', file, '--only', '3-1']);
    expect(bad.stderr).toBe('cpk: --only takes line numbers or indexes and ranges, e.g. 2,5-7; not "3-1"\n');
    const alone = await f.cpk(['monitors', 'create', '--name', 'x', '--only', '1']);
    expect(alone.stderr).toBe('cpk: --only applies to --from only\n');
    expect(sent()).toEqual([]);
  });
});

describe("a create applied whose answer was lost (the emulator's commit-reset fault)", () => {
  it('--from: the line is said to be maybe created, and it was; the others are created, nothing twice', async () => {
    const file = ndjsonFile([{ name: 'lost-1' }, { name: 'lost-2' }, { name: 'lost-3' }]);
    f.emu.injectFault({ method: 'POST', path: '/v1/monitors', kind: 'commit-reset' });
    const sent = f.mark();
    const first = await f.cpk(['monitors', 'create', '--from', file, '--concurrency', '1', '-q']);
    const lost = `connection to ${f.emu.url} closed before a response (ECONNRESET); POST is not retried automatically, since it may have been applied: check before running it again`;
    expect([first.code, first.stderr]).toEqual([
      3,
      `cpk: line 1: ${lost}\n` +
        'cpk: line 1 may have been created (sent, and no answer said whether): left out of any re-run; look for it before sending it again with --only\n' +
        'cpk: 1 of 3 monitors could not be created\n',
    ]);
    expect(first.stdout.split('\n')).toEqual([named('lost-2')[0]?.id, named('lost-3')[0]?.id, '']);
    expect(posts(sent())).toEqual([{ name: 'lost-1' }, { name: 'lost-2' }, { name: 'lost-3' }]);
    expect(['lost-1', 'lost-2', 'lost-3'].map((name) => named(name).length)).toEqual([1, 1, 1]);
  });

  it('a single create: exit 3, the message says it may have been applied, and it was, once', async () => {
    f.emu.injectFault({ method: 'POST', path: '/v1/monitors', kind: 'commit-reset' });
    const sent = f.mark();
    const r = await f.cpk(['monitors', 'create', '--name', 'lost-single']);
    expect([r.code, r.stdout, r.stderr]).toEqual([
      3,
      '',
      `cpk: connection to ${f.emu.url} closed before a response (ECONNRESET); POST is not retried automatically, since it may have been applied: check before running it again\n`,
    ]);
    expect(posts(sent())).toEqual([{ name: 'lost-single' }]);
    expect(named('lost-single')).toHaveLength(1);
  });
});
