// Small loopback servers for the resilience tests: a forward proxy that
// records what it is asked (CONNECT tunnels and absolute-form requests), a
// TLS front for the emulator (certificate from test/fixtures/tls), and a
// plain recorder standing for "another origin".
import {
  createServer as createHttpServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type Server,
} from 'node:http';
import { connect, createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const TLS_DIR = resolve(import.meta.dirname, '../fixtures/tls');
export const CA_FILE = resolve(TLS_DIR, 'ca.pem');

/** A loopback port nothing listens on: bound by a server, then closed (a connection to it is refused). */
export async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  await new Promise<void>((ok) => server.close(() => ok()));
  return port;
}

export interface Seen {
  method: string;
  /** CONNECT: host:port; otherwise the absolute URL the client asked for. */
  target: string;
  headers: IncomingHttpHeaders;
}

export interface Running {
  url: string;
  port: number;
  close(): Promise<void>;
}

function track(server: Server | NetServer): () => Promise<void> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  server.on('secureConnection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  return () =>
    new Promise<void>((done) => {
      for (const s of sockets) s.destroy();
      server.close(() => done());
    });
}

async function listen(server: Server | NetServer): Promise<number> {
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return (server.address() as { port: number }).port;
}

/** A forward proxy on loopback. `refuseConnect` answers every CONNECT with that status instead of tunnelling. */
export async function startTestProxy(
  options: { refuseConnect?: number; connectPorts?: number[] } = {},
): Promise<Running & { seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createHttpServer((req, res) => {
    seen.push({ method: req.method ?? '', target: req.url ?? '', headers: req.headers });
    const upstream = httpRequest(req.url ?? '', { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    seen.push({ method: 'CONNECT', target: req.url ?? '', headers: req.headers });
    client.on('error', () => {});
    if (options.refuseConnect) {
      client.end(`HTTP/1.1 ${options.refuseConnect} Refused\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const [host, port] = (req.url ?? '').split(':');
    // Like squid's and tinyproxy's `ConnectPort 443`: tunnels to other ports refused.
    if (options.connectPorts && !options.connectPorts.includes(Number(port))) {
      client.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const upstream = connect(Number(port), host ?? '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
  });
  const close = track(server);
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, port, seen, close };
}

/** TLS on loopback in front of `targetPort` (the emulator), with the test CA's certificate. */
export async function startTlsFront(targetPort: number): Promise<Running> {
  const server = createTlsServer(
    { key: readFileSync(resolve(TLS_DIR, 'server-key.pem')), cert: readFileSync(resolve(TLS_DIR, 'server.pem')) },
    (socket) => {
      socket.on('error', () => {});
      const upstream = connect(targetPort, '127.0.0.1');
      upstream.on('error', () => socket.destroy());
      socket.pipe(upstream);
      upstream.pipe(socket);
    },
  );
  server.on('tlsClientError', () => {});
  const close = track(server);
  const port = await listen(server);
  return { url: `https://127.0.0.1:${port}`, port, close };
}

/** An HTTP server that records every request and answers 200 {}: "another origin". */
export async function startRecorder(): Promise<Running & { seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createHttpServer((req, res) => {
    seen.push({ method: req.method ?? '', target: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  const close = track(server);
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, port, seen, close };
}
