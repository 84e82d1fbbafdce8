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
import { requestBodyProblem, requestBodySchema } from './contract.js';
import {
  CHANNEL_READ_ONLY_FIELDS,
  DEFAULT_INTERVAL,
  DEFAULT_MONITOR_TYPE,
  MONITOR_READ_ONLY_FIELDS,
  MONITOR_WRITABLE_FIELDS,
  type ChannelKind,
  type MonitorType,
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
  const problem = requestBodyProblem(operationId, body, MONITOR_READ_ONLY_FIELDS);
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
  const problem = requestBodyProblem('updateChannel', body, CHANNEL_READ_ONLY_FIELDS);
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
