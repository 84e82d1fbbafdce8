// A list that cannot reach the service fails as any request does (exit 3,
// the network error's line, nothing on stdout), with no cached copy of the
// service's document, as on a fresh CI runner: "no list declared" is only
// ever the service's own answer, and only then is the local inventory shown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server, type Socket } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCpk } from '../helpers/in-process.js';
import { closedPort } from '../helpers/net.js';
import { useReferenceServer } from '../helpers/reference-server.js';
import { onEachTransport } from '../helpers/transports.js';

onEachTransport(() => {
  const TOKEN = 'cpk_unreachable_test_0001';

  /** A loopback TCP server: `onConnection` decides what each connection gets. */
  async function tcpServer(onConnection: (socket: Socket) => void): Promise<{ port: number; close(): Promise<void> }> {
    const sockets = new Set<Socket>();
    const srv: Server = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.once('close', () => sockets.delete(socket));
      onConnection(socket);
    });
    await new Promise<void>((ok) => srv.listen(0, '127.0.0.1', ok));
    const { port } = srv.address() as { port: number };
    return {
      port,
      close: () =>
        new Promise<void>((ok) => {
          for (const s of sockets) s.destroy();
          srv.close(() => ok());
        }),
    };
  }

  let refused: string;
  let silent: { port: number; close(): Promise<void> };
  let plain: { port: number; close(): Promise<void> };

  beforeAll(async () => {
    refused = `http://127.0.0.1:${await closedPort()}/v1`;
    // Accepts and never answers: only cpk's --timeout ends the wait.
    silent = await tcpServer(() => {});
    // Speaks plain HTTP where cpk expects TLS: the handshake fails.
    plain = await tcpServer((socket) => socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n'));
  });
  afterAll(async () => {
    await Promise.all([silent?.close(), plain?.close()]);
  });

  const env = (base: string) => ({ CPK_BASE_URL: base, CPK_TOKEN: TOKEN });

  /** The one error line of a failed run: `cpk: ...`, or under --json / -o jsonl / --query the JSON error object. */
  function errorOf(r: { stderr: string; code: number | null }): string {
    expect(r.stderr.endsWith('\n') && r.stderr.indexOf('\n') === r.stderr.length - 1, r.stderr).toBe(true);
    if (!r.stderr.startsWith('{')) {
      expect(r.stderr).toMatch(/^cpk: /);
      return r.stderr.slice('cpk: '.length, -1);
    }
    const error = JSON.parse(r.stderr) as { error: string; exit_code: number };
    expect(error.exit_code).toBe(3);
    return error.error;
  }

  describe.concurrent('a list that cannot reach the service: exit 3, never an empty list', () => {
    const manifest = () => {
      const file = join(mkdtempSync(join(tmpdir(), 'cpk-unreachable-')), 'cpk.yaml');
      writeFileSync(file, 'monitors: {}\n');
      return file;
    };
    it.each([
      ['monitors list --json', ['monitors', 'list', '--json']],
      ["monitors list --query 'length(@)'", ['monitors', 'list', '--query', 'length(@)']],
      ['monitors list -o jsonl', ['monitors', 'list', '-o', 'jsonl']],
      ['channels list', ['channels', 'list']],
      ['reports list', ['reports', 'list']],
      ['import --all', ['import', '--all', '-f', '<manifest>']],
    ])('a refused port: %s', async (_name, args) => {
      const r = await runCpk(
        args.map((a) => (a === '<manifest>' ? manifest() : a)),
        { env: env(refused) },
      );
      expect(r.stdout).toBe('');
      expect(errorOf(r)).toMatch(/^cannot connect to http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\); check --base-url/);
      expect(r.code).toBe(3);
    });

    it('a TLS failure (plain TCP where https:// was asked for): exit 3', async () => {
      const r = await runCpk(['monitors', 'list'], { env: env(`https://127.0.0.1:${plain.port}/v1`) });
      expect(r.stdout).toBe('');
      // Which words the TLS failure gets depends on the transport (a protocol error, or a failed handshake).
      expect(errorOf(r)).toMatch(
        /^(?:cannot connect to https:\/\/127\.0\.0\.1:\d+ \(EPROTO\)|TLS error talking to https:\/\/127\.0\.0\.1:\d+: )/,
      );
      expect(r.code).toBe(3);
    });

    it('a service that accepts and never answers, with --timeout 1: exit 3 naming the document it waited for', async () => {
      const r = await runCpk(['monitors', 'list', '--json', '--timeout', '1', '--retries', '0'], {
        env: env(`http://127.0.0.1:${silent.port}/v1`),
      });
      expect(r.stdout).toBe('');
      expect(errorOf(r)).toMatch(
        /^GET http:\/\/127\.0\.0\.1:\d+\/v1\/openapi\.json timed out after 1s; raise --timeout or try again later$/,
      );
      expect(r.code).toBe(3);
    });
  });

  describe('a service that answers and declares no list', () => {
    const ref = useReferenceServer();
    it('monitors list shows the local record, saying so on stderr', async () => {
      const env = { CPK_BASE_URL: ref.baseUrl, CPK_TOKEN: ref.token };
      // One CLI home for both runs: the create records the monitor the list then shows.
      const home = mkdtempSync(join(tmpdir(), 'cpk-home-'));
      const dirs = { HOME: home, CPK_CONFIG_DIR: join(home, 'cfg'), CPK_DATA_DIR: join(home, 'data') };
      const created = await runCpk(['monitors', 'create', '--name', 'known here', '-q'], { env: { ...env, ...dirs } });
      expect(created.code, created.stderr).toBe(0);
      const id = created.stdout.trim();
      const r = await runCpk(['monitors', 'list', '--query', '[].id'], { env: { ...env, ...dirs } });
      expect(r.stderr).toBe(
        'the service offers no list of monitors: this is the 1 monitor known on this machine (created, fetched or applied here); --refresh checks each\n',
      );
      expect(JSON.parse(r.stdout)).toEqual([id]);
      expect(r.code).toBe(0);
    });
  });
});
