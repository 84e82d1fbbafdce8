// Proxies and private CAs, all on loopback: a small forward proxy records what
// it is asked, and a TLS front with a test CA's certificate stands for a
// service behind a private CA. Node reads NODE_EXTRA_CA_CERTS only as a process
// starts, so the cases that give it run the built CLI; the others run in-process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { CA_FILE, startTestProxy, startTlsFront, type Running, type Seen } from '../helpers/net.js';
import { startHostile } from '../helpers/hostile.js';
import { onEachTransport } from '../helpers/transports.js';

onEachTransport(() => {
  const f = useEmulator({}, { inProcess: true });
  let proxy: Running & { seen: Seen[] };
  let refusing: Running & { seen: Seen[] };
  let tls: Running;
  let emuPort: number;

  beforeAll(async () => {
    emuPort = Number(new URL(f.emu.baseUrl).port);
    [proxy, refusing, tls] = await Promise.all([
      startTestProxy(),
      startTestProxy({ refuseConnect: 403 }),
      startTlsFront(emuPort),
    ]);
  });

  afterAll(async () => {
    await Promise.all([proxy?.close(), refusing?.close(), tls?.close()]);
  });

  /** What the proxy was asked about `target` (host:port) since `from`. */
  function asked(p: { seen: Seen[] }, target: string, from = 0): Seen[] {
    return p.seen.slice(from).filter((s) => s.target === target || s.target.startsWith(`http://${target}/`));
  }

  describe('proxies (undici EnvHttpProxyAgent)', () => {
    it('HTTP_PROXY: an http:// request goes through the proxy as a forward request (plain http, as curl -x)', async () => {
      const from = proxy.seen.length;
      const r = await f.cpk(['reports', 'get', 'rpt_summary', '--json'], { env: { HTTP_PROXY: proxy.url } });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).id).toBe('rpt_summary');
      // No CONNECT for http://: squid and tinyproxy refuse
      // tunnels to port 80; plain http was never private from the proxy anyway.
      const seen = asked(proxy, `127.0.0.1:${emuPort}`, from);
      expect(seen.map((s) => s.method)).toEqual(['GET']);
      expect(seen[0]!.target).toBe(`http://127.0.0.1:${emuPort}/v1/reports/rpt_summary`);
    });

    it('a loopback base URL is proxied too unless NO_PROXY names it; NO_PROXY matches host and port', async () => {
      const from = proxy.seen.length;
      const [byHost, byHostPort, otherPort, byName, all] = await Promise.all([
        f.cpk(['reports', 'get', 'rpt_summary'], { env: { HTTP_PROXY: proxy.url, NO_PROXY: 'example.com,127.0.0.1' } }),
        f.cpk(['reports', 'get', 'rpt_summary'], { env: { HTTP_PROXY: proxy.url, NO_PROXY: `127.0.0.1:${emuPort}` } }),
        f.cpk(['reports', 'get', 'rpt_summary'], { env: { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1:1' } }),
        // No name resolution: "localhost" does not cover 127.0.0.1.
        f.cpk(['reports', 'get', 'rpt_summary'], { env: { HTTP_PROXY: proxy.url, NO_PROXY: 'localhost' } }),
        f.cpk(['reports', 'get', 'rpt_summary'], { env: { HTTP_PROXY: proxy.url, no_proxy: '*' } }),
      ]);
      for (const r of [byHost, byHostPort, otherPort, byName, all]) expect(r.code).toBe(0);
      // Two of the five were proxied: the port that did not match, and "localhost".
      expect(asked(proxy, `127.0.0.1:${emuPort}`, from)).toHaveLength(2);
    });

    it('HTTPS_PROXY: an https:// request opens a CONNECT tunnel; the token stays inside TLS', async () => {
      const from = proxy.seen.length;
      const r = await f.spawned(['reports', 'get', 'rpt_summary', '--json'], {
        env: { CPK_BASE_URL: `${tls.url}/v1`, HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: CA_FILE },
      });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const seen = asked(proxy, `127.0.0.1:${tls.port}`, from);
      expect(seen.map((s) => s.method)).toEqual(['CONNECT']);
      expect(JSON.stringify(seen[0]!.headers)).not.toContain(f.emu.token);
    });

    it('a proxy that refuses the tunnel: exit 3, naming the proxy; nothing reached the server', async () => {
      const before = f.emu.requests.length;
      const r = await f.cpk(['monitors', 'create', '--name', 'via proxy', '--retries', '0'], {
        // The tunnel is refused before any TLS: no CA is needed.
        env: { CPK_BASE_URL: `${tls.url}/v1`, HTTPS_PROXY: refusing.url },
      });
      expect(r.code).toBe(3);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `cpk: cannot reach https://127.0.0.1:${tls.port} through the proxy: the proxy answered 403 to the tunnel request; ` +
          `a proxy is set (HTTPS_PROXY=${refusing.url}): check it, or list the host in NO_PROXY\n`,
      );
      expect(f.emu.requests.length).toBe(before);
    });
  });

  describe('private CAs (NODE_EXTRA_CA_CERTS)', () => {
    it('an unknown CA is a TLS error, exit 3, naming NODE_EXTRA_CA_CERTS; nothing is sent', async () => {
      const before = f.emu.requests.length;
      const r = await f.cpk(['reports', 'get', 'rpt_summary'], { env: { CPK_BASE_URL: `${tls.url}/v1` } });
      expect(r.code).toBe(3);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        /^cpk: TLS error talking to https:\/\/127\.0\.0\.1:\d+: .+; for a private CA, set NODE_EXTRA_CA_CERTS to its PEM file\n$/,
      );
      expect(f.emu.requests.length).toBe(before);
    });

    it('with the CA in NODE_EXTRA_CA_CERTS the same request succeeds', async () => {
      const r = await f.spawned(['reports', 'get', 'rpt_summary', '--json'], {
        env: { CPK_BASE_URL: `${tls.url}/v1`, NODE_EXTRA_CA_CERTS: CA_FILE },
      });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).id).toBe('rpt_summary');
    });
  });

  describe('interim answers through a proxy tunnel', () => {
    it('an unsolicited 100 Continue inside the tunnel: the create\'s 201 is read, not "may have been applied"', async () => {
      const body = '{"id":"mon_1","name":"n","status":"active"}';
      const origin = await startHostile({ kind: 'continue', body });
      const front = await startTlsFront(origin.port);
      try {
        const r = await f.spawned(['monitors', 'create', '--name', 'n', '--json'], {
          env: { CPK_BASE_URL: `${front.url}/v1`, HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: CA_FILE },
        });
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
        expect(JSON.parse(r.stdout)).toEqual(JSON.parse(body));
        expect(origin.requests).toEqual(['POST /v1/monitors HTTP/1.1']);
      } finally {
        await Promise.all([front.close(), origin.close()]);
      }
    });
  });
});
