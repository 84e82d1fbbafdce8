// Issue #4 through the built CLI: retries that never duplicate, bounded
// waits, no leaks. Each test owns its own request path, so they run
// concurrently against one emulator without taking each other's faults.
import { beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { closedPort, startRecorder } from '../helpers/net.js';
import { startEmulator, type RecordedRequest } from '../../src/emulator/server.js';
import { runCli } from '../helpers/cli.js';
import { onEachTransport } from '../helpers/transports.js';

onEachTransport(() => {
  const f = useEmulator({}, { inProcess: true });
  const ids: string[] = [];

  /** The requests that reached the emulator for `path` (arrival order). */
  function arrivals(path: string, method = 'GET'): RecordedRequest[] {
    return f.emu.requests.filter((r) => r.path === path && r.method === method);
  }

  /** A monitor of its own for each test that needs one that exists. */
  function monitor(n: number): { id: string; path: string } {
    const id = ids[n];
    if (!id) throw new Error(`no monitor ${n}`);
    return { id, path: `/v1/monitors/${id}` };
  }

  beforeAll(async () => {
    for (let i = 0; i < 8; i++) {
      const res = await fetch(`${f.emu.baseUrl}/monitors`, {
        method: 'POST',
        headers: { authorization: `Bearer ${f.emu.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `resilience ${i}`, target: 'https://shop.example.com/health' }),
      });
      ids.push(((await res.json()) as { id: string }).id);
    }
  });

  describe.concurrent('retries', () => {
    it('503, 503, 200: success after 3 attempts', async () => {
      const { id, path } = monitor(0);
      f.emu.injectFault({ method: 'GET', path, status: 503, times: 2 });
      const r = await f.cpk(['monitors', 'get', id, '--json']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).id).toBe(id);
      expect(arrivals(path)).toHaveLength(3);
    });

    it('429 with Retry-After: 2: the second attempt comes no sooner than 2 s after the first', async () => {
      const { id, path } = monitor(1);
      f.emu.injectFault({ method: 'GET', path, status: 429, retryAfter: '2' });
      const r = await f.cpk(['monitors', 'get', id, '--json', '--debug']);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('waiting 2000ms before attempt 2');
      const [first, second] = arrivals(path);
      expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(2000);
    });

    it('a Retry-After over 30 s: exit 1 at once, saying when to retry', async () => {
      const { id, path } = monitor(2);
      f.emu.injectFault({ method: 'GET', path, status: 429, retryAfter: '120', times: 3 });
      const r = await f.cpk(['monitors', 'get', id]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        /^cpk: too many requests \(injected fault\); the server asks to retry after 120s \(at \d{4}-[\d-]+T[\d:.]+Z\), longer than cpk waits \(30s\): try again then \(request id: req_\w+\)\n$/,
      );
      expect(arrivals(path)).toHaveLength(1);
    });

    it('POST answered 503: exactly one POST reached the server, nothing created, exit 1', async () => {
      const before = f.emu.monitors().length;
      const posts = () => f.emu.requests.filter((q) => q.method === 'POST' && q.path === '/v1/monitors').length;
      const sentBefore = posts();
      // Once is enough: a retry would succeed, create a monitor and exit 0.
      f.emu.injectFault({ method: 'POST', path: '/v1/monitors', status: 503 });
      const r = await f.cpk(['monitors', 'create', '--name', 'only once']);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^cpk: service unavailable \(injected fault\) \(request id: req_\w+\)\n$/);
      expect(posts() - sentBefore).toBe(1);
      expect(f.emu.monitors().length).toBe(before);
    });

    it('--retries 0 and CPK_MAX_ATTEMPTS=2 set the attempts; the flag wins', async () => {
      const { id, path } = monitor(3);
      f.emu.injectFault({ method: 'GET', path, status: 503, times: 20 });
      const once = await f.cpk(['monitors', 'get', id, '--retries', '0']);
      expect(once.code).toBe(1);
      expect(arrivals(path)).toHaveLength(1);
      const twice = await f.cpk(['monitors', 'get', id], { env: { CPK_MAX_ATTEMPTS: '2' } });
      expect(twice.code).toBe(1);
      expect(arrivals(path)).toHaveLength(3);
      const flagWins = await f.cpk(['monitors', 'get', id, '--retries', '0'], { env: { CPK_MAX_ATTEMPTS: '5' } });
      expect(flagWins.code).toBe(1);
      expect(arrivals(path)).toHaveLength(4);
    });
  });

  describe.concurrent('bad answers', () => {
    it('an HTML 502 page: exit 1 naming 502 and text/html, nothing on stdout', async () => {
      const path = '/v1/reports/rpt_html';
      f.emu.injectFault({ method: 'GET', path, kind: 'html', times: 3 });
      const r = await f.cpk(['reports', 'get', 'rpt_html']);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        /^cpk: the server answered 502 with text\/html to GET http:\/\/127\.0\.0\.1:\d+\/v1\/reports\/rpt_html \(request id: req_\w+\)\n$/,
      );
      expect(arrivals(path)).toHaveLength(3);
    });

    it('truncated JSON: exit 1, empty stdout, naming status and content type', async () => {
      const { id, path } = monitor(5);
      f.emu.injectFault({ method: 'GET', path, kind: 'truncated', times: 3 });
      const r = await f.cpk(['monitors', 'get', id, '--json']);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(JSON.parse(r.stderr)).toEqual({
        error: expect.stringMatching(
          /^the response to GET \S+ was cut short \(status 200, application\/json, \d+ bytes received\)$/,
        ),
        status: 200,
        request_id: null,
        exit_code: 1,
      });
    });

    it('a body over 32 MiB: exit 1, empty stdout, naming status and content type', async () => {
      const path = '/v1/reports/rpt_huge';
      f.emu.injectFault({ method: 'GET', path, status: 200, body: `{"pad":"${'x'.repeat(32 * 1024 * 1024)}"}` });
      const r = await f.cpk(['reports', 'get', 'rpt_huge']);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        /^cpk: the response to GET \S+ \(status 200, application\/json\) is larger than 32 MiB, more than cpk accepts\n$/,
      );
      expect(arrivals(path)).toHaveLength(1);
    });

    it('a 307 to another origin is not followed: the token never arrives there', async () => {
      const elsewhere = await startRecorder();
      try {
        const { id, path } = monitor(6);
        const location = `${elsewhere.url}/v1/monitors/${id}`;
        f.emu.injectFault({ method: 'GET', path, kind: 'redirect', status: 307, location });
        const r = await f.cpk(['monitors', 'get', id]);
        expect(r.code).toBe(1);
        expect(r.stdout).toBe('');
        expect(r.stderr).toContain(
          `(307) to ${location}, another origin; cpk does not follow redirects and sent nothing there`,
        );
        expect(r.stderr).not.toContain(f.emu.token);
        expect(elsewhere.seen).toEqual([]);
      } finally {
        await elsewhere.close();
      }
    });
  });

  describe.concurrent('time bounds and signals', () => {
    it('a server that never answers, with --timeout 1: exit 3 after 3 attempts, within the bound', async () => {
      const path = '/v1/reports/rpt_hang';
      f.emu.injectFault({ method: 'GET', path, kind: 'hang', times: 3 });
      const started = Date.now();
      // Three attempts of 1 s and two backoff waits (at most 250 + 500 ms) take
      // about 4 s; the server holds an unbounded client forever. HANG only
      // catches that, far above what a busy machine adds.
      const HANG = 40_000;
      const res = await f.cpk(['reports', 'get', 'rpt_hang', '--timeout', '1'], { timeoutMs: HANG + 30_000 });
      const elapsed = Date.now() - started;
      expect(res.code).toBe(3);
      expect(res.stdout).toBe('');
      expect(res.stderr).toMatch(
        /^cpk: GET \S+\/v1\/reports\/rpt_hang timed out after 1s on each of 3 attempts \(\d+\.\ds in all\); raise --timeout or try again later\n$/,
      );
      expect(arrivals(path)).toHaveLength(3);
      // Each attempt waited its full second before giving up (a lower bound: not
      // flaky), and the whole command ended (an upper bound that only catches a hang).
      expect(elapsed).toBeGreaterThanOrEqual(3 * 1000);
      expect(elapsed).toBeLessThan(HANG);
    });

    it('a server that stalls mid-body, with --timeout 1: exit 3, the body bounded too', async () => {
      const path = '/v1/reports/rpt_stall';
      f.emu.injectFault({ method: 'GET', path, kind: 'stall' });
      // A process of its own: in-process, cpk's one-second timer would share this worker's event loop with the
      // emulator and the file's other cases, and on a loaded machine could fire before the headers are read.
      const r = await f.spawned(['reports', 'get', 'rpt_stall', '--timeout', '1', '--retries', '0']);
      expect(r.code).toBe(3);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/timed out after 1s \(status 200, application\/json arrived, then the body stalled\)/);
    });

    it('a POST that times out is sent once: exit 3, saying it may have been applied', async () => {
      // Its own emulator: other blocks of this file POST at the same time, and a
      // POST fault must not be taken by theirs.
      const emu = await startEmulator({ port: 0 });
      try {
        emu.injectFault({ method: 'POST', path: '/v1/monitors', kind: 'hang' });
        const r = await runCli(['monitors', 'create', '--name', 'slow create', '--timeout', '1'], {
          env: { CPK_BASE_URL: emu.baseUrl, CPK_TOKEN: emu.token },
        });
        expect(r.code).toBe(3);
        expect(r.stdout).toBe('');
        expect(r.stderr).toMatch(
          /^cpk: POST \S+\/v1\/monitors timed out after 1s; POST is not retried automatically, since it may have been applied: check before running it again\n$/,
        );
        expect(emu.requests.filter((q) => q.method === 'POST').length).toBe(1);
      } finally {
        await emu.close();
      }
    });

    it('a refused port: exit 3, for a POST too', async () => {
      const port = await closedPort();
      const r = await f.cpk(['monitors', 'create', '--name', 'x'], {
        env: { CPK_BASE_URL: `http://127.0.0.1:${port}` },
      });
      expect(r.code).toBe(3);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^cpk: cannot connect to http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\); check --base-url/);
    });

    it('SIGINT mid-request: exit 130, nothing on stdout or stderr', async () => {
      const path = '/v1/reports/rpt_sigint';
      f.emu.injectFault({ method: 'GET', path, kind: 'hang' });
      const r = await f.spawned(['reports', 'get', 'rpt_sigint'], {
        onSpawn: (child) => {
          const poll = setInterval(() => {
            if (arrivals(path).length > 0) {
              clearInterval(poll);
              child.kill('SIGINT');
            }
          }, 20);
          child.once('exit', () => clearInterval(poll));
        },
      });
      expect(r.code).toBe(130);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe('');
    });
  });

  describe.concurrent('secrets', () => {
    it('--debug shows the request, each attempt and wait, and never the token', async () => {
      const path = '/v1/reports/rpt_debug';
      f.emu.injectFault({ method: 'GET', path, status: 503 });
      f.emu.injectFault({ method: 'GET', path, status: 200, body: '{"id":"rpt_debug"}' });
      const r = await f.cpk(['reports', 'get', 'rpt_debug', '--debug']);
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/^> GET http:\/\/127\.0\.0\.1:\d+\/v1\/reports\/rpt_debug \(attempt 1\/3\)$/m);
      expect(r.stderr).toMatch(/^< 503 in \d+ms$/m);
      expect(r.stderr).toMatch(/^ {2}waiting \d+ms before attempt 2$/m);
      expect(r.stderr).toMatch(/^> GET \S+ \(attempt 2\/3\)$/m);
      expect(r.stderr).toContain('> authorization: Bearer [REDACTED]');
      expect(r.stdout + r.stderr).not.toContain(f.emu.token);
    });

    it('a server echoing the token in an error or a header does not get it printed', async () => {
      const path = '/v1/reports/rpt_echo';
      const token = f.emu.token;
      f.emu.injectFault({
        method: 'GET',
        path,
        status: 400,
        body: JSON.stringify({ error: `bad credentials: Bearer ${token}`, request_id: 'req_echo' }),
        headers: { 'X-Echo': `token=${token}` },
      });
      const r = await f.cpk(['reports', 'get', 'rpt_echo', '--debug']);
      expect(r.code).toBe(7);
      expect(r.stderr).toContain('cpk: bad credentials: Bearer [REDACTED] (request id: req_echo)');
      expect(r.stderr).toContain('< x-echo: token=cpk_[REDACTED]');
      expect(r.stdout + r.stderr).not.toContain(token);
    });
  });
});
