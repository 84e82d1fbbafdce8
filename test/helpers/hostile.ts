// A hostile server on loopback ("How to prove it"): each mode is a
// way a server or a proxy can misbehave. Used by test/e2e/hostile.test.ts,
// which runs on both transports, and test/cli/answers.test.ts, for what the
// transport only carries.
import { createServer as createNetServer, type Server, type Socket } from 'node:net';
import { afterAll, expect } from 'vitest';
import type { CliResult } from './cli.js';

/** The token the CLI is given against hostile servers: never to be printed. */
export const TOKEN = 'cpk_hostiletoken0123456789';

/** One line on stderr (plus an optional hint line starting with "hint:"), no stack, no token. */
export function expectCleanFailure(r: CliResult, code: number, line: RegExp) {
  expect(r.code).toBe(code);
  expect(r.stdout).toBe('');
  expect(r.stderr + r.stdout).not.toContain(TOKEN);
  expect(r.stderr).not.toMatch(/\n\s+at |unexpected error/);
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines[0]).toMatch(line);
  for (const extra of lines.slice(1)) expect(extra).toMatch(/^\s*hint: /);
}

export type HostileMode =
  /** Accepts the TCP connection and never sends a byte (also: a TLS handshake that never completes). */
  | { kind: 'silent' }
  /** Accepts the TCP connection and closes it at once, reading nothing (also: a TLS handshake cut short). */
  | { kind: 'hangup' }
  /** A proxy that reads the CONNECT (or any request) and never answers. */
  | { kind: 'silent-proxy' }
  /** Status line and headers, then one body byte every `everyMs`, forever. */
  | { kind: 'drip'; everyMs: number }
  /** A 200 body of `bytes` bytes of JSON-ish text, with or without Content-Length. */
  | { kind: 'huge'; bytes: number; length: boolean }
  /** 503 with this Retry-After value. */
  | { kind: 'retry-after'; value: string }
  /** 200 with exactly this JSON text (big numbers, deep nesting). */
  | { kind: 'raw'; body: string }
  /** A proxy that answers CONNECT with 200 and then says nothing (the TLS handshake inside never completes). */
  | { kind: 'tunnel-stall' }
  /** An interim `100 Continue` nobody asked for, then 201 with this JSON text. */
  | { kind: 'continue'; body: string };

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
    if (mode.kind === 'hangup') return void socket.destroy();
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
      case 'hangup':
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
      case 'tunnel-stall':
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        return;
      case 'continue': {
        socket.write('HTTP/1.1 100 Continue\r\n\r\n');
        const timer = setTimeout(
          () =>
            socket.end(
              `HTTP/1.1 201 Created\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(mode.body)}\r\nconnection: close\r\n\r\n${mode.body}`,
            ),
          50,
        );
        timers.add(timer);
        return;
      }
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

/**
 * How a keep-alive server ends its connections. It answers
 * every POST with a 201 and a monitor id, keeps the connection open with no
 * `Keep-Alive` hint and no `Connection: close`, and then:
 * - idleCloseMs: closes a connection idle that long after a response (as many servers do);
 * - closeEvery: closes a connection right after every Nth response on it;
 * - dieEvery: reads every Nth request in full, then closes without answering
 *   (the request reached the server: the client must not call it unsent).
 * Optional delayMs spreads the answers, so connections go idle for varied times;
 * announceSeconds adds a `Keep-Alive: timeout` header to every answer.
 */
export interface KeepAliveOptions {
  idleCloseMs?: number;
  closeEvery?: number;
  dieEvery?: number;
  delayMs?: number;
  /** Announce this idle timeout in a `Keep-Alive: timeout=N` header (seconds). */
  announceSeconds?: number;
}

export interface KeepAliveServer {
  url: string;
  /** TCP connections accepted so far. */
  connections: number;
  /** Names of the monitors in the POST bodies the server read in full, in order. */
  received: string[];
  /** Of those, the ones answered with a 201. */
  answered: string[];
  /** Requests that asked for their connection to be closed after the answer (`Connection: close`). */
  closeRequested: number;
  close(): Promise<void>;
}

export async function startKeepAliveServer(options: KeepAliveOptions): Promise<KeepAliveServer> {
  const sockets = new Set<Socket>();
  const state: KeepAliveServer = {
    url: '',
    connections: 0,
    received: [],
    answered: [],
    closeRequested: 0,
    close: async () => {},
  };
  let seen = 0;
  const server: Server = createNetServer((socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.once('close', () => sockets.delete(socket));
    let buffer = Buffer.alloc(0);
    let onThis = 0;
    let busy = false;
    // Once the server closes its side, it reads nothing more: what arrives after is never received.
    let closed = false;
    const hangUp = () => {
      closed = true;
      socket.end();
    };
    let idle: NodeJS.Timeout | undefined;
    const armIdle = () => {
      if (options.idleCloseMs === undefined) return;
      clearTimeout(idle);
      idle = setTimeout(hangUp, options.idleCloseMs);
    };
    socket.once('close', () => clearTimeout(idle));
    const next = () => {
      if (busy || closed) return;
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buffer.subarray(0, end).toString('latin1');
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
      if (buffer.length < end + 4 + length) return;
      const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8');
      buffer = buffer.subarray(end + 4 + length);
      clearTimeout(idle);
      if (head.startsWith('GET ')) {
        // The service's document (create --from reads it first): none here, and not a create to count.
        const text = JSON.stringify({ error: 'not found' });
        socket.write(
          `HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
        );
        armIdle();
        return next();
      }
      busy = true;
      seen++;
      onThis++;
      let name = '';
      try {
        name = String((JSON.parse(body) as { name?: unknown }).name ?? '');
      } catch {
        // not JSON: counted under ''
      }
      state.received.push(name);
      if (/\r\nconnection:\s*close/i.test(head)) state.closeRequested++;
      if (options.dieEvery !== undefined && seen % options.dieEvery === 0) return void socket.destroy();
      const respond = () => {
        if (socket.destroyed) return;
        const text = JSON.stringify({ id: `mon_${seen}_${state.answered.length}`, status: 'active', name });
        socket.write(
          `HTTP/1.1 201 Created\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\n${options.announceSeconds === undefined ? '' : `keep-alive: timeout=${options.announceSeconds}\r\n`}\r\n${text}`,
        );
        state.answered.push(name);
        busy = false;
        if (options.closeEvery !== undefined && onThis % options.closeEvery === 0) return hangUp();
        armIdle();
        next();
      };
      const delay = options.delayMs ? Math.floor(Math.random() * options.delayMs) : 0;
      if (delay > 0) setTimeout(respond, delay);
      else respond();
    };
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      next();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  state.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  state.close = () =>
    new Promise<void>((done) => {
      for (const s of sockets) s.destroy();
      server.close(() => done());
    });
  return state;
}

/** Starts hostile servers for a test file, each closed when the file ends. */
export function useHostile(): (mode: HostileMode) => Promise<Hostile> {
  const servers: Hostile[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });
  return async (mode) => {
    const s = await startHostile(mode);
    servers.push(s);
    return s;
  };
}
