// Issue 12 items 14 and 15 through the built CLI with a real forward proxy on
// loopback (test/helpers/net.ts): like Debian's squid or tinyproxy with
// `ConnectPort 443`, it refuses CONNECT to any port but 443 and carries
// plain-http requests in absolute form. Runs on both transports (a proxy
// always selects undici; the undici run forces it everywhere).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { closedPort, startTestProxy } from '../helpers/net.js';
import { onEachTransport } from '../helpers/transports.js';

onEachTransport(() => {
  const f = useEmulator({}, { inProcess: true });
  let strict: Awaited<ReturnType<typeof startTestProxy>>;
  let auth: Awaited<ReturnType<typeof startTestProxy>>;
  let forbidden: Awaited<ReturnType<typeof startTestProxy>>;
  beforeAll(async () => {
    [strict, auth, forbidden] = await Promise.all([
      startTestProxy({ connectPorts: [443] }),
      startTestProxy({ refuseConnect: 407 }),
      startTestProxy({ refuseConnect: 403 }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([strict.close(), auth.close(), forbidden.close()]);
  });

  describe.concurrent('a real forward proxy', () => {
    it('an http:// target goes as a forward request, not a CONNECT tunnel (item 14)', async () => {
      const r = await f.cpk(['reports', 'get', 'rpt_summary', '--json'], { env: { HTTP_PROXY: strict.url } });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const mine = strict.seen.filter((s) => s.target.includes('/reports/rpt_summary'));
      expect(mine).toHaveLength(1);
      expect(mine[0]!.method).toBe('GET');
      expect(mine[0]!.target).toBe(`${f.emu.baseUrl}/reports/rpt_summary`);
      expect(strict.seen.filter((s) => s.method === 'CONNECT')).toEqual([]);
    });

    for (const [status, proxy] of [
      [407, () => auth],
      [403, () => forbidden],
    ] as const) {
      it(`the proxy's own ${status} to CONNECT is final, not retried, and reported as the proxy's (item 15)`, async () => {
        const p = proxy();
        const before = p.seen.length;
        const r = await f.cpk(['monitors', 'get', 'mon_proxy'], {
          env: { CPK_BASE_URL: 'https://127.0.0.1:9/v1', HTTPS_PROXY: p.url },
        });
        expect(r.code).toBe(3);
        expect(r.stderr).toBe(
          `cpk: cannot reach https://127.0.0.1:9 through the proxy: the proxy answered ${status} to the tunnel request; a proxy is set (HTTPS_PROXY=${p.url}): check it, or list the host in NO_PROXY\n`,
        );
        expect(p.seen.length - before).toBe(1);
      });
    }

    it('a refused proxy is reported as the proxy, not as the target (item 15)', async () => {
      const port = await closedPort();
      const r = await f.cpk(['monitors', 'get', 'mon_proxy', '--retries', '0'], {
        env: { CPK_BASE_URL: 'https://127.0.0.1:9/v1', HTTPS_PROXY: `http://127.0.0.1:${port}` },
      });
      expect(r.code).toBe(3);
      expect(r.stderr).toBe(
        `cpk: cannot reach https://127.0.0.1:9 through the proxy: the proxy http://127.0.0.1:${port} refused the connection (ECONNREFUSED); a proxy is set (HTTPS_PROXY=http://127.0.0.1:${port}): check it, or list the host in NO_PROXY\n`,
      );
    });

    it('an empty no_proxy= does not hide NO_PROXY (item 15)', async () => {
      const own = await startTestProxy();
      const r = await f.cpk(['reports', 'get', 'rpt_summary', '--json'], {
        env: { HTTP_PROXY: own.url, no_proxy: '', NO_PROXY: '127.0.0.1' },
      });
      await own.close();
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(own.seen).toEqual([]);
    });
  });
});
