// A hostile server on loopback (issue 12, "How to prove it"): each mode is a
// way a server or a proxy can misbehave. Used by test/e2e/hostile.test.ts,
// which runs on both transports.
import { createServer as createNetServer, type Server, type Socket } from 'node:net';

export type HostileMode =
  /** Accepts the TCP connection and never sends a byte (also: a TLS handshake that never completes). */
  | { kind: 'silent' }
  /** A proxy that reads the CONNECT (or any request) and never answers. */
  | { kind: 'silent-proxy' }
  /** Status line and headers, then one body byte every `everyMs`, forever. */
  | { kind: 'drip'; everyMs: number }
  /** A 200 body of `bytes` bytes of JSON-ish text, with or without Content-Length. */
  | { kind: 'huge'; bytes: number; length: boolean }
  /** 503 with this Retry-After value. */
  | { kind: 'retry-after'; value: string }
  /** 200 with exactly this JSON text (big numbers, deep nesting). */
  | { kind: 'raw'; body: string };

export interface Hostile {
  url: string;
  port: number;
  /** TCP connections accepted so far. */
  connections: number;
  /** Requests (first lines) seen so far. */
  requests: string[];
  close(): Promise<void>;
}

export async function startHostile(mode: HostileMode): Promise<Hostile> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const state: Hostile = { url: '', port: 0, connections: 0, requests: [], close: async () => {} };
  const server: Server = createNetServer((socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.once('close', () => sockets.delete(socket));
    if (mode.kind === 'silent') return;
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onData);
      state.requests.push(head.slice(0, head.indexOf('\r\n')));
      answer(socket);
    };
    socket.on('data', onData);
  });

  function answer(socket: Socket) {
    switch (mode.kind) {
      case 'silent':
      case 'silent-proxy':
        return;
      case 'drip': {
        socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n{"a":"');
        const timer = setInterval(() => socket.write('x'), mode.everyMs);
        timers.add(timer);
        socket.once('close', () => clearInterval(timer));
        return;
      }
      case 'huge': {
        const chunk = Buffer.alloc(64 * 1024, 'x');
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${mode.length ? `content-length: ${mode.bytes}` : 'connection: close'}\r\n\r\n`,
        );
        let sent = 0;
        const pump = () => {
          while (sent < mode.bytes) {
            const n = Math.min(chunk.length, mode.bytes - sent);
            sent += n;
            if (!socket.write(n === chunk.length ? chunk : chunk.subarray(0, n)))
              return void socket.once('drain', pump);
          }
          socket.end();
        };
        pump();
        return;
      }
      case 'raw':
        socket.end(
          `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(mode.body)}\r\nconnection: close\r\n\r\n${mode.body}`,
        );
        return;
      case 'retry-after':
        socket.end(
          `HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: ${mode.value}\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}`,
        );
        return;
    }
  }

  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  state.port = (server.address() as { port: number }).port;
  state.url = `http://127.0.0.1:${state.port}`;
  state.close = () =>
    new Promise<void>((done) => {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
      server.close(() => done());
    });
  return state;
}
