// An independent, minimal implementation of the service's interface
// (../shared/service-interface.md), written apart from src/emulator/: the six
// endpoints, bearer tokens, errors as {error, request_id}, and nothing the
// interface leaves "not shown". By default it publishes no OpenAPI document
// (404), so it declares nothing: the path cpk takes against a real service
// that says nothing about lists. Loopback only, port 0.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

export interface ReferenceServer {
  baseUrl: string;
  token: string;
  monitors: Map<string, Record<string, unknown>>;
  requests: Array<{ method: string; path: string }>;
  close(): Promise<void>;
}

export async function startReferenceServer(options: { document?: unknown } = {}): Promise<ReferenceServer> {
  const token = 'cpk_reference_token_0001';
  const monitors = new Map<string, Record<string, unknown>>();
  const requests: ReferenceServer['requests'] = [];
  let next = 1;
  let rid = 1;
  const send = (res: ServerResponse, status: number, body?: unknown) => {
    const text = body === undefined ? '' : JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `ref_${rid}` });
    res.end(text);
  };
  const fail = (res: ServerResponse, status: number, error: string) =>
    send(res, status, { error, request_id: `ref_${rid}` });
  const readBody = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  };
  const server = createServer((req, res) => {
    rid++;
    const path = (req.url ?? '').split('?')[0] ?? '';
    requests.push({ method: req.method ?? '', path: req.url ?? '' });
    void (async () => {
      if (path === '/v1/openapi.json' && req.method === 'GET') {
        return options.document === undefined ? fail(res, 404, 'not found') : send(res, 200, options.document);
      }
      if (req.headers.authorization !== `Bearer ${token}`) return fail(res, 401, 'unauthorized');
      const m = /^\/v1\/(monitors|channels|reports)(?:\/([^/]+))?$/.exec(path);
      if (!m) return fail(res, 404, 'not found');
      const [, noun, id] = m;
      if (noun === 'monitors' && id === undefined && req.method === 'POST') {
        const body = await readBody(req);
        const monitor = { ...body, id: `ref_mon_${next++}`, status: 'pending' };
        monitors.set(monitor.id, monitor);
        return send(res, 201, monitor);
      }
      if (noun === 'monitors' && id !== undefined) {
        const monitor = monitors.get(decodeURIComponent(id));
        if (!monitor) return fail(res, 404, 'not found');
        if (req.method === 'GET') return send(res, 200, monitor);
        if (req.method === 'PATCH') {
          Object.assign(monitor, await readBody(req));
          return send(res, 200, monitor);
        }
        if (req.method === 'DELETE') {
          monitors.delete(monitor.id as string);
          return send(res, 204);
        }
      }
      if (noun === 'channels' && id !== undefined && req.method === 'PATCH') return send(res, 200, { ok: true });
      if (noun === 'reports' && id !== undefined && req.method === 'GET') return send(res, 200, { id, uptime: 1 });
      return fail(res, 405, 'method not allowed');
    })().catch(() => fail(res, 400, 'bad request'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    token,
    monitors,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A reference server for the tests of one describe block (started before
 * them, closed after): `ref.baseUrl`, `ref.token`... read the running one.
 */
export function useReferenceServer(options: { document?: unknown } = {}): ReferenceServer {
  let server: ReferenceServer | undefined;
  beforeAll(async () => {
    server = await startReferenceServer(options);
  });
  afterAll(async () => {
    await server?.close();
  });
  const running = (): ReferenceServer => {
    if (!server) throw new Error('the reference server is used outside its describe block');
    return server;
  };
  return {
    get baseUrl() {
      return running().baseUrl;
    },
    get token() {
      return running().token;
    },
    get monitors() {
      return running().monitors;
    },
    get requests() {
      return running().requests;
    },
    close: () => running().close(),
  };
}
