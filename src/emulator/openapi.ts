// The OpenAPI 3.1 document served at GET /v1/openapi.json. The published
// interface leaves many things "not shown"; this document states the concrete
// choice the emulator makes for each of them (status codes, fields, bounds,
// states, scopes, seeded tokens, fault injection), in descriptions and x-
// extensions. Values come from model.ts, the same constants the code enforces.
import { FAULT_DEFAULTS, FAULT_KINDS } from './faults.js';
import {
  ADMIN_PREFIX,
  CHANNEL_EVENTS,
  CHANNEL_KINDS,
  CHANNEL_READ_ONLY_FIELDS,
  DEFAULT_INTERVAL,
  DEFAULT_MONITOR_TYPE,
  FLAKY_UPTIME,
  ID_ALPHABET,
  ID_LENGTH,
  INTERVAL_MAX,
  INTERVAL_MIN,
  LIST_LIMIT_DEFAULT,
  LIST_LIMIT_MAX,
  MAX_BODY_BYTES,
  MONITOR_READ_ONLY_FIELDS,
  MONITOR_STATUSES,
  MONITOR_TYPES,
  NAME_MAX_LENGTH,
  OPERATION_SCOPES,
  REPORT_PERIOD,
  SCOPES,
  SEEDED_CHANNELS,
  SEEDED_TOKENS,
  SUMMARY_REPORT_ID,
  TARGET_MAX_LENGTH,
  type OperationId,
} from './model.js';
import { monitorReportBody } from './reports.js';
import { CHANNEL_TARGET_RULE_DESCRIPTIONS, TARGET_RULE_DESCRIPTIONS } from './validation.js';

type Json = Record<string, unknown>;

const ref = (kind: string, name: string): Json => ({ $ref: `#/components/${kind}/${name}` });
const schemaRef = (name: string) => ref('schemas', name);
const responseRef = (name: string) => ref('responses', name);
const requestIdHeader = { 'X-Request-Id': ref('headers', 'XRequestId') };
const ID_CHARS = `[${ID_ALPHABET.replace('abcdefghijklmnopqrstuvwxyz', 'a-z')}]{${ID_LENGTH}}`;

function errorResponse(description: string, messages: string[], extraHeaders: Json = {}): Json {
  return {
    description,
    headers: { ...requestIdHeader, ...extraHeaders },
    content: {
      'application/json': {
        schema: schemaRef('Error'),
        examples: Object.fromEntries(
          messages.map((message, i) => [
            `e${i + 1}`,
            { summary: message, value: { error: message, request_id: 'req_0123456789abcdef' } },
          ]),
        ),
      },
    },
    'x-messages': messages,
  };
}

const SCOPE_DESCRIPTIONS: Record<string, string> = {
  'monitors:read': 'GET /monitors, GET /monitors/{id}',
  'channels:read': 'GET /channels',
  'monitors:write': 'POST /monitors, PATCH /monitors/{id}, DELETE /monitors/{id}',
  'channels:write': 'PATCH /channels/{id}',
  'reports:read': 'GET /reports, GET /reports/{id}',
};

/** Operation boilerplate: scope, the errors every authenticated operation can return. */
function operation(id: OperationId, summary: string, description: string, responses: Json, extra: Json = {}): Json {
  const scope = OPERATION_SCOPES[id];
  return {
    operationId: id,
    summary,
    description: `${description}\n\nRequires scope \`${scope}\`.`,
    security: [{ bearerAuth: [scope] }],
    'x-required-scope': scope,
    ...extra,
    responses: {
      ...responses,
      '401': responseRef('Unauthorized'),
      '403': responseRef('Forbidden'),
      '503': responseRef('ServiceUnavailable'),
    },
  };
}

/**
 * A list operation: cursor pagination declared twice, as plain OpenAPI (the
 * `cursor` and `limit` parameters, a `next_cursor` field in the page) and in
 * `x-pagination`, which a client can read without guessing.
 */
function listOperation(
  id: OperationId,
  summary: string,
  tag: string,
  itemSchema: string,
  example: Json,
  filters: Json[],
): Json {
  return operation(
    id,
    summary,
    `Pages of ${tag} ordered by id. Pass the previous page's next_cursor as cursor to get the next page; next_cursor is null on the last page. Unknown query parameters, a bad limit or a bad cursor answer 400.`,
    {
      '200': {
        description: 'One page.',
        headers: requestIdHeader,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['data', 'next_cursor'],
              properties: {
                data: { type: 'array', items: schemaRef(itemSchema) },
                next_cursor: { type: ['string', 'null'], description: 'cursor of the next page; null on the last one' },
              },
            },
            example: { data: [example], next_cursor: 'bW9uX2FiY2RlZmdoMjM0NQ' },
          },
        },
      },
      '400': responseRef('BadRequest'),
    },
    {
      tags: [tag],
      parameters: [
        {
          name: 'limit',
          in: 'query',
          required: false,
          description: 'Items per page.',
          schema: { type: 'integer', minimum: 1, maximum: LIST_LIMIT_MAX, default: LIST_LIMIT_DEFAULT },
        },
        {
          name: 'cursor',
          in: 'query',
          required: false,
          description: "The previous page's next_cursor.",
          schema: { type: 'string' },
        },
        ...filters,
      ],
      'x-pagination': {
        style: 'cursor',
        cursorParam: 'cursor',
        nextField: 'next_cursor',
        itemsField: 'data',
        limitParam: 'limit',
      },
    },
  );
}

function jsonBody(schema: string, example: Json): Json {
  return {
    required: true,
    description: `Content-Type must be application/json (or another +json type) whenever a body is sent (415 otherwise). At most ${MAX_BODY_BYTES} bytes (413 otherwise).`,
    content: { 'application/json': { schema: schemaRef(schema), example } },
  };
}

const monitorExample = {
  id: 'mon_abcdefgh2345',
  name: 'Homepage',
  type: 'http',
  target: 'https://example.com/health',
  interval_seconds: 60,
  paused: false,
  status: 'up',
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
  last_check: { status: 'up', latency_ms: 143, checked_at: '2025-01-01T00:00:01.000Z' },
  report_id: 'rpt_abcdefgh2345',
  team: 'web',
};

/** The example report: what the emulator answers for a flaky variant of monitorExample, computed by the same code. */
const reportExample = monitorReportBody(
  {
    ...monitorExample,
    target: 'https://flaky.example.com/health',
    last_check: { status: 'up', latency_ms: 143, checked_at: '2025-01-01T00:00:01.000Z' },
  },
  REPORT_PERIOD,
  '2025-01-01T00:05:00.000Z',
);

const STATE_TRANSITIONS = [
  { from: null, to: 'pending', on: 'POST /monitors without paused: true' },
  { from: null, to: 'paused', on: 'POST /monitors with paused: true' },
  { from: 'pending', to: 'up', on: 'GET /monitors/{id}: simulated check; the target host does not contain "down"' },
  {
    from: 'pending',
    to: 'down',
    on: 'GET /monitors/{id}: simulated check; the target host contains "down" (case-insensitive substring), or the monitor has no target',
  },
  { from: ['pending', 'up', 'down'], to: 'paused', on: 'PATCH /monitors/{id} with paused: true' },
  { from: 'paused', to: 'pending', on: 'PATCH /monitors/{id} with paused: false' },
  { from: ['up', 'down'], to: 'pending', on: 'PATCH /monitors/{id} changing target or type (last_check becomes null)' },
  { from: ['pending', 'up', 'down', 'paused'], to: null, on: 'DELETE /monitors/{id} (its report is deleted too)' },
];

const EVALUATION_ORDER = [
  'faults queued through the admin routes, then the random failRate failure (503), then the latencyMs delay; a faulted or failed request is recorded but never reaches the steps below or the store',
  'authentication: 401 (missing/malformed header, token without cpk_, unknown, revoked, expired), then 403 account suspended',
  'routing: unknown path under /v1 -> 404 "not found"; known path with another method -> 405 with Allow',
  'scope of the operation -> 403',
  'existence of the addressed monitor/channel/report in the caller\'s account -> 404 "<kind> not found"',
  `request body: over ${MAX_BODY_BYTES} bytes -> 413; non-empty body without a JSON Content-Type -> 415; empty, malformed or non-object JSON -> 400`,
  'field validation -> 422 with a message naming the first offending field',
];

function monitorProperties(): Json {
  return {
    name: {
      type: 'string',
      minLength: 1,
      maxLength: NAME_MAX_LENGTH,
      description: `Human label; must not be blank; at most ${NAME_MAX_LENGTH} characters.`,
    },
    type: { ...schemaRef('MonitorType') },
    target: {
      type: 'string',
      maxLength: TARGET_MAX_LENGTH,
      description:
        'What is checked. Optional for every type (absent -> null; a monitor without target checks as down). ' +
        'When present it must fit the type: ' +
        Object.values(TARGET_RULE_DESCRIPTIONS).join('; ') +
        '. Checks are simulated: the emulator never contacts the target.',
      'x-target-rules': {
        http: 'absolute URL with scheme http or https and a host',
        tcp: 'host:port or [ipv6]:port, port 1-65535',
        ping: 'hostname or IP address (no scheme, no port)',
        dns: 'hostname or IP address (no scheme, no port)',
      },
    },
    interval_seconds: {
      type: 'integer',
      minimum: INTERVAL_MIN,
      maximum: INTERVAL_MAX,
      description: `Seconds between checks; integer ${INTERVAL_MIN}..${INTERVAL_MAX}.`,
    },
    paused: {
      type: 'boolean',
      description: 'true pauses the monitor (status paused); false resumes it (status pending).',
    },
  };
}

const readOnlyGuard = { not: { anyOf: MONITOR_READ_ONLY_FIELDS.map((f) => ({ required: [f] })) } };

export function buildOpenApiDocument(baseUrl: string): Json {
  const seededTokens = [
    {
      token: '<the development token, printed when the emulator starts>',
      account: 'acct_dev',
      scopes: [...SCOPES],
      behaviour:
        "valid, all scopes; set with the emulator's --token option (the document never shows it, so a custom token stays private)",
    },
    ...SEEDED_TOKENS.map((t) => ({
      token: t.token,
      account: t.account,
      scopes: [...t.scopes],
      behaviour: t.behaviour,
    })),
  ];

  return {
    openapi: '3.1.0',
    info: {
      title: 'cpk monitoring service (local emulator)',
      version: '1.0.0',
      summary: 'Monitors, channels and reports over HTTPS+JSON, emulated locally.',
      description: [
        'Local emulator of the cpk monitoring service. The published interface leaves many details unspecified ("not shown");',
        'this document records the concrete choice the emulator makes for each of them. Notable choices:',
        '',
        '- Success codes: POST /monitors 201 (+ Location), GET/PATCH 200, DELETE 204 with no body. Invalid request: 400 for an unreadable body, 422 for invalid fields. Not found: 404.',
        '- Every response carries `X-Request-Id: req_<16 hex>`; every error body is `{"error": "<message>", "request_id": "req_..."}` with the same id.',
        "- Accounts are isolated: another account's monitor, channel or report is 404, never 403.",
        '- Monitors accept extra client fields (open object): they are stored and returned exactly as sent. Channels are closed: unknown fields are 422.',
        '- List operations (GET /monitors, /channels, /reports) page by cursor: `limit` (1-100, default 20) and `cursor` in the query; the page is `{"data": [...], "next_cursor": "..." | null}` (see x-pagination on each). There is no channel read by id or create: GET /channels/{id} is 405.',
        '- Checks are simulated from the target string; the emulator never makes an outbound request.',
        '- Paths are matched before percent-decoding; `{id}` is decoded once, so `/v1/monitors/a%2Fb` addresses the monitor "a/b" (404), never another route. Query strings are ignored. No trailing-slash or dot-segment normalisation.',
        '- See `x-evaluation-order`, `x-seeded-tokens`, `x-state-transitions` (on Monitor) and `x-emulator` for the rest.',
      ].join('\n'),
    },
    servers: [{ url: baseUrl, description: 'this emulator' }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'monitors', description: 'Checks on a target at an interval.' },
      { name: 'channels', description: 'Notification destinations; seeded per account, update only.' },
      { name: 'reports', description: 'Simulated 24h reports, one per monitor plus an account summary.' },
      { name: 'meta', description: 'This document.' },
    ],
    'x-evaluation-order': EVALUATION_ORDER,
    'x-seeded-tokens': seededTokens,
    'x-emulator': {
      accounts: [
        { id: 'acct_dev', suspended: false, note: "the development token's account" },
        { id: 'acct_other', suspended: false, note: 'for isolation tests (cpk_test_other)' },
        { id: 'acct_suspended', suspended: true, note: 'every request with its token answers 403 "account suspended"' },
      ],
      'seeded-channels': SEEDED_CHANNELS,
      'seeded-reports': [
        `${SUMMARY_REPORT_ID} in every account`,
        'rpt_<12 chars> for each monitor mon_<same 12 chars>',
      ],
      limits: {
        'max-body-bytes': MAX_BODY_BYTES,
        'name-max-length': NAME_MAX_LENGTH,
        'target-max-length': TARGET_MAX_LENGTH,
        'interval-seconds': { minimum: INTERVAL_MIN, maximum: INTERVAL_MAX, default: DEFAULT_INTERVAL },
        'rate-limit': 'none',
      },
      'token-lifetime':
        'tokens do not expire in the emulator except the seeded cpk_test_expired; there is no token-creation endpoint',
      'id-format': {
        monitor: `mon_${ID_CHARS}`,
        report: `rpt_${ID_CHARS} (same 12 characters as its monitor) or ${SUMMARY_REPORT_ID}`,
        request: 'req_[0-9a-f]{16}',
      },
      'latency-and-failures':
        'The emulator options latencyMs (delay before every API response) and failRate (probability of a 503 ' +
        '{"error": "service unavailable (simulated failure)"}, no Retry-After) apply to /v1 API routes, not to GET /v1/openapi.json.',
      'admin-document': `the emulator's own routes (fault injection, request log) are described apart, in ${ADMIN_PREFIX}/openapi.json: this document describes the service only`,
      'outside-v1': 'any path outside /v1 and /__emulator answers 404 "not found" without authentication',
    },
    paths: {
      '/openapi.json': {
        get: {
          operationId: 'getOpenApiDocument',
          tags: ['meta'],
          summary: 'This OpenAPI document',
          description:
            'Public: no token needed. Exempt from latencyMs and failRate. Other methods answer 405 (Allow: GET).',
          security: [],
          responses: {
            '200': {
              description: 'The OpenAPI 3.1 document.',
              headers: requestIdHeader,
              content: { 'application/json': { schema: { type: 'object' } } },
            },
          },
        },
      },
      '/monitors': {
        description: 'GET lists, POST creates: other methods answer 405 with Allow: GET, POST.',
        'x-allowed-methods': ['GET', 'POST'],
        get: listOperation('listMonitors', 'List monitors', 'monitors', 'Monitor', monitorExample, [
          {
            name: 'status',
            in: 'query',
            required: false,
            description: 'Only monitors in this state.',
            schema: { type: 'string', enum: [...MONITOR_STATUSES] },
          },
          {
            name: 'type',
            in: 'query',
            required: false,
            description: 'Only monitors of this type.',
            schema: { type: 'string', enum: [...MONITOR_TYPES] },
          },
        ]),
        post: operation(
          'createMonitor',
          'Create a monitor',
          "Creates a monitor in the token's account, status pending (paused when created with paused: true). Extra fields are stored and echoed as sent.",
          {
            '201': {
              description: 'Created: the full monitor.',
              headers: { ...requestIdHeader, Location: ref('headers', 'Location') },
              content: {
                'application/json': {
                  schema: schemaRef('Monitor'),
                  example: { ...monitorExample, status: 'pending', last_check: null },
                },
              },
            },
            '400': responseRef('BadRequest'),
            '413': responseRef('PayloadTooLarge'),
            '415': responseRef('UnsupportedMediaType'),
            '422': responseRef('UnprocessableMonitor'),
          },
          {
            tags: ['monitors'],
            requestBody: jsonBody('MonitorCreate', {
              name: 'Homepage',
              type: 'http',
              target: 'https://example.com/health',
              interval_seconds: 60,
              team: 'web',
            }),
          },
        ),
      },
      '/monitors/{id}': {
        parameters: [ref('parameters', 'MonitorId')],
        description: 'GET, PATCH and DELETE exist: other methods answer 405 with Allow: GET, PATCH, DELETE.',
        'x-allowed-methods': ['GET', 'PATCH', 'DELETE'],
        get: operation(
          'getMonitor',
          'Get a monitor',
          'Returns the full monitor. The first GET of a pending monitor runs the simulated check (see x-state-transitions on Monitor) and fills last_check.',
          {
            '200': {
              description: 'The monitor.',
              headers: requestIdHeader,
              content: { 'application/json': { schema: schemaRef('Monitor'), example: monitorExample } },
            },
            '404': responseRef('MonitorNotFound'),
          },
          { tags: ['monitors'] },
        ),
        patch: operation(
          'updateMonitor',
          'Update a monitor',
          'Partial update: name, type, target, interval_seconds, paused and any extra fields (extra fields are set or overwritten, never removed). ' +
            'Read-only fields are 422; an empty object is 422 "nothing to update". A new type is checked against the stored target and vice versa.',
          {
            '200': {
              description: 'Updated: the full monitor.',
              headers: requestIdHeader,
              content: { 'application/json': { schema: schemaRef('Monitor') } },
            },
            '400': responseRef('BadRequest'),
            '404': responseRef('MonitorNotFound'),
            '413': responseRef('PayloadTooLarge'),
            '415': responseRef('UnsupportedMediaType'),
            '422': responseRef('UnprocessableMonitor'),
          },
          { tags: ['monitors'], requestBody: jsonBody('MonitorUpdate', { paused: true }) },
        ),
        delete: operation(
          'deleteMonitor',
          'Delete a monitor',
          'Deletes the monitor and its report. A request body, if any, is ignored.',
          {
            '204': { description: 'Deleted: no body.', headers: requestIdHeader },
            '404': responseRef('MonitorNotFound'),
          },
          { tags: ['monitors'] },
        ),
      },
      '/channels': {
        description: 'Only GET exists (channels cannot be created): other methods answer 405 with Allow: GET.',
        'x-allowed-methods': ['GET'],
        get: listOperation('listChannels', 'List channels', 'channels', 'Channel', { ...SEEDED_CHANNELS[0] }, []),
      },
      '/channels/{id}': {
        parameters: [ref('parameters', 'ChannelId')],
        description:
          'Only PATCH exists (channels cannot be read, listed or created through the interface): other methods, GET included, answer 405 with Allow: PATCH.',
        'x-allowed-methods': ['PATCH'],
        patch: operation(
          'updateChannel',
          'Update a channel',
          'Updates name, enabled, target and/or events of a seeded channel (see the Channel schema). Unknown or read-only fields and an empty object are 422.',
          {
            '200': {
              description: 'Updated.',
              headers: requestIdHeader,
              content: { 'application/json': { schema: schemaRef('ChannelUpdateResult'), example: { ok: true } } },
            },
            '400': responseRef('BadRequest'),
            '404': responseRef('ChannelNotFound'),
            '413': responseRef('PayloadTooLarge'),
            '415': responseRef('UnsupportedMediaType'),
            '422': responseRef('UnprocessableChannel'),
          },
          { tags: ['channels'], requestBody: jsonBody('ChannelUpdate', { enabled: false }) },
        ),
      },
      '/reports': {
        description: 'Only GET exists: other methods answer 405 with Allow: GET.',
        'x-allowed-methods': ['GET'],
        get: listOperation('listReports', 'List reports', 'reports', 'MonitorReport', reportExample, []),
      },
      '/reports/{id}': {
        parameters: [ref('parameters', 'ReportId')],
        description: 'Only GET exists: other methods answer 405 with Allow: GET. There is no list operation.',
        'x-allowed-methods': ['GET'],
        get: operation(
          'getReport',
          'Get a report',
          `Returns a monitor's report (rpt_<same 12 chars as the monitor id>) or the account summary (${SUMMARY_REPORT_ID}). Figures are simulated and deterministic: see MonitorReport.`,
          {
            '200': {
              description: 'The report.',
              headers: requestIdHeader,
              content: {
                'application/json': {
                  schema: { oneOf: [schemaRef('MonitorReport'), schemaRef('SummaryReport')] },
                  example: reportExample,
                },
              },
            },
            '404': responseRef('ReportNotFound'),
          },
          { tags: ['reports'] },
        ),
      },
    },
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'cpk_<opaque>',
          description:
            'Authorization: Bearer <token>. The scheme name is case-insensitive; exactly one token follows. Tokens start with cpk_. ' +
            'Scopes (listed per operation in security and x-required-scope): ' +
            Object.entries(SCOPE_DESCRIPTIONS)
              .map(([s, ops]) => `${s} (${ops})`)
              .join('; ') +
            '. See x-seeded-tokens for the test tokens every emulator has.',
          'x-token-prefix': 'cpk_',
          'x-scopes': SCOPE_DESCRIPTIONS,
        },
      },
      parameters: {
        MonitorId: idParameter(
          `Monitor id, mon_${ID_CHARS}. Percent-decoded once; an id that does not exist in the caller's account (including any id with "/" after decoding) is 404.`,
        ),
        ChannelId: idParameter(
          `Channel id; every account has ${SEEDED_CHANNELS.map((c) => c.id).join(', ')}. Percent-decoded once.`,
        ),
        ReportId: idParameter(
          `Report id: rpt_${ID_CHARS} for a monitor, or ${SUMMARY_REPORT_ID}. Percent-decoded once.`,
        ),
      },
      headers: {
        XRequestId: {
          description: 'Present on every response; equals request_id in error bodies.',
          schema: { type: 'string', pattern: '^req_[0-9a-f]{16}$' },
        },
        Location: {
          description: 'Path of the created monitor, e.g. /v1/monitors/mon_abcdefgh2345.',
          schema: { type: 'string' },
        },
        Allow: { description: 'Methods the path supports.', schema: { type: 'string' } },
        WWWAuthenticate: {
          description:
            'Bearer challenge (RFC 6750): error="invalid_token" on 401, error="insufficient_scope" with scope on a missing-scope 403.',
          schema: { type: 'string' },
        },
      },
      responses: {
        BadRequest: errorResponse('The body is not a JSON object.', [
          'request body is empty; expected a JSON object',
          'malformed JSON body',
          'request body must be a JSON object',
        ]),
        Unauthorized: errorResponse(
          'The token is missing, malformed, unknown, revoked or expired.',
          [
            'missing Authorization header',
            "malformed Authorization header: expected 'Bearer <token>'",
            'malformed token: API tokens start with cpk_',
            'invalid token',
            'token revoked',
            'token expired',
          ],
          { 'WWW-Authenticate': ref('headers', 'WWWAuthenticate') },
        ),
        Forbidden: errorResponse("The account is suspended, or the token lacks the operation's scope.", [
          'account suspended',
          ...SCOPES.map((s) => `token lacks required scope ${s}`),
        ]),
        MonitorNotFound: errorResponse(
          "No such monitor in the caller's account (other accounts' monitors are 404 too).",
          ['monitor not found'],
        ),
        ChannelNotFound: errorResponse("No such channel in the caller's account.", ['channel not found']),
        ReportNotFound: errorResponse("No such report in the caller's account (a deleted monitor's report is gone).", [
          'report not found',
        ]),
        PayloadTooLarge: errorResponse(`The body exceeds ${MAX_BODY_BYTES} bytes.`, [
          `request body exceeds ${MAX_BODY_BYTES} bytes`,
        ]),
        UnsupportedMediaType: errorResponse('A non-empty body was sent without a JSON Content-Type.', [
          'Content-Type must be application/json',
        ]),
        UnprocessableMonitor: errorResponse('A field is invalid; the message names the first offending field.', [
          'name is required',
          'name must be a string',
          'name must not be empty',
          `name must be at most ${NAME_MAX_LENGTH} characters`,
          `type must be one of ${MONITOR_TYPES.join(', ')}`,
          'target must be a string',
          `target must be at most ${TARGET_MAX_LENGTH} characters`,
          ...Object.values(TARGET_RULE_DESCRIPTIONS),
          `interval_seconds must be an integer between ${INTERVAL_MIN} and ${INTERVAL_MAX}`,
          'paused must be a boolean',
          ...MONITOR_READ_ONLY_FIELDS.map((f) => `${f} is read-only`),
          'nothing to update',
        ]),
        UnprocessableChannel: errorResponse('A field is invalid, unknown or read-only; the message names it.', [
          'nothing to update',
          ...CHANNEL_READ_ONLY_FIELDS.map((f) => `${f} is read-only`),
          'unknown field: <name>',
          'name must be a string',
          'name must not be empty',
          `name must be at most ${NAME_MAX_LENGTH} characters`,
          'enabled must be a boolean',
          'target must be a string',
          ...Object.values(CHANNEL_TARGET_RULE_DESCRIPTIONS),
          `events must be an array of distinct values from: ${CHANNEL_EVENTS.join(', ')}`,
        ]),
        ServiceUnavailable: errorResponse("Simulated outage: the emulator's failRate option, or an injected fault.", [
          'service unavailable (simulated failure)',
          'service unavailable (injected fault)',
        ]),
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: { type: 'string', description: 'Human-readable message (see x-messages of each response).' },
            request_id: {
              type: 'string',
              pattern: '^req_[0-9a-f]{16}$',
              description: 'Always present in the emulator; equals the X-Request-Id header.',
            },
          },
        },
        MonitorType: {
          type: 'string',
          enum: [...MONITOR_TYPES],
          default: DEFAULT_MONITOR_TYPE,
          description: `Kind of check; default ${DEFAULT_MONITOR_TYPE}.`,
        },
        MonitorStatus: {
          type: 'string',
          enum: [...MONITOR_STATUSES],
          description:
            'pending: not checked yet; up / down: result of the simulated check; paused: not checked while paused.',
        },
        LastCheck: {
          type: ['object', 'null'],
          required: ['status', 'latency_ms', 'checked_at'],
          properties: {
            status: { type: 'string', enum: ['up', 'down'] },
            latency_ms: {
              type: ['integer', 'null'],
              description: 'Simulated, stable per monitor and target (20-299); null when down.',
            },
            checked_at: { type: 'string', format: 'date-time' },
          },
          description:
            'Result of the latest simulated check; null until the first check and after target/type changes.',
        },
        Monitor: {
          type: 'object',
          required: [
            'id',
            'name',
            'type',
            'target',
            'interval_seconds',
            'paused',
            'status',
            'created_at',
            'updated_at',
            'last_check',
            'report_id',
          ],
          properties: {
            id: { type: 'string', pattern: `^mon_${ID_CHARS}$`, readOnly: true },
            ...monitorProperties(),
            target: { type: ['string', 'null'], description: 'The target, or null when none was given.' },
            status: schemaRef('MonitorStatus'),
            created_at: { type: 'string', format: 'date-time', readOnly: true },
            updated_at: {
              type: 'string',
              format: 'date-time',
              readOnly: true,
              description: 'Changes on PATCH only (not on simulated checks).',
            },
            last_check: schemaRef('LastCheck'),
            report_id: { type: 'string', pattern: `^rpt_${ID_CHARS}$`, readOnly: true },
          },
          additionalProperties: true,
          description:
            'A monitor. Extra fields sent by the client (any JSON type) follow the known fields, stored and returned exactly as sent.',
          'x-state-transitions': STATE_TRANSITIONS,
          'x-simulated-check':
            'Deterministic and offline: status up unless the target\'s host contains "down" (case-insensitive substring) or there is no target. ' +
            'Run once when a pending monitor is read with GET /monitors/{id}.',
        },
        MonitorCreate: {
          type: 'object',
          required: ['name'],
          properties: monitorProperties(),
          additionalProperties: true,
          ...readOnlyGuard,
          description: `Defaults: type ${DEFAULT_MONITOR_TYPE}, target null, interval_seconds ${DEFAULT_INTERVAL}, paused false. Read-only fields (${MONITOR_READ_ONLY_FIELDS.join(', ')}) are 422. Other extra fields are kept.`,
          'x-read-only-fields': [...MONITOR_READ_ONLY_FIELDS],
        },
        MonitorUpdate: {
          type: 'object',
          properties: monitorProperties(),
          minProperties: 1,
          additionalProperties: true,
          ...readOnlyGuard,
          description:
            'Partial update; same rules as MonitorCreate, nothing required, but at least one field ("nothing to update" otherwise).',
          'x-read-only-fields': [...MONITOR_READ_ONLY_FIELDS],
        },
        ChannelKind: { type: 'string', enum: [...CHANNEL_KINDS] },
        ChannelEvent: {
          type: 'string',
          enum: [...CHANNEL_EVENTS],
          description: 'down/up: a monitor changed to that status; paused/resumed: a monitor was paused or resumed.',
        },
        Channel: {
          type: 'object',
          required: ['id', 'name', 'kind', 'enabled', 'target', 'events'],
          properties: {
            id: { type: 'string', readOnly: true },
            name: { type: 'string', minLength: 1, maxLength: NAME_MAX_LENGTH },
            kind: { ...schemaRef('ChannelKind'), readOnly: true },
            enabled: { type: 'boolean' },
            target: { type: 'string', maxLength: TARGET_MAX_LENGTH },
            events: { type: 'array', items: schemaRef('ChannelEvent'), uniqueItems: true },
          },
          additionalProperties: false,
          description:
            'A notification channel. Not readable through the interface (there is no GET); documented because PATCH updates these fields. Every account is seeded with x-seeded.',
          'x-seeded': SEEDED_CHANNELS,
        },
        ChannelUpdate: {
          type: 'object',
          properties: {
            name: { type: 'string', minLength: 1, maxLength: NAME_MAX_LENGTH },
            enabled: { type: 'boolean' },
            target: {
              type: 'string',
              maxLength: TARGET_MAX_LENGTH,
              description: Object.values(CHANNEL_TARGET_RULE_DESCRIPTIONS).join('; '),
            },
            events: {
              type: 'array',
              items: schemaRef('ChannelEvent'),
              uniqueItems: true,
              description: 'Replaces the list; may be empty.',
            },
          },
          minProperties: 1,
          additionalProperties: false,
          description:
            'Partial update of a channel: id and kind are read-only, any other field is unknown; both are 422.',
        },
        ChannelUpdateResult: { type: 'object', required: ['ok'], properties: { ok: { type: 'boolean', const: true } } },
        MonitorReport: {
          type: 'object',
          required: [
            'id',
            'monitor_id',
            'period',
            'period_start',
            'period_end',
            'uptime_percent',
            'checks',
            'failures',
            'avg_latency_ms',
            'latency_percentiles_ms',
            'monitor_status',
            'generated_at',
            'hourly',
            'incidents',
          ],
          properties: {
            id: { type: 'string', pattern: `^rpt_${ID_CHARS}$` },
            monitor_id: { type: 'string' },
            period: { type: 'string', const: REPORT_PERIOD },
            period_start: {
              type: ['string', 'null'],
              format: 'date-time',
              description: 'Start of the 24 whole hours before the hour of the last check; null when never checked.',
            },
            period_end: { type: ['string', 'null'], format: 'date-time', description: 'period_start + 24h.' },
            uptime_percent: { type: ['number', 'null'], minimum: 0, maximum: 100 },
            checks: { type: 'integer', minimum: 0 },
            failures: { type: 'integer', minimum: 0 },
            avg_latency_ms: { type: ['integer', 'null'] },
            latency_percentiles_ms: {
              oneOf: [
                {
                  type: 'object',
                  required: ['p50', 'p90', 'p95', 'p99', 'max'],
                  properties: Object.fromEntries(
                    ['p50', 'p90', 'p95', 'p99', 'max'].map((k) => [k, { type: 'integer', minimum: 1 }]),
                  ),
                },
                { type: 'null' },
              ],
              description:
                "Nearest-rank percentiles of the successful checks' latencies over the period; null when none succeeded.",
            },
            monitor_status: schemaRef('MonitorStatus'),
            generated_at: { type: 'string', format: 'date-time' },
            hourly: {
              type: 'array',
              maxItems: 24,
              items: {
                type: 'object',
                required: ['hour', 'checks', 'failures', 'avg_latency_ms', 'p95_latency_ms'],
                properties: {
                  hour: { type: 'string', format: 'date-time', description: 'Start of the hour.' },
                  checks: { type: 'integer', minimum: 0 },
                  failures: { type: 'integer', minimum: 0 },
                  avg_latency_ms: {
                    type: ['integer', 'null'],
                    description: 'Null when no check of the hour succeeded.',
                  },
                  p95_latency_ms: { type: ['integer', 'null'] },
                },
              },
              description: 'One bucket per hour of the period, oldest first; empty when never checked.',
            },
            incidents: {
              type: 'array',
              items: {
                type: 'object',
                required: ['start', 'end', 'duration_seconds', 'failed_checks', 'cause'],
                properties: {
                  start: { type: 'string', format: 'date-time', description: 'Time of the first failed check.' },
                  end: {
                    type: ['string', 'null'],
                    format: 'date-time',
                    description: 'Time of the next successful check; null while still failing.',
                  },
                  duration_seconds: { type: 'integer', minimum: 0 },
                  failed_checks: { type: 'integer', minimum: 1 },
                  cause: { type: 'string' },
                },
              },
              description: 'Runs of failed checks, oldest first.',
            },
          },
          description:
            "Simulated and deterministic, derived from the monitor's last check: never checked -> uptime_percent null, checks 0, " +
            'no period, empty hourly and incidents; ' +
            `last check down -> 0 and one open incident over the whole period; up -> 100, or ${FLAKY_UPTIME} when the target contains "flaky" ` +
            '(the failures grouped in up to three incidents). ' +
            'checks = floor(86400 / interval_seconds) (at least 1), one every interval_seconds from period_start; ' +
            'failures = round(checks * (100 - uptime) / 100); avg_latency_ms = last_check.latency_ms, the mean of the simulated latencies. ' +
            'The same monitor gives the same figures on every fetch.',
        },
        SummaryReport: {
          type: 'object',
          required: [
            'id',
            'monitor_id',
            'period',
            'uptime_percent',
            'checks',
            'failures',
            'avg_latency_ms',
            'generated_at',
            'monitors',
          ],
          properties: {
            id: { type: 'string', const: SUMMARY_REPORT_ID },
            monitor_id: { type: 'null' },
            period: { type: 'string', const: REPORT_PERIOD },
            uptime_percent: {
              type: ['number', 'null'],
              description: "Mean of the monitors' non-null uptimes, 2 decimals; null when none.",
            },
            checks: { type: 'integer', description: 'Sum over monitors.' },
            failures: { type: 'integer', description: 'Sum over monitors.' },
            avg_latency_ms: { type: ['integer', 'null'], description: 'Mean of non-null latencies, rounded.' },
            generated_at: { type: 'string', format: 'date-time' },
            monitors: {
              type: 'object',
              required: ['total', ...MONITOR_STATUSES],
              properties: Object.fromEntries(
                ['total', ...MONITOR_STATUSES].map((k) => [k, { type: 'integer', minimum: 0 }]),
              ),
              description: 'Number of monitors in the account, by current status.',
            },
          },
          description: `The account summary report ${SUMMARY_REPORT_ID}, seeded in every account.`,
        },
      },
    },
  };
}

/**
 * The emulator's own routes (fault injection, request log), described apart
 * from the service: GET /__emulator/openapi.json, public (it holds no secret;
 * the routes it describes need X-Emulator-Admin). The service's document
 * (buildOpenApiDocument) describes the service only, so client generators fed
 * with it never emit queueFault for users.
 */
export function buildAdminDocument(baseUrl: string): Json {
  const rootUrl = baseUrl.replace(/\/v1$/, '');
  return {
    openapi: '3.1.0',
    info: {
      title: 'cpk emulator administration',
      version: '1.0.0',
      description:
        'Routes of the local emulator only (not part of the service): fault injection and the request log. ' +
        `The service itself is described at ${baseUrl}/openapi.json.`,
    },
    servers: [{ url: rootUrl, description: 'admin routes live outside /v1' }],
    security: [{ adminSecret: [] }],
    tags: [{ name: 'emulator-admin', description: 'Fault injection and request log.' }],
    'x-fault-injection': {
      routes: {
        [`POST ${ADMIN_PREFIX}/faults`]:
          'queue one Fault object or an array of them (all validated first) -> 201 {"ok": true, "queued": n, "pending": total}; invalid fault -> 422',
        [`GET ${ADMIN_PREFIX}/faults`]: '200 {"faults": [Fault + remaining]}',
        [`DELETE ${ADMIN_PREFIX}/faults`]: '200 {"ok": true, "cleared": n}',
        [`GET ${ADMIN_PREFIX}/requests`]:
          '200 {"requests": [{method, path, headers, body}]} with every token (in Authorization, the path, the query, the body or any header) redacted to "cpk_…<last 4>"',
        [`DELETE ${ADMIN_PREFIX}/requests`]: '200 {"ok": true, "cleared": n}',
      },
      authentication: `header X-Emulator-Admin: <adminSecret> (constant-time compare); without it every ${ADMIN_PREFIX} path answers 404 "not found"`,
      matching:
        'method is compared case-insensitively; path is compared with the raw request path without query string, exactly, or as a prefix when it ends with "*". ' +
        'A fault without path matches every /v1 API request but not GET /v1/openapi.json; a fault with a path matches any /v1 path it names, openapi.json included. ' +
        'Among matching faults the oldest queued is used (FIFO); each use decrements times and the fault is dropped at 0.',
      kinds: {
        status: `respond with status (default ${FAULT_DEFAULTS.statusByKind.status}) and body (default: the error object, error "<reason phrase> (injected fault)")`,
        html: `an HTML error page, Content-Type text/html (status default ${FAULT_DEFAULTS.statusByKind.html})`,
        truncated: `status ${FAULT_DEFAULTS.statusByKind.truncated}, Content-Type application/json, Content-Length of the full body, only the first half sent, then the connection is destroyed`,
        stall: `status ${FAULT_DEFAULTS.statusByKind.stall}, Content-Type application/json, Content-Length of the full body, only the first half sent, then nothing more: the connection stays open until the client gives up or the emulator closes`,
        reset: 'the connection is reset (TCP RST) without any response',
        hang: 'no response at all until the client gives up or the emulator closes',
        redirect: `status (default ${FAULT_DEFAULTS.statusByKind.redirect}, 300-399) with Location: location and an empty body`,
      },
      common:
        'retryAfter sets Retry-After; headers are added (and override defaults); delayMs waits before answering (added to latencyMs); ' +
        'status/body/headers are ignored by reset and hang. A faulted request is recorded in the request log and never touches the store.',
      schema: schemaRef('Fault'),
    },
    'x-request-log':
      'Every /v1 request (API and openapi.json) in arrival order, faulted ones included; admin requests and paths outside /v1 are not recorded. ' +
      `Bodies are kept up to ${MAX_BODY_BYTES} bytes.`,
    paths: {
      [`${ADMIN_PREFIX}/openapi.json`]: {
        get: {
          operationId: 'getAdminDocument',
          tags: ['emulator-admin'],
          summary: 'This document',
          security: [],
          responses: { '200': { description: 'The OpenAPI 3.1 document of the admin routes.' } },
        },
      },
      [`${ADMIN_PREFIX}/faults`]: {
        servers: [{ url: rootUrl, description: 'admin routes live outside /v1' }],
        description: 'Emulator only. 404 "not found" unless X-Emulator-Admin carries the admin secret.',
        get: adminOperation('listFaults', 'Pending faults', {
          '200': { description: '{"faults": [Fault + remaining]}' },
        }),
        post: {
          ...adminOperation('queueFault', 'Queue one fault or an array of faults (FIFO among matching faults)', {
            '201': { description: '{"ok": true, "queued": n, "pending": total}' },
            '400': { description: 'Malformed JSON.' },
            '422': { description: 'Invalid fault (message names the field).' },
          }),
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { oneOf: [schemaRef('Fault'), { type: 'array', items: schemaRef('Fault') }] },
              },
            },
          },
        },
        delete: adminOperation('clearFaults', 'Remove all pending faults', {
          '200': { description: '{"ok": true, "cleared": n}' },
        }),
      },
      [`${ADMIN_PREFIX}/requests`]: {
        servers: [{ url: rootUrl, description: 'admin routes live outside /v1' }],
        description: 'Emulator only. 404 "not found" unless X-Emulator-Admin carries the admin secret.',
        get: adminOperation(
          'listRequests',
          'The /v1 request log, every token (Authorization, path, query, body, any header) redacted to "cpk_…<last 4>"',
          {
            '200': { description: '{"requests": [{method, path, headers, body, receivedAt, status, latencyMs}]}' },
          },
        ),
        delete: adminOperation('clearRequests', 'Empty the request log', {
          '200': { description: '{"ok": true, "cleared": n}' },
        }),
      },
      [`${ADMIN_PREFIX}/state`]: {
        servers: [{ url: rootUrl, description: 'admin routes live outside /v1' }],
        description: 'Emulator only. 404 "not found" unless X-Emulator-Admin carries the admin secret.',
        get: adminOperation('exportState', 'The whole state, in the format of --import and --export-on-exit', {
          '200': { description: '{"version": 1, "accounts": {...}, "issued_ids": [...]}' },
        }),
        put: adminOperation('importState', 'Replace the whole state with an exported one', {
          '200': { description: '{"ok": true}' },
          '400': { description: 'Malformed JSON.' },
          '422': { description: 'Not an emulator state (nothing changed).' },
        }),
        delete: adminOperation('resetState', 'Back to the start: no monitors, the seeded channels', {
          '200': { description: '{"ok": true}' },
        }),
      },
      [`${ADMIN_PREFIX}/outages`]: {
        servers: [{ url: rootUrl, description: 'admin routes live outside /v1' }],
        description: 'Emulator only. 404 "not found" unless X-Emulator-Admin carries the admin secret.',
        get: adminOperation('listOutages', 'Outages the simulated checks obey', {
          '200': { description: '{"outages": [{target, outcome}]}' },
        }),
        post: adminOperation(
          'addOutage',
          'From now on, checks of every target containing `target` come out `outcome` (down, default, or slow)',
          {
            '201': { description: '{"ok": true, "outages": [...]}' },
            '400': { description: 'Malformed JSON.' },
            '422': { description: 'Invalid outage (message names the field).' },
          },
        ),
        delete: adminOperation('clearOutages', 'Remove every outage', {
          '200': { description: '{"ok": true, "cleared": n}' },
        }),
      },
      [`${ADMIN_PREFIX}/checks`]: {
        servers: [{ url: rootUrl, description: 'admin routes live outside /v1' }],
        description: 'Emulator only. 404 "not found" unless X-Emulator-Admin carries the admin secret.',
        get: {
          ...adminOperation('listChecks', "A monitor's last 100 simulated checks, oldest first", {
            '200': { description: '{"monitor": id, "checks": [{n, status, latency_ms, checked_at}]}' },
            '400': { description: 'No monitor parameter.' },
            '404': { description: 'No such monitor.' },
          }),
          parameters: [{ name: 'monitor', in: 'query', required: true, schema: { type: 'string' } }],
        },
      },
    },
    components: {
      securitySchemes: {
        adminSecret: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Emulator-Admin',
          description: "The emulator's admin secret (emulator-only routes).",
        },
      },
      schemas: {
        Fault: {
          type: 'object',
          properties: {
            method: { type: 'string', description: 'Match this method only (case-insensitive). Default: any.' },
            path: {
              type: 'string',
              pattern: '^/',
              description:
                'Match the raw path without query: exact, or prefix when it ends with "*". Default: any API request (not openapi.json).',
            },
            times: {
              type: 'integer',
              minimum: 1,
              default: FAULT_DEFAULTS.times,
              description: 'Number of matching requests it applies to.',
            },
            status: {
              type: 'integer',
              minimum: 200,
              maximum: 599,
              description: 'Response status (redirect: 300-399). Defaults per kind: see x-fault-injection.kinds.',
            },
            body: {
              type: 'string',
              description:
                'Response body (default: error object JSON; html: an HTML page; truncated and stall: a JSON object).',
            },
            headers: { type: 'object', additionalProperties: { type: 'string' } },
            retryAfter: { type: 'string', description: 'Value of Retry-After.' },
            kind: { type: 'string', enum: [...FAULT_KINDS], default: 'status' },
            location: { type: 'string', description: 'Location of kind redirect (required for it).' },
            delayMs: {
              type: 'integer',
              minimum: 0,
              maximum: FAULT_DEFAULTS.maxDelayMs,
              description: 'Wait before answering.',
            },
          },
          additionalProperties: false,
        },
      },
    },
  };
}

function idParameter(description: string): Json {
  return { name: 'id', in: 'path', required: true, description, schema: { type: 'string', minLength: 1 } };
}

function adminOperation(operationId: string, summary: string, responses: Json): Json {
  return {
    operationId,
    tags: ['emulator-admin'],
    summary,
    security: [{ adminSecret: [] }],
    responses: { ...responses, '404': { description: 'Admin secret missing or wrong (or unknown admin path).' } },
  };
}
