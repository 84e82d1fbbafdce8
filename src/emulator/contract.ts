// The emulator's two documents (openapi.yaml, admin-openapi.yaml) as the tables it runs by: routes, accepted
// bodies and queries, and the responses it may give (checkResponse, which the test suite runs on every answer,
// as a validating proxy would). One document, so what is declared and what is done cannot drift apart.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { ADMIN_PREFIX, API_PREFIX } from './model.js';
import { adminDocument, publicDocument } from './openapi.js';

type DocumentId = 'openapi' | 'admin';
type Json = Record<string, unknown>;
const DOCUMENTS: Record<DocumentId, Json> = { openapi: publicDocument, admin: adminDocument };
// RFC 3339 date-time, as JSON Schema's "date-time" format means it.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

let ajv: Ajv2020 | undefined;

/** A validator for the schema at `pointer` (a JSON pointer into a document), compiled once (ajv keeps it). */
function validatorAt(pointer: string, document: DocumentId = 'openapi'): ValidateFunction {
  if (ajv === undefined) {
    // allErrors: a response check reports every problem at once.
    // strict off: the document carries OpenAPI keywords (description, x-...) beside JSON Schema.
    ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
    ajv.addFormat('date-time', DATE_TIME);
    for (const [id, doc] of Object.entries(DOCUMENTS)) ajv.addSchema(doc, id);
  }
  return ajv.getSchema(`${document}#${pointer}`) as ValidateFunction;
}

const escapePointer = (part: string) => part.replaceAll('~', '~0').replaceAll('/', '~1');

/** Resolves a local "#/..." reference in a document. */
function resolve(ref: string, document: DocumentId = 'openapi'): unknown {
  let node: unknown = DOCUMENTS[document];
  for (const part of ref.replace(/^#\//, '').split('/')) {
    const key = part.replaceAll('~1', '/').replaceAll('~0', '~');
    node = node !== null && typeof node === 'object' ? (node as Json)[key] : undefined;
  }
  return node;
}

/** A schema with its $ref followed: [the schema, the pointer it lives at]. */
function followRef(schema: Json, pointer: string, document: DocumentId = 'openapi'): [Json, string] {
  const ref = schema.$ref;
  return typeof ref === 'string' ? [(resolve(ref, document) ?? {}) as Json, ref.slice(1)] : [schema, pointer];
}

export interface Operation {
  id: string;
  document: DocumentId;
  /** JSON pointer to the operation in its document. */
  pointer: string;
  spec: Json;
}

/** Every path of both documents (the service's under /v1), with its operations by method. */
const ROUTES: Array<{ pattern: RegExp; methods: Map<string, Operation> }> = [];
const OPERATIONS = new Map<string, Operation>();
for (const [document, doc] of Object.entries(DOCUMENTS) as Array<[DocumentId, Json]>)
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    const methods = new Map<string, Operation>();
    for (const [method, spec] of Object.entries(item))
      if (spec !== null && typeof spec === 'object' && 'operationId' in spec) {
        const id = String(spec.operationId);
        const op = {
          id,
          document,
          pointer: ['', 'paths', path, method].map(escapePointer).join('/'),
          spec: spec as Json,
        };
        methods.set(method.toUpperCase(), op);
        OPERATIONS.set(id, op);
      }
    const full = (document === 'openapi' ? API_PREFIX + path : path).replaceAll('.', '\\.');
    ROUTES.push({ pattern: new RegExp(`^${full.replace('{id}', '([^/]+)')}$`), methods });
  }

export type Route =
  /** `id` is '' when the segment is not valid percent-encoding: no id is empty, so it names nothing. */
  | { kind: 'operation'; operation: Operation; id: string }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'not-found' };

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}

/**
 * The operation a request addresses (query already removed). Matching works on the raw path, and the {id} segment
 * is decoded once afterwards: "/v1/monitors/a%2Fb" is the monitor "a/b", never the path "/v1/monitors/a/b".
 * No dot-segment or slash normalisation.
 */
export function matchRoute(method: string, path: string): Route {
  for (const route of ROUTES) {
    const match = route.pattern.exec(path);
    if (!match) continue;
    // HEAD is GET without the body (Node's response drops the body of a HEAD answer); the admin routes have no HEAD.
    const verb = method.toUpperCase() === 'HEAD' && path.startsWith(`${API_PREFIX}/`) ? 'GET' : method.toUpperCase();
    const operation = route.methods.get(verb);
    if (operation === undefined) return { kind: 'method-not-allowed', allow: [...route.methods.keys()] };
    return { kind: 'operation', operation, id: match[1] === undefined ? '' : decodeSegment(match[1]) };
  }
  return { kind: 'not-found' };
}

interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  items?: PropertySchema;
}

/**
 * The first problem the document finds in a request body: nothing to update, then read-only or unknown fields in
 * the body's order, then the fields in the schema's order. `after(field)` adds the rules a schema cannot state.
 */
export function bodyProblem(
  operationId: string,
  body: Json,
  after: (field: string) => string | null,
  readOnly?: readonly string[],
): string | null {
  const op = OPERATIONS.get(operationId) as Operation;
  const at = `${op.pointer}/requestBody/content/application~1json/schema`;
  const [schema, pointer] = followRef(resolve(`#${at}`) as Json, at);
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const fields = Object.keys(properties);
  // Fields marked readOnly are the service's to set: a schema does not refuse them (JSON Schema only annotates), so
  // this does.
  readOnly ??= fields.filter((field) => properties[field]?.readOnly === true);
  if (schema.minProperties !== undefined && Object.keys(body).length === 0) return 'nothing to update';
  const offending = Object.keys(body).find(
    // A monitor keeps unknown fields (its schema is open): only a read-only one is refused.
    (k) => readOnly.includes(k) || (schema.additionalProperties === false && !fields.includes(k)),
  );
  if (offending !== undefined)
    return readOnly.includes(offending) ? `${offending} is read-only` : `unknown field: ${offending}`;
  const required = (schema.required ?? []) as string[];
  for (const field of fields) {
    if (!Object.hasOwn(body, field)) {
      if (required.includes(field)) return `${field} is required`;
    } else {
      const validate = validatorAt(`${pointer}/properties/${escapePointer(field)}`);
      if (!validate(body[field])) {
        const error = validate.errors?.[0];
        const [resolved] = followRef(properties[field] ?? {}, '');
        const [items] = followRef((resolved.items ?? {}) as Json, '');
        return fieldMessage(field, { ...resolved, items } as PropertySchema, error?.keyword ?? '', error?.params ?? {});
      }
    }
    const problem = after(field);
    if (problem !== null) return problem;
  }
  return validatorAt(pointer)(body) ? null : 'request body does not match the document';
}

/** The message for a field the schema refuses, quoting the schema's own bounds. */
function fieldMessage(field: string, schema: PropertySchema, keyword: string, params: Json): string {
  if (schema.type === 'array')
    return `${field} must be an array of distinct values from: ${(schema.items?.enum ?? []).join(', ')}`;
  if (schema.enum) return `${field} must be one of ${schema.enum.join(', ')}`;
  if (schema.type === 'integer') return `${field} must be an integer between ${schema.minimum} and ${schema.maximum}`;
  if (schema.type === 'boolean') return `${field} must be a boolean`;
  // ["string", "null"]: "must be a string or null".
  if (keyword === 'type') return `${field} must be a ${[schema.type].flat().join(' or ')}`;
  if (keyword === 'maxLength') return `${field} must be at most ${String(params.limit)} characters`;
  if (keyword === 'minLength' || keyword === 'pattern') return `${field} must not be empty`;
  return `${field} is invalid`;
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
 * What is wrong with a response, judged by the document: an undeclared status, an undeclared body, or a JSON body
 * that breaks its schema. Empty when no operation was addressed (404, 405): the document makes no promise there.
 * An admin route that answers but is missing from the admin document is a violation.
 */
export function checkResponse(exchange: Exchange): string[] {
  const path = exchange.url.split('?', 1)[0] ?? '';
  const method = exchange.method.toUpperCase() === 'HEAD' ? 'GET' : exchange.method.toUpperCase();
  const where = `${exchange.method} ${exchange.url} -> ${exchange.status}`;
  const route = matchRoute(method, path);
  if (route.kind !== 'operation') {
    const admin = path === ADMIN_PREFIX || path.startsWith(`${ADMIN_PREFIX}/`);
    return !admin || exchange.status === 404 || exchange.status === 405
      ? []
      : [`${where}: ${method} ${path} is not in the admin document`];
  }
  const op = route.operation;
  const responses = op.spec.responses as Record<string, Json>;
  let key = String(exchange.status);
  if (!(key in responses)) {
    if (!('default' in responses)) return [`${where}: status ${key} is not declared for ${op.id}`];
    key = 'default';
  }
  const [response, pointer] = followRef(
    responses[key] ?? {},
    `${op.pointer}/responses/${escapePointer(key)}`,
    op.document,
  );
  const hasBody = exchange.body.length > 0;
  if (exchange.method.toUpperCase() === 'HEAD') return hasBody ? [`${where}: HEAD answered with a body`] : [];
  if (response.content === undefined) return hasBody ? [`${where}: a body where ${op.id} ${key} declares none`] : [];
  if (!/^application\/json\b/i.test(exchange.contentType ?? ''))
    return [`${where}: Content-Type ${exchange.contentType ?? '(none)'} where application/json is declared`];
  let value: unknown;
  try {
    value = JSON.parse(exchange.body.toString('utf8'));
  } catch {
    return [`${where}: the body is not JSON`];
  }
  const validate = validatorAt(`${pointer}/content/application~1json/schema`, op.document);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${where}: ${e.instancePath || '(body)'} ${e.message ?? e.keyword}`);
}

interface Parameter {
  name: string;
  in: string;
  schema?: PropertySchema;
}

/**
 * The first problem the document finds in a query string, or null: an undeclared parameter, or a value its schema
 * refuses once read as the declared type, or a parameter given twice (which one counts is a guess a client should
 * not have to make).
 */
export function queryProblem(operation: Operation, query: string): string | null {
  const declared = ((operation.spec.parameters ?? []) as Parameter[]).filter((p) => p.in === 'query');
  const names = declared.map((p) => p.name);
  const params = new URLSearchParams(query);
  for (const key of new Set(params.keys())) {
    if (!names.includes(key)) return `unknown query parameter ${key}; allowed: ${names.join(', ')}`;
    if (params.getAll(key).length > 1) return `query parameter ${key} given more than once`;
  }
  for (const [index, parameter] of declared.entries()) {
    const raw = params.get(parameter.name);
    if (raw === null) continue;
    const schema = parameter.schema ?? {};
    const value = schema.type === 'integer' && /^-?\d{1,15}$/.test(raw) ? Number(raw) : raw;
    if (validatorAt(`${operation.pointer}/parameters/${index}/schema`)(value)) continue;
    if (schema.enum) return `invalid ${parameter.name}: expected one of ${schema.enum.join(', ')}`;
    if (schema.type === 'integer')
      return `invalid ${parameter.name}: expected an integer from ${schema.minimum} to ${schema.maximum}`;
    return `invalid ${parameter.name}`;
  }
  return null;
}
