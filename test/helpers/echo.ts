// A service that echoes the token it was sent: in 401, 403 and 500 error
// messages (the base URL's first segment picks the status: /s401/v1,
// /s403/v1, /s500/v1) and in its headers and 2xx bodies.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { CliResult } from './cli.js';

/** Tokens of several shapes: a cpk token, a short one, one with punctuation a JSON string escapes. */
export const TOKENS = ['cpk_echoedTokenValue_1234', 'cpk_sh0rt', 'cpk_q"u\\ote!tok'];

export function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  const server = createServer(handler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

export function portOf(server: Server): number {
  return (server.address() as AddressInfo).port;
}

/** The token a request carried (after "Bearer "). */
export function tokenOf(req: IncomingMessage): string {
  return (req.headers.authorization ?? '').replace(/^Bearer\s+/, '');
}

export function startEchoService(): Promise<Server> {
  return listen((req, res) => {
    const token = tokenOf(req);
    const url = req.url ?? '';
    const status = Number(/^\/s(\d{3})\//.exec(url)?.[1] ?? 200);
    const echo = { 'x-echoed-token': token, 'x-echoed-authorization': req.headers.authorization ?? '' };
    if (url.includes('/monitors/cpk-auth-probe') && status !== 200) {
      res.writeHead(status, { 'content-type': 'application/json', ...echo });
      res.end(JSON.stringify({ error: `token ${token} is not valid here (Bearer ${token})`, request_id: 'req_1' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', ...echo });
    res.end(
      JSON.stringify({
        id: 'mon_1',
        name: 'echo',
        description: `created with ${token}`,
        note: `Authorization: Bearer ${token}`,
        kept: 'cpk_monitor_named_like_a_token',
      }),
    );
  });
}

export function expectNoToken(r: CliResult, token: string) {
  const both = r.stdout + r.stderr;
  expect(both).not.toContain(token);
  // As a JSON string holds it (a quote or a backslash escaped).
  expect(both).not.toContain(JSON.stringify(token).slice(1, -1));
}
