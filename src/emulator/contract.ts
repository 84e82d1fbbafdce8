// The service's document (openapi.yaml) compiled into validators: the request
// bodies and query parameters the emulator accepts (validation.ts, list.ts)
// and the responses it may give (checkResponse, which the test suite runs on
// every answer, as a validating proxy would, against it or, for the admin
// routes, against admin-openapi.yaml). One document, so what is declared and
// what is done cannot drift apart.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { ADMIN_PREFIX, API_PREFIX } from './model.js';
import { adminDocument, publicDocument } from './openapi.js';
import { matchRoute } from './routes.js';

type DocumentId = 'openapi' | 'admin';
const DOCUMENTS: Record<DocumentId, Record<string, unknown>> = { openapi: publicDocument, admin: adminDocument };
const DOCUMENT_PATH = `${API_PREFIX}/openapi.json`;
// RFC 3339 date-time, as JSON Schema's "date-time" format means it.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

/** A validator for the schema at `pointer` (a JSON pointer into a document), compiled once. */
function validatorAt(pointer: string, document: DocumentId = 'openapi'): ValidateFunction {
  const key = `${document}#${pointer}`;
  let validate = compiled.get(key);
  if (validate === undefined) {
    if (ajv === undefined) {
      // allErrors: the caller picks the problem to report by field order, not ajv's visiting order.
      // strict off: the document carries OpenAPI keywords (description, x-...) beside JSON Schema.
      ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
      ajv.addFormat('date-time', DATE_TIME);
      for (const [id, doc] of Object.entries(DOCUMENTS)) ajv.addSchema(doc, id);
    }
    validate = ajv.compile({ $ref: key });
    compiled.set(key, validate);
  }
  return validate;
}

const escapePointer = (part: string) => part.replaceAll('~', '~0').replaceAll('/', '~1');

interface Operation {
  document: DocumentId;
  path: string;
  method: string;
  spec: Record<string, unknown>;
}

let operations: Map<string, Operation> | undefined;

/** The operations of both documents, by operationId and by "METHOD /path". */
function operationsIndex(): Map<string, Operation> {
  if (operations === undefined) {
    operations = new Map();
    for (const [document, doc] of Object.entries(DOCUMENTS) as Array<[DocumentId, Record<string, unknown>]>)
      for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>))
        for (const [method, spec] of Object.entries(item))
          if (spec !== null && typeof spec === 'object' && 'operationId' in spec) {
            const op = { document, path, method, spec: spec as Record<string, unknown> };
            operations.set(String(spec.operationId), op);
            operations.set(`${method.toUpperCase()} ${path}`, op);
          }
  }
  return operations;
}

/** The document's operation for an operationId. */
export function operationOf(operationId: string): Operation | undefined {
  return operationsIndex().get(operationId);
}

const pointerOf = (op: Operation, ...rest: string[]) =>
  ['', 'paths', op.path, op.method, ...rest].map(escapePointer).join('/');

/** Validates a request body against the operation's declared schema; the errors, or [] when it conforms. */
export function requestBodyErrors(operationId: string, body: unknown): ErrorObject[] {
  const op = operationOf(operationId);
  if (op === undefined) return [];
  const validate = validatorAt(pointerOf(op, 'requestBody', 'content', 'application/json', 'schema'));
  return validate(body) ? [] : [...(validate.errors ?? [])];
}

/** The schema the document gives an operation's request body (references resolved). */
export function requestBodySchema(operationId: string): { properties?: Record<string, Record<string, unknown>> } {
  const op = operationOf(operationId);
  const content = (op?.spec.requestBody as { content?: Record<string, { schema?: { $ref?: string } }> } | undefined)
    ?.content?.['application/json']?.schema;
  return ((content?.$ref ? resolve(content.$ref) : content) ?? {}) as {
    properties?: Record<string, Record<string, unknown>>;
  };
}

/** The schema the document gives a request body's property (for messages that quote its bounds). */
export function requestBodyProperty(operationId: string, name: string): Record<string, unknown> {
  return requestBodySchema(operationId).properties?.[name] ?? {};
}

/**
 * The first problem the document finds in a request body, in the wording the
 * emulator has always used: nothing to update, then read-only or unknown
 * fields in the order the body gives them, then the fields in the order the
 * schema lists them. `rank` places it among the rules kept in code.
 */
export function requestBodyProblem(
  operationId: string,
  body: Record<string, unknown>,
  readOnly: readonly string[],
): { rank: number; message: string } | null {
  const errors = requestBodyErrors(operationId, body);
  if (errors.length === 0) return null;
  const fields = Object.keys(requestBodySchema(operationId).properties ?? {});
  if (errors.some((e) => e.instancePath === '' && e.keyword === 'minProperties'))
    return { rank: -2, message: 'nothing to update' };
  if (errors.some((e) => e.instancePath === '' && (e.keyword === 'not' || e.keyword === 'additionalProperties'))) {
    const key = Object.keys(body).find((k) => readOnly.includes(k) || !fields.includes(k)) ?? '';
    // A monitor keeps unknown fields (its schema is open): only a read-only one is refused.
    const closed = errors.some((e) => e.keyword === 'additionalProperties');
    const offending = closed ? key : (Object.keys(body).find((k) => readOnly.includes(k)) ?? '');
    return {
      rank: -1,
      message: readOnly.includes(offending) ? `${offending} is read-only` : `unknown field: ${offending}`,
    };
  }
  let best: { rank: number; message: string } | null = null;
  for (const error of errors) {
    const field =
      error.instancePath === ''
        ? String((error.params as { missingProperty?: unknown }).missingProperty ?? '')
        : decodeURIComponent(error.instancePath.split('/')[1] ?? '')
            .replaceAll('~1', '/')
            .replaceAll('~0', '~');
    const rank = fields.indexOf(field);
    if (rank < 0 || (best !== null && best.rank <= rank)) continue;
    const message =
      error.instancePath === '' && error.keyword === 'required'
        ? `${field} is required`
        : fieldMessage(field, propertySchema(operationId, field), error.keyword, error.params);
    best = { rank, message };
  }
  return best ?? { rank: fields.length, message: 'request body does not match the document' };
}

interface PropertySchema {
  type?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  items?: PropertySchema;
}

function propertySchema(operationId: string, field: string): PropertySchema {
  const schema = requestBodyProperty(operationId, field) as PropertySchema & { $ref?: string };
  const resolved = (schema.$ref ? resolve(schema.$ref) : schema) as PropertySchema & { items?: { $ref?: string } };
  const items = resolved.items?.$ref ? (resolve(resolved.items.$ref) as PropertySchema) : resolved.items;
  return items ? { ...resolved, items } : resolved;
}

/** The message for a field the schema refuses, quoting the schema's own bounds. */
function fieldMessage(field: string, schema: PropertySchema, keyword: string, params: Record<string, unknown>): string {
  if (schema.type === 'array')
    return `${field} must be an array of distinct values from: ${(schema.items?.enum ?? []).join(', ')}`;
  if (schema.enum) return `${field} must be one of ${schema.enum.join(', ')}`;
  if (schema.type === 'integer') return `${field} must be an integer between ${schema.minimum} and ${schema.maximum}`;
  if (schema.type === 'boolean') return `${field} must be a boolean`;
  if (keyword === 'type') return `${field} must be a ${schema.type}`;
  if (keyword === 'maxLength') return `${field} must be at most ${String(params.limit)} characters`;
  if (keyword === 'minLength' || keyword === 'pattern') return `${field} must not be empty`;
  return `${field} is invalid`;
}

/** Resolves a local "#/..." reference in a document. */
export function resolve(ref: string, document: DocumentId = 'openapi'): unknown {
  let node: unknown = DOCUMENTS[document];
  for (const part of ref.replace(/^#\//, '').split('/')) {
    const key = part.replaceAll('~1', '/').replaceAll('~0', '~');
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

/** One answer of the emulator, as the test suite's response check sees it. */
export interface Exchange {
  method: string;
  /** The request target (path and query). */
  url: string;
  status: number;
  contentType: string | undefined;
  body: Buffer;
}

/**
 * What is wrong with a response, judged by the document: an undeclared status,
 * a body where none is declared, or a JSON body that breaks the declared
 * schema. Empty when it conforms, or when no operation of the document was
 * addressed (an unknown path, a method not allowed, an admin route without the
 * secret: 404): the document makes no promise there. An admin route that
 * answers but is missing from the admin document is a violation.
 */
export function checkResponse(exchange: Exchange): string[] {
  const path = exchange.url.split('?', 1)[0] ?? '';
  const method = exchange.method.toUpperCase() === 'HEAD' ? 'GET' : exchange.method.toUpperCase();
  const where = `${exchange.method} ${exchange.url} -> ${exchange.status}`;
  let operationId: string;
  if (path === ADMIN_PREFIX || path.startsWith(`${ADMIN_PREFIX}/`)) {
    const op = operationsIndex().get(`${method} ${path}`);
    if (op === undefined)
      return exchange.status === 404 || exchange.status === 405
        ? []
        : [`${where}: ${method} ${path} is not in the admin document`];
    operationId = String(op.spec.operationId);
  } else if (path === DOCUMENT_PATH) {
    if (method !== 'GET') return [];
    operationId = 'getOpenApiDocument';
  } else {
    const route = matchRoute(method, path);
    if (route.kind !== 'operation') return [];
    operationId = route.operation;
  }
  const op = operationOf(operationId);
  if (op === undefined) return [`${where}: operation ${operationId} is not in the document`];
  const responses = op.spec.responses as Record<string, { $ref?: string }>;
  let key = String(exchange.status);
  if (!(key in responses)) {
    if (!('default' in responses)) return [`${where}: status ${key} is not declared for ${operationId}`];
    key = 'default';
  }
  const declared = responses[key] ?? {};
  const response = (declared.$ref ? resolve(declared.$ref, op.document) : declared) as {
    content?: Record<string, unknown>;
  };
  const hasBody = exchange.body.length > 0;
  if (exchange.method.toUpperCase() === 'HEAD') return hasBody ? [`${where}: HEAD answered with a body`] : [];
  if (response.content === undefined)
    return hasBody ? [`${where}: a body where ${operationId} ${key} declares none`] : [];
  if (!/^application\/json\b/i.test(exchange.contentType ?? ''))
    return [`${where}: Content-Type ${exchange.contentType ?? '(none)'} where application/json is declared`];
  let value: unknown;
  try {
    value = JSON.parse(exchange.body.toString('utf8'));
  } catch {
    return [`${where}: the body is not JSON`];
  }
  const pointer = declared.$ref
    ? `${declared.$ref.slice(1)}/content/application~1json/schema`
    : pointerOf(op, 'responses', key, 'content', 'application/json', 'schema');
  const validate = validatorAt(pointer, op.document);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${where}: ${e.instancePath || '(body)'} ${e.message ?? e.keyword}`);
}

interface Parameter {
  name: string;
  in: string;
  schema?: { type?: string; enum?: unknown[]; minimum?: number; maximum?: number };
}

/**
 * The first problem the document finds in an operation's query string, or
 * null: a parameter it does not declare, or a value its schema refuses. A
 * value is read as the declared type (digits as an integer) before the
 * schema judges it. The query is URL-encoded; the first of repeated keys counts.
 */
export function queryProblem(operationId: string, query: string): string | null {
  const op = operationOf(operationId);
  if (op === undefined) return null;
  const declared = ((op.spec.parameters ?? []) as Parameter[]).filter((p) => p.in === 'query');
  const names = declared.map((p) => p.name);
  const params = new URLSearchParams(query);
  for (const key of new Set(params.keys()))
    if (!names.includes(key)) return `unknown query parameter ${key}; allowed: ${names.join(', ')}`;
  for (const [index, parameter] of declared.entries()) {
    const raw = params.get(parameter.name);
    if (raw === null) continue;
    const schema = parameter.schema ?? {};
    const value = schema.type === 'integer' && /^-?\d{1,15}$/.test(raw) ? Number(raw) : raw;
    const validate = validatorAt(pointerOf(op, 'parameters', String(index), 'schema'));
    if (validate(value)) continue;
    if (schema.enum) return `invalid ${parameter.name}: expected one of ${schema.enum.join(', ')}`;
    if (schema.type === 'integer')
      return `invalid ${parameter.name}: expected an integer from ${schema.minimum} to ${schema.maximum}`;
    return `invalid ${parameter.name}`;
  }
  return null;
}
