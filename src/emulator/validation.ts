// Request-body validation. Pure functions: they never touch the store, so a
// rejected request (400/422) can never leave a half-applied change behind.
// The shape of each body (types, bounds, enums, required, read-only and
// unknown fields) is the OpenAPI document's (openapi.yaml, through ajv in
// contract.ts); only what a schema cannot say is written here: that a target
// fits the monitor's type or the channel's kind. Each check returns the first
// problem found, in a fixed order, with a message that names the offending field.
import { isPlainObject } from '../core/json.js';
import { jsonDepth } from '../core/json.js';
import { isIP } from 'node:net';
import { requestBodyErrors, requestBodyProperty, requestBodySchema, resolve } from './contract.js';
import {
  CHANNEL_READ_ONLY_FIELDS,
  DEFAULT_INTERVAL,
  DEFAULT_MONITOR_TYPE,
  MONITOR_READ_ONLY_FIELDS,
  MONITOR_WRITABLE_FIELDS,
  type ChannelKind,
  type MonitorType,
  type OperationId,
} from './model.js';

export type Result<T> = { ok: true; value: T } | { ok: false; status: 400 | 422; message: string };

const fail = <T>(status: 400 | 422, message: string): Result<T> => ({ ok: false, status, message });

/** The deepest nesting a request body may have (deeper is 400, before anything is stored). */
export const MAX_BODY_DEPTH = 64;

/** Parses a request body that must be a JSON object (400 otherwise). */
export function parseJsonObject(text: string): Result<Record<string, unknown>> {
  if (text.trim() === '') return fail(400, 'request body is empty; expected a JSON object');
  if (jsonDepth(text) > MAX_BODY_DEPTH) return fail(400, `request body nests deeper than ${MAX_BODY_DEPTH} levels`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fail(400, 'malformed JSON body');
  }
  if (!isPlainObject(parsed)) return fail(400, 'request body must be a JSON object');
  return { ok: true, value: parsed };
}

// ---------------------------------------------------------------- targets

const HOSTNAME =
  /^(?=.{1,253}\.?$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/;

function isHost(host: string): boolean {
  return HOSTNAME.test(host) || isIP(host) !== 0;
}

/** Splits "host:port" / "[v6]:port"; null when the shape is wrong. */
function splitHostPort(target: string): { host: string; port: number } | null {
  const bracketed = /^\[([^\]]+)\]:(\d{1,5})$/.exec(target);
  const plain = /^([^:[\]]+):(\d{1,5})$/.exec(target);
  const match = bracketed ?? plain;
  if (!match) return null;
  const host = match[1] ?? '';
  const port = Number(match[2]);
  if (bracketed ? isIP(host) !== 6 : !isHost(host)) return null;
  if (port < 1 || port > 65535) return null;
  return { host, port };
}

const TARGET_RULES: Record<MonitorType, string> = {
  http: 'target must be an http:// or https:// URL for type http',
  tcp: 'target must be host:port (port 1-65535) for type tcp',
  ping: 'target must be a hostname or IP address for type ping',
  dns: 'target must be a hostname or IP address for type dns',
};

/** Error message for a target that does not fit the type, or null when it fits (its length is the document's). */
export function targetError(type: MonitorType, target: string): string | null {
  return hostOfTarget(type, target) === null ? TARGET_RULES[type] : null;
}

/**
 * The host a target designates, or null when the target is invalid for the
 * type. The simulated check looks only at this host (no network is used).
 */
export function hostOfTarget(type: MonitorType, target: string): string | null {
  if (/\s/.test(target) || target === '') return null;
  switch (type) {
    case 'http': {
      if (!/^https?:\/\//i.test(target)) return null;
      let url: URL;
      try {
        url = new URL(target);
      } catch {
        return null;
      }
      return url.hostname === '' ? null : url.hostname;
    }
    case 'tcp':
      return splitHostPort(target)?.host ?? null;
    case 'ping':
    case 'dns':
      return isHost(target) ? target : null;
  }
}

// ---------------------------------------------------------- the document

/**
 * The first problem the document finds in a request body, in the wording the
 * emulator has always used: nothing to update, then read-only or unknown
 * fields in the order the body gives them, then the fields in the order the
 * schema lists them. `rank` places it among the rules kept in code.
 */
function documentProblem(
  operationId: OperationId,
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

function propertySchema(operationId: OperationId, field: string): PropertySchema {
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

// ---------------------------------------------------------------- monitors

export interface MonitorInput {
  name: string;
  type: MonitorType;
  target: string | null;
  interval_seconds: number;
  paused: boolean;
}

export interface MonitorChanges {
  fields: Partial<MonitorInput>;
  /** Client fields the service does not know: stored and echoed verbatim. */
  extras: Record<string, unknown>;
}

const isWritableMonitorField = (k: string) => (MONITOR_WRITABLE_FIELDS as readonly string[]).includes(k);

/**
 * Validates the fields present in `body` (create or partial update): first
 * against the document, then the rule it cannot state, that the target fits
 * the type. `current` is the stored monitor for PATCH, so that a type change
 * is checked against the stored target and vice versa.
 */
function checkMonitorBody(
  operationId: 'createMonitor' | 'updateMonitor',
  body: Record<string, unknown>,
  current: MonitorInput | null,
): Result<MonitorChanges> {
  const problem = documentProblem(operationId, body, MONITOR_READ_ONLY_FIELDS);
  const fields: Partial<MonitorInput> = {};
  const extras: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    // defineProperty, not assignment: a "__proto__" key must stay plain data.
    if (isWritableMonitorField(key))
      Object.defineProperty(fields, key, { value, enumerable: true, writable: true, configurable: true });
    else Object.defineProperty(extras, key, { value, enumerable: true, writable: true, configurable: true });
  }
  // The target is checked against the type only when both are well formed.
  const targetRank = Object.keys(requestBodySchema(operationId).properties ?? {}).indexOf('target');
  if (problem === null || problem.rank > targetRank) {
    const type = fields.type ?? current?.type ?? DEFAULT_MONITOR_TYPE;
    const target = fields.target !== undefined ? fields.target : (current?.target ?? null);
    const typeOk = problem === null || !/^type /.test(problem.message);
    if (typeOk && target !== null && (Object.hasOwn(body, 'target') || Object.hasOwn(body, 'type'))) {
      const err = targetError(type, target);
      if (err) return fail(422, err);
    }
  }
  if (problem) return fail(422, problem.message);
  return { ok: true, value: { fields, extras } };
}

export function validateMonitorCreate(
  body: Record<string, unknown>,
): Result<{ input: MonitorInput; extras: Record<string, unknown> }> {
  const checked = checkMonitorBody('createMonitor', body, null);
  if (!checked.ok) return checked;
  const { fields, extras } = checked.value;
  return {
    ok: true,
    value: {
      input: {
        name: fields.name as string,
        type: fields.type ?? DEFAULT_MONITOR_TYPE,
        target: fields.target ?? null,
        interval_seconds: fields.interval_seconds ?? DEFAULT_INTERVAL,
        paused: fields.paused ?? false,
      },
      extras,
    },
  };
}

export function validateMonitorPatch(body: Record<string, unknown>, current: MonitorInput): Result<MonitorChanges> {
  return checkMonitorBody('updateMonitor', body, current);
}

// ---------------------------------------------------------------- channels

export interface ChannelChanges {
  name?: string;
  enabled?: boolean;
  target?: string;
  events?: string[];
}

const CHANNEL_TARGET_RULES: Record<ChannelKind, { test: (t: string) => boolean; message: string }> = {
  email: {
    test: (t) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(t),
    message: 'target must be an email address for a channel of kind email',
  },
  webhook: {
    test: (t) => hostOfTarget('http', t) !== null,
    message: 'target must be an http:// or https:// URL for a channel of kind webhook',
  },
  slack: {
    test: (t) => /^#[a-z0-9._-]{1,80}$/.test(t) || (/^https:\/\//i.test(t) && hostOfTarget('http', t) !== null),
    message: 'target must be a #channel name or an https:// webhook URL for a channel of kind slack',
  },
};

/**
 * Channels are a closed object: unknown and read-only fields are rejected
 * (unlike monitors). The document checks the shape; the target's fit to the
 * channel's kind is checked here.
 */
export function validateChannelPatch(body: Record<string, unknown>, kind: ChannelKind): Result<ChannelChanges> {
  const problem = documentProblem('updateChannel', body, CHANNEL_READ_ONLY_FIELDS);
  const targetRank = Object.keys(requestBodySchema('updateChannel').properties ?? {}).indexOf('target');
  if ((problem === null || problem.rank > targetRank) && typeof body.target === 'string') {
    if (!CHANNEL_TARGET_RULES[kind].test(body.target)) return fail(422, CHANNEL_TARGET_RULES[kind].message);
  }
  if (problem) return fail(422, problem.message);
  const changes: ChannelChanges = {};
  if (typeof body.name === 'string') changes.name = body.name;
  if (typeof body.enabled === 'boolean') changes.enabled = body.enabled;
  if (typeof body.target === 'string') changes.target = body.target;
  if (Array.isArray(body.events)) changes.events = body.events.map(String);
  return { ok: true, value: changes };
}
