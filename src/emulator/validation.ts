// Request-body validation. Pure functions: they never touch the store, so a
// rejected request (400/422) can never leave a half-applied change behind.
// Each check returns the first problem found, in a fixed order, with a message
// that names the offending field.
import { isPlainObject } from '../core/json.js';
import { jsonDepth } from '../core/json.js';
import { isIP } from 'node:net';
import {
  CHANNEL_EVENTS,
  CHANNEL_READ_ONLY_FIELDS,
  CHANNEL_WRITABLE_FIELDS,
  DEFAULT_INTERVAL,
  DEFAULT_MONITOR_TYPE,
  INTERVAL_MAX,
  INTERVAL_MIN,
  MONITOR_READ_ONLY_FIELDS,
  MONITOR_TYPES,
  MONITOR_WRITABLE_FIELDS,
  NAME_MAX_LENGTH,
  TARGET_MAX_LENGTH,
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
export const TARGET_RULE_DESCRIPTIONS = TARGET_RULES;

/** Error message for a target that does not fit the type, or null when it fits. */
export function targetError(type: MonitorType, target: string): string | null {
  if (target.length > TARGET_MAX_LENGTH) return `target must be at most ${TARGET_MAX_LENGTH} characters`;
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

const isMonitorType = (v: unknown): v is MonitorType =>
  typeof v === 'string' && (MONITOR_TYPES as readonly string[]).includes(v);
const isReadOnlyMonitorField = (k: string) => (MONITOR_READ_ONLY_FIELDS as readonly string[]).includes(k);
const isWritableMonitorField = (k: string) => (MONITOR_WRITABLE_FIELDS as readonly string[]).includes(k);

function nameError(value: unknown): string | null {
  if (typeof value !== 'string') return 'name must be a string';
  if (value.trim() === '') return 'name must not be empty';
  if (value.length > NAME_MAX_LENGTH) return `name must be at most ${NAME_MAX_LENGTH} characters`;
  return null;
}

function intervalError(value: unknown): string | null {
  const ok = typeof value === 'number' && Number.isInteger(value) && value >= INTERVAL_MIN && value <= INTERVAL_MAX;
  return ok ? null : `interval_seconds must be an integer between ${INTERVAL_MIN} and ${INTERVAL_MAX}`;
}

/**
 * Validates the fields present in `body` (create or partial update).
 * `current` is the stored monitor for PATCH, so that a type change is checked
 * against the stored target and vice versa.
 */
function checkMonitorBody(body: Record<string, unknown>, current: MonitorInput | null): Result<MonitorChanges> {
  for (const key of Object.keys(body)) {
    if (isReadOnlyMonitorField(key)) return fail(422, `${key} is read-only`);
  }
  const fields: Partial<MonitorInput> = {};
  const extras: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    // defineProperty, not assignment: a "__proto__" key must stay plain data.
    if (!isWritableMonitorField(key))
      Object.defineProperty(extras, key, { value, enumerable: true, writable: true, configurable: true });
  }

  if (Object.hasOwn(body, 'name')) {
    const err = nameError(body.name);
    if (err) return fail(422, err);
    fields.name = body.name as string;
  } else if (current === null) {
    return fail(422, 'name is required');
  }

  if (Object.hasOwn(body, 'type')) {
    if (!isMonitorType(body.type)) return fail(422, `type must be one of ${MONITOR_TYPES.join(', ')}`);
    fields.type = body.type;
  }

  if (Object.hasOwn(body, 'target')) {
    if (typeof body.target !== 'string') return fail(422, 'target must be a string');
    fields.target = body.target;
  }
  const type = fields.type ?? current?.type ?? DEFAULT_MONITOR_TYPE;
  const target = fields.target !== undefined ? fields.target : (current?.target ?? null);
  if (target !== null && (Object.hasOwn(body, 'target') || Object.hasOwn(body, 'type'))) {
    const err = targetError(type, target);
    if (err) return fail(422, err);
  }

  if (Object.hasOwn(body, 'interval_seconds')) {
    const err = intervalError(body.interval_seconds);
    if (err) return fail(422, err);
    fields.interval_seconds = body.interval_seconds as number;
  }

  if (Object.hasOwn(body, 'paused')) {
    if (typeof body.paused !== 'boolean') return fail(422, 'paused must be a boolean');
    fields.paused = body.paused;
  }
  return { ok: true, value: { fields, extras } };
}

export function validateMonitorCreate(
  body: Record<string, unknown>,
): Result<{ input: MonitorInput; extras: Record<string, unknown> }> {
  const checked = checkMonitorBody(body, null);
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
  if (Object.keys(body).length === 0) return fail(422, 'nothing to update');
  return checkMonitorBody(body, current);
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
export const CHANNEL_TARGET_RULE_DESCRIPTIONS: Record<ChannelKind, string> = {
  email: CHANNEL_TARGET_RULES.email.message,
  webhook: CHANNEL_TARGET_RULES.webhook.message,
  slack: CHANNEL_TARGET_RULES.slack.message,
};

/** Channels are a closed object: unknown and read-only fields are rejected (unlike monitors). */
export function validateChannelPatch(body: Record<string, unknown>, kind: ChannelKind): Result<ChannelChanges> {
  const keys = Object.keys(body);
  if (keys.length === 0) return fail(422, 'nothing to update');
  for (const key of keys) {
    if ((CHANNEL_READ_ONLY_FIELDS as readonly string[]).includes(key)) return fail(422, `${key} is read-only`);
    if (!(CHANNEL_WRITABLE_FIELDS as readonly string[]).includes(key)) return fail(422, `unknown field: ${key}`);
  }
  const changes: ChannelChanges = {};
  if (Object.hasOwn(body, 'name')) {
    const err = nameError(body.name);
    if (err) return fail(422, err);
    changes.name = body.name as string;
  }
  if (Object.hasOwn(body, 'enabled')) {
    if (typeof body.enabled !== 'boolean') return fail(422, 'enabled must be a boolean');
    changes.enabled = body.enabled;
  }
  if (Object.hasOwn(body, 'target')) {
    const t = body.target;
    if (typeof t !== 'string') return fail(422, 'target must be a string');
    if (t.length > TARGET_MAX_LENGTH) return fail(422, `target must be at most ${TARGET_MAX_LENGTH} characters`);
    if (!CHANNEL_TARGET_RULES[kind].test(t)) return fail(422, CHANNEL_TARGET_RULES[kind].message);
    changes.target = t;
  }
  if (Object.hasOwn(body, 'events')) {
    const events = body.events;
    const allowed = CHANNEL_EVENTS as readonly string[];
    const message = `events must be an array of distinct values from: ${allowed.join(', ')}`;
    if (!Array.isArray(events)) return fail(422, message);
    if (!events.every((e): e is string => typeof e === 'string' && allowed.includes(e))) return fail(422, message);
    if (new Set(events).size !== events.length) return fail(422, message);
    changes.events = [...events];
  }
  return { ok: true, value: changes };
}
