// Issue 12 through the built CLI against hostile loopback servers
// (test/helpers/hostile.ts). Each case runs on both transports (automatic,
// then CPK_TRANSPORT=undici: test/helpers/transports.ts). Every case
// asserts the exit code, one line on stderr without a stack, the token's
// absence. Time limits only catch a hang: a silent or dripping server holds
// an unbounded client forever, so HANG sits far above the one or two seconds
// a bounded attempt takes, and far below forever, and a busy machine cannot
// reach it.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectCleanFailure, TOKEN, useHostile } from '../helpers/hostile.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { runCpk } from '../helpers/in-process.js';
import { onEachTransport } from '../helpers/transports.js';

onEachTransport(() => {
  /** Far above any bounded run on a busy machine; the servers it guards against hold forever. */
  const HANG = 30_000;
  const hostile = useHostile();

  async function cpk(args: string[], env: Record<string, string>): Promise<CliResult & { ms: number }> {
    const started = performance.now();
    const r = await runCpk(args, { env: { CPK_TOKEN: TOKEN, ...env }, timeoutMs: 90_000 });
    return { ...r, ms: performance.now() - started };
  }

  describe.concurrent('hostile servers', () => {
    it('silence after accept: --timeout 1 bounds each of the 3 attempts', async () => {
      const s = await hostile({ kind: 'silent' });
      const r = await cpk(['monitors', 'get', 'mon_1', '--timeout', '1', '--retries', '0'], {
        CPK_BASE_URL: `${s.url}/v1`,
      });
      expectCleanFailure(r, 3, /timed out after 1s/);
      expect(r.ms).toBeLessThan(HANG);
    });

    it('a stalled TLS handshake: --timeout 1 bounds each attempt (item 2)', async () => {
      const s = await hostile({ kind: 'silent' });
      const r = await cpk(['monitors', 'get', 'mon_1', 'mon_2', '--timeout', '1', '--retries', '0'], {
        CPK_BASE_URL: `https://127.0.0.1:${s.port}/v1`,
      });
      expect(r.code).toBe(3);
      expect(r.stderr).not.toContain(TOKEN);
      expect(r.stderr).not.toMatch(/\n\s+at |unexpected error/);
      // No byte of a request leaves before the handshake: a connect failure, not "timed out".
      expect(r.stderr).toMatch(/cannot connect to https:\/\/127\.0\.0\.1:\d+ \(not connected within 1s\)/);
      expect(r.ms).toBeLessThan(HANG);
    });

    it('a POST whose connection never comes up (stalled handshake) certainly made nothing: not "may have been applied", and retried', async () => {
      const s = await hostile({ kind: 'silent' });
      const r = await cpk(['monitors', 'create', '--name', 'never sent', '--timeout', '1', '--retries', '1'], {
        CPK_BASE_URL: `https://127.0.0.1:${s.port}/v1`,
      });
      expectCleanFailure(r, 3, /^cpk: cannot connect to https:\/\/127\.0\.0\.1:\d+ \(not connected within 1s\)/);
      expect(r.stderr).not.toMatch(/may have been applied/);
      // A connect failure is retried whatever the method: two attempts, each a connection.
      expect(s.connections).toBe(2);
      expect(s.requests).toEqual([]);
      expect(r.ms).toBeLessThan(HANG);
    });

    it('apply: creates whose connection never comes up are not left uncertain (the next run creates them)', async () => {
      const s = await hostile({ kind: 'silent' });
      const dir = mkdtempSync(join(tmpdir(), 'cpk-hostile-apply-'));
      const file = join(dir, 'cpk.yaml');
      writeFileSync(file, 'monitors:\n  a:\n    name: A\n  b:\n    name: B\n');
      const r = await cpk(['apply', '--yes', '-f', file, '--timeout', '1', '--retries', '0', '--concurrency', '2'], {
        CPK_BASE_URL: `https://127.0.0.1:${s.port}/v1`,
      });
      expect(r.code).toBe(3);
      expect(r.stderr).not.toContain(TOKEN);
      expect(r.stderr).toMatch(/cannot connect to https:\/\/127\.0\.0\.1:\d+ \(not connected within 1s\)/);
      expect(r.stderr).not.toMatch(/uncertain|may have been applied/);
      expect(s.requests).toEqual([]);
      // Markers were written before the creates left, and taken back once they certainly made nothing.
      const state = JSON.parse(readFileSync(join(dir, 'cpk.state.json'), 'utf8')) as { monitors: object };
      expect(state.monitors).toEqual({});
      expect(existsSync(join(dir, 'cpk.state.json.journal'))).toBe(false);
    });

    it('a proxy silent after CONNECT: --timeout 1 bounds the wait for its answer (item 1)', async () => {
      const s = await hostile({ kind: 'silent-proxy' });
      const r = await cpk(['monitors', 'get', 'mon_1', '--timeout', '1', '--retries', '0'], {
        CPK_BASE_URL: 'https://127.0.0.1:9/v1',
        HTTPS_PROXY: s.url,
      });
      // The tunnel never came up, so no byte of the request left: a connect failure.
      expectCleanFailure(r, 3, /cannot connect to https:\/\/127\.0\.0\.1:9 \(not connected within 1s\)/);
      expect(r.ms).toBeLessThan(HANG);
    });

    it('a slow drip: --timeout 1 bounds the whole attempt, not each byte', async () => {
      const s = await hostile({ kind: 'drip', everyMs: 100 });
      const r = await cpk(['monitors', 'get', 'mon_1', '--timeout', '1', '--retries', '0'], {
        CPK_BASE_URL: `${s.url}/v1`,
      });
      expectCleanFailure(r, 3, /timed out after 1s \(status 200, .*arrived, then the body stalled\)/);
      expect(r.ms).toBeLessThan(HANG);
    });

    for (const length of [true, false]) {
      it(`a body over the cap ${length ? 'with' : 'without'} Content-Length is final, fetched once (item 5)`, async () => {
        const s = await hostile({ kind: 'huge', bytes: 33 * 1024 * 1024, length });
        const r = await cpk(['monitors', 'get', 'mon_1', '--timeout', '20'], { CPK_BASE_URL: `${s.url}/v1` });
        expectCleanFailure(r, 1, /is larger than 32 MiB, more than cpk accepts/);
        expect(s.requests).toHaveLength(1);
      });
    }

    it('Retry-After: 99999999999999999999 is a clear line and no wait', async () => {
      const s = await hostile({ kind: 'retry-after', value: '99999999999999999999' });
      const r = await cpk(['monitors', 'get', 'mon_1'], { CPK_BASE_URL: `${s.url}/v1` });
      expectCleanFailure(r, 1, /503.*retry after .*longer than cpk waits \(30s\)/);
      // One request: no wait and no retry (a wait would be cpk's cap, 30 s, and end past HANG).
      expect(s.requests).toHaveLength(1);
      expect(r.ms).toBeLessThan(HANG);
    });

    for (const value of ['-5', 'soon', '1.5', '']) {
      it(`Retry-After: "${value}" is ignored: backoff, then the 503 reported`, async () => {
        const s = await hostile({ kind: 'retry-after', value });
        const r = await cpk(['monitors', 'get', 'mon_1'], { CPK_BASE_URL: `${s.url}/v1` });
        expectCleanFailure(r, 1, /503/);
        expect(s.requests).toHaveLength(3);
        expect(r.ms).toBeLessThan(HANG);
      });
    }

    it('--max-time 1 bounds the whole command: three attempts of --timeout 5 give up after 1 s', async () => {
      const s = await hostile({ kind: 'silent' });
      const r = await cpk(['monitors', 'get', 'mon_1', '--timeout', '5', '--max-time', '1'], {
        CPK_BASE_URL: `${s.url}/v1`,
      });
      expectCleanFailure(
        r,
        3,
        /^cpk: GET .*\/v1\/monitors\/mon_1 gave up: --max-time 1s reached \(the last attempt timed out\); raise --max-time \(CPK_MAX_TIME\) or try again later$/,
      );
      expect(s.connections).toBe(1);
      expect(r.ms).toBeLessThan(HANG);
    });

    it('CPK_MAX_TIME=2: a Retry-After of 29 s is not waited for; the 503 is reported at once', async () => {
      // 29 s: the longest wait cpk would honour, so a client that waited would end far past 20 s.
      const s = await hostile({ kind: 'retry-after', value: '29' });
      const r = await cpk(['monitors', 'get', 'mon_1'], { CPK_BASE_URL: `${s.url}/v1`, CPK_MAX_TIME: '2' });
      expectCleanFailure(r, 1, /503.*no time left for another attempt within --max-time 2s/);
      expect(s.requests).toHaveLength(1);
      expect(r.ms).toBeLessThan(20_000);
    });
  });

  describe.concurrent('proxies, interim answers, --max-time and tokens (round three)', () => {
    /** The command, and how long its process lived on after its error line (the line comes at the bound). */
    async function lingering(args: string[], env: Record<string, string>) {
      let lineAt = 0;
      const r = await runCli(args, {
        env: { CPK_TOKEN: TOKEN, ...env },
        timeoutMs: 60_000,
        onSpawn: (child) => child.stderr!.once('data', () => (lineAt = performance.now())),
      });
      return { ...r, ms: 0, lingerMs: performance.now() - lineAt };
    }

    it('a proxy that answers CONNECT and then stalls: --timeout 1 bounds the TLS handshake inside the tunnel', async () => {
      const s = await hostile({ kind: 'tunnel-stall' });
      const r = await lingering(['monitors', 'get', 'mon_1', '--timeout', '1', '--retries', '0'], {
        CPK_BASE_URL: 'https://127.0.0.1:9/v1',
        HTTPS_PROXY: s.url,
      });
      expectCleanFailure(r, 3, /^cpk: cannot connect to https:\/\/127\.0\.0\.1:9 \(not connected within 1s\)/);
      expect(s.requests).toEqual(['CONNECT 127.0.0.1:9 HTTP/1.1']);
      // The process ends with its line: undici's own 10 s handshake timeout held it about 9 s longer.
      expect(r.lingerMs).toBeLessThan(7_000);
    });

    it('a proxy that answers CONNECT and then stalls: --max-time 1 ends the command, a create included', async () => {
      const s = await hostile({ kind: 'tunnel-stall' });
      const env = { CPK_BASE_URL: 'https://127.0.0.1:9/v1', HTTPS_PROXY: s.url };
      const [get, create] = await Promise.all([
        lingering(['monitors', 'get', 'mon_1', '--timeout', '5', '--max-time', '1'], env),
        lingering(['monitors', 'create', '--name', 'n', '--timeout', '5', '--max-time', '1'], env),
      ]);
      expectCleanFailure(get, 3, /^cpk: GET \S+ gave up: --max-time 1s reached \(the last attempt was not connected\)/);
      expectCleanFailure(
        create,
        3,
        /^cpk: POST \S+ gave up: --max-time 1s reached \(the last attempt was not connected\); raise --max-time/,
      );
      expect(create.stderr).not.toMatch(/may have been applied/);
      for (const r of [get, create]) expect(r.lingerMs).toBeLessThan(7_000);
    });

    for (const [name, value] of [
      ['HTTPS_PROXY', 'socks5://127.0.0.1:PORT'],
      ['HTTPS_PROXY', 'socks://u:secret@127.0.0.1:PORT'],
      ['HTTP_PROXY', 'socks4://127.0.0.1:PORT'],
    ] as const) {
      it(`${name}=${value.replace(/:\/\/.*@/, '://…@')}: a usage error naming the schemes cpk speaks; nothing is sent`, async () => {
        const s = await hostile({ kind: 'silent' });
        const r = await cpk(['monitors', 'get', 'mon_1', '--timeout', '1'], {
          CPK_BASE_URL: 'https://127.0.0.1:9/v1',
          [name]: value.replace('PORT', String(s.port)),
        });
        expectCleanFailure(
          r,
          2,
          new RegExp(`^cpk: ${name} uses socks[45]?://: cpk supports http:// and https:// proxies only`),
        );
        expect(r.stderr).not.toMatch(/ExperimentalWarning|secret/);
        expect(s.connections).toBe(0);
      });
    }

    it("an unsolicited 100 Continue before a create's 201: the final answer is read, the monitor reported created", async () => {
      const body = '{"id":"mon_1","name":"n","status":"active"}';
      const s = await hostile({ kind: 'continue', body });
      const r = await cpk(['monitors', 'create', '--name', 'n', '--json'], { CPK_BASE_URL: `${s.url}/v1` });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(JSON.parse(body));
      expect(s.requests).toEqual(['POST /v1/monitors HTTP/1.1']);
    });

    for (const method of ['GET', 'POST'] as const) {
      it(`--max-time cutting a ${method}'s last attempt while connecting says "gave up: --max-time", not a raw number`, async () => {
        // TCP accepted, the TLS handshake never answered: the attempt is still connecting when time runs out.
        const s = await hostile({ kind: 'silent' });
        const args =
          method === 'GET' ? ['monitors', 'get', 'mon_1'] : ['monitors', 'create', '--name', 'n', '--retries', '0'];
        const r = await cpk([...args, '--timeout', '5', '--max-time', '1.5'], {
          CPK_BASE_URL: `https://127.0.0.1:${s.port}/v1`,
        });
        expectCleanFailure(
          r,
          3,
          new RegExp(
            `^cpk: ${method} \\S+ gave up: --max-time 1\\.5s reached \\(the last attempt was not connected\\); raise --max-time`,
          ),
        );
        expect(r.stderr).not.toMatch(/\d\.\d{4,}|may have been applied/);
      });
    }
  });
});
