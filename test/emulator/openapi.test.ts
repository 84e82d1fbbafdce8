import { describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { call, useEmulator } from './helpers.js';

/** Collects every "$ref" string in a JSON value. */
function refs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refs(v, out));
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refs(v, out);
    }
  }
  return out;
}

function resolvePointer(doc: unknown, ref: string): unknown {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>(
      (node, part) => (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')],
      doc,
    );
}

describe('GET /v1/openapi.json', () => {
  const emu = useEmulator();

  it('is public and a valid OpenAPI 3.1 document', async () => {
    const res = await call(emu(), 'GET', 'openapi.json', { token: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{16}$/);
    const validator = new Validator();
    const result = await validator.validate(res.json);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(res.json.openapi).toBe('3.1.0');
  });

  it('ignores even a bad token', async () => {
    const res = await call(emu(), 'GET', 'openapi.json', { token: 'nope' });
    expect(res.status).toBe(200);
  });

  it('has only resolvable internal references', async () => {
    const doc = (await call(emu(), 'GET', 'openapi.json')).json;
    const all = refs(doc);
    expect(all.length).toBeGreaterThan(20);
    for (const ref of all) {
      expect(ref.startsWith('#/'), ref).toBe(true);
      expect(resolvePointer(doc, ref), ref).toBeDefined();
    }
  });

  it('describes every endpoint with its status codes and scope', async () => {
    const doc = (await call(emu(), 'GET', 'openapi.json')).json;
    expect(doc.servers[0].url).toBe(emu().baseUrl);
    const ops = (path: string, method: string) => doc.paths[path][method];
    // Beside each operation's own: what any request may get (malformed, too large headers, timed out, another
    // method of the path) and what faults answer by default or commonly.
    const always = ['400', '405', '408', '429', '431', '500', '502', '503'];
    const statuses = (path: string, method: string) => Object.keys(ops(path, method).responses).sort();
    const withAlways = (...own: string[]) => [...new Set([...own, ...always])].sort();
    expect(statuses('/monitors', 'post')).toEqual(withAlways('201', '401', '403', '413', '415', '422'));
    expect(statuses('/monitors/{id}', 'get')).toEqual(withAlways('200', '401', '403', '404'));
    expect(statuses('/monitors/{id}', 'patch')).toEqual(withAlways('200', '401', '403', '404', '413', '415', '422'));
    expect(statuses('/monitors/{id}', 'delete')).toEqual(withAlways('204', '401', '403', '404'));
    expect(statuses('/channels/{id}', 'patch')).toEqual(withAlways('200', '401', '403', '404', '413', '415', '422'));
    expect(statuses('/reports/{id}', 'get')).toEqual(withAlways('200', '401', '403', '404'));
    expect(statuses('/openapi.json', 'get')).toEqual(withAlways('200'));
    expect(ops('/openapi.json', 'get').security).toEqual([]);
    // Every other operation names the one scope it needs, read for GET and write otherwise, of its own resource.
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { tags?: string[] }>>)) {
      if (path === '/openapi.json') continue;
      const methods = Object.keys(item).filter((k) => ['get', 'post', 'put', 'patch', 'delete'].includes(k));
      // What 405's Allow header says is the document's own list of the path's operations.
      expect(item['x-allowed-methods'], path).toEqual(methods.map((m) => m.toUpperCase()));
      for (const method of methods) {
        const op = item[method] as { tags: string[]; security: unknown; 'x-required-scope': string };
        const scope = `${op.tags[0]}:${method === 'get' ? 'read' : 'write'}`;
        expect(op['x-required-scope'], `${method} ${path}`).toBe(scope);
        expect(op.security, `${method} ${path}`).toEqual([{ bearerAuth: [scope] }]);
      }
    }
  });

  it('documents the choices: tokens, states, bounds, faults', async () => {
    const doc = (await call(emu(), 'GET', 'openapi.json')).json;
    expect(doc['x-seeded-tokens'].map((t: { token: string }) => t.token)).toEqual([
      '<the development token, printed when the emulator starts>',
      'cpk_test_other',
      'cpk_test_readonly',
      'cpk_test_expired',
      'cpk_test_revoked',
      'cpk_test_suspended',
    ]);
    const monitor = doc.components.schemas.Monitor;
    expect(monitor['x-state-transitions'].map((t: { to: unknown }) => t.to)).toEqual([
      'pending',
      'paused',
      'up',
      'down',
      'paused',
      'pending',
      'pending',
      null,
    ]);
    expect(doc.components.schemas.MonitorStatus.enum).toEqual(['pending', 'up', 'down', 'paused']);
    expect(doc.components.schemas.MonitorType.enum).toEqual(['http', 'tcp', 'ping', 'dns']);
    const create = doc.components.schemas.MonitorCreate;
    expect(create.required).toEqual(['name']);
    expect(create.properties.interval_seconds).toMatchObject({ type: 'integer', minimum: 30, maximum: 86400 });
    expect(create.properties.name).toMatchObject({ minLength: 1, maxLength: 200 });
    expect(doc['x-emulator'].limits['max-body-bytes']).toBe(1048576);
    // The public document describes the service only: no admin route, no Fault, no admin scheme.
    expect(Object.keys(doc.paths).filter((p) => p.includes('__emulator'))).toEqual([]);
    expect(doc.components.schemas.Fault).toBeUndefined();
    expect(doc.components.securitySchemes.adminSecret).toBeUndefined();
    expect(JSON.stringify(doc)).not.toContain('queueFault');
    expect(doc.components.responses.Unauthorized['x-messages']).toContain('token expired');
    expect(doc.components.schemas.ChannelEvent.enum).toEqual(['down', 'up', 'paused', 'resumed']);
    expect(doc['x-evaluation-order']).toHaveLength(7);
  });

  it('the admin routes have their own document at /__emulator/openapi.json, under the admin secret', async () => {
    const res = await fetch(`${emu().url}/__emulator/openapi.json`, {
      headers: { 'x-emulator-admin': emu().adminSecret },
    });
    expect(res.status).toBe(200);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON document, read field by field
    const admin = (await res.json()) as any;
    const validator = new Validator();
    expect((await validator.validate(admin)).errors).toBeUndefined();
    expect(admin.servers[0].url).toBe(emu().url);
    expect(Object.keys(admin.paths)).toEqual([
      '/__emulator/openapi.json',
      '/__emulator/faults',
      '/__emulator/requests',
      '/__emulator/requests/count',
      '/__emulator/requests/find',
      '/__emulator/state',
      '/__emulator/outages',
      '/__emulator/checks',
    ]);
    expect(admin.paths['/__emulator/faults'].post.operationId).toBe('queueFault');
    expect(admin.components.schemas.Fault.properties.kind.enum).toEqual([
      'status',
      'html',
      'truncated',
      'stall',
      'reset',
      'hang',
      'redirect',
      'commit-reset',
    ]);
    expect(admin['x-fault-injection'].authentication).toContain('X-Emulator-Admin');
    // The other admin routes still need the secret.
    expect((await fetch(`${emu().url}/__emulator/faults`)).status).toBe(404);
  });

  it('marks the read-only fields of a monitor body readOnly, as generators and linters read them', async () => {
    const doc = (await call(emu(), 'GET', 'openapi.json')).json;
    for (const name of ['MonitorCreate', 'MonitorUpdate']) {
      const schema = doc.components.schemas[name];
      const readOnly = Object.keys(schema.properties).filter((field) => schema.properties[field].readOnly === true);
      expect(readOnly, name).toEqual(['id', 'status', 'created_at', 'updated_at', 'last_check', 'report_id']);
      // A "not: {anyOf: [{required: [id]}, ...]}" reads to redocly and Portman as a list of required fields.
      expect(schema.not, name).toBeUndefined();
    }
    // And the emulator still refuses them.
    const res = await call(emu(), 'POST', 'monitors', { body: { name: 'n', created_at: '2026-01-01T00:00:00Z' } });
    expect([res.status, res.json.error]).toEqual([422, 'created_at is read-only']);
  });

  it('answers 405 to other methods, without a token', async () => {
    const res = await call(emu(), 'POST', 'openapi.json', { token: null, body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(res.json).toEqual({
      error: 'method POST not allowed; allowed: GET',
      request_id: res.headers.get('x-request-id'),
    });
  });
});

describe('openapi.json and failRate', () => {
  const emu = useEmulator({ failRate: 1 });

  it('is exempt from failRate while API routes fail', async () => {
    expect((await call(emu(), 'GET', 'openapi.json')).status).toBe(200);
    const api = await call(emu(), 'GET', 'reports/rpt_summary');
    expect(api.status).toBe(503);
    expect(api.json).toEqual({
      error: 'service unavailable (simulated failure)',
      request_id: api.headers.get('x-request-id'),
    });
  });
});
