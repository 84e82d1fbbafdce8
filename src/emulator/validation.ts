// Request-body validation. Pure functions: they never touch the store, so a rejected request (400/422) can never
// leave a half-applied change behind. A body's shape is the OpenAPI document's (contract.ts); only what a schema
// cannot say is written here: that a target fits the monitor's type or the channel's kind.
import { isIP } from 'node:net';
import { isPlainObject, jsonDepth, parseJson } from '../core/json.js';
import { bodyProblem } from './contract.js';
import { Refusal } from './respond.js';
import type { MonitorRecord } from './store.js';
import { DEFAULT_MONITOR_TYPE, type ChannelKind, type MonitorType } from './model.js';

/** The deepest nesting a request body may have (deeper is 400, before anything is stored). */
const MAX_BODY_DEPTH = 64;

/**
 * Parses a request body that must be a JSON object; why it is not one is a 400
 * Refusal. `exact`: numbers a double cannot hold as written are ExactNumbers.
 */
export function parseJsonObject(text: string, options: { exact?: boolean } = {}): Record<string, unknown> {
  if (text.trim() === '') throw new Refusal(400, 'request body is empty; expected a JSON object');
  if (jsonDepth(text) > MAX_BODY_DEPTH)
    throw new Refusal(400, `request body nests deeper than ${MAX_BODY_DEPTH} levels`);
  let parsed: unknown;
  if (options.exact) {
    const read = parseJson(text);
    if (!read.ok) throw new Refusal(400, 'malformed JSON body');
    parsed = read.value;
  } else {
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Refusal(400, 'malformed JSON body');
    }
  }
  if (!isPlainObject(parsed)) throw new Refusal(400, 'request body must be a JSON object');
  return parsed;
}

const HOSTNAME =
  /^(?=.{1,253}\.?$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/;

function isHost(host: string): boolean {
  return HOSTNAME.test(host) || isIP(host) !== 0;
}

/** The host of "host:port" / "[v6]:port" (port 1-65535); null when the shape is wrong. */
function hostOfHostPort(target: string): string | null {
  const bracketed = /^\[([^\]]+)\]:(\d{1,5})$/.exec(target);
  const match = bracketed ?? /^([^:[\]]+):(\d{1,5})$/.exec(target);
  const [, host = '', port = '0'] = match ?? [];
  if (!match || (bracketed ? isIP(host) !== 6 : !isHost(host))) return null;
  return Number(port) >= 1 && Number(port) <= 65535 ? host : null;
}

const TARGET_RULES: Record<MonitorType, string> = {
  http: 'target must be an http:// or https:// URL for type http',
  tcp: 'target must be host:port (port 1-65535) for type tcp',
  ping: 'target must be a hostname or IP address for type ping',
  dns: 'target must be a hostname or IP address for type dns',
};

/** The host a target designates (all the simulated check looks at), or null when it is invalid for the type. */
export function hostOfTarget(type: MonitorType, target: string): string | null {
  if (/\s/.test(target) || target === '') return null;
  switch (type) {
    case 'http':
      return /^https?:\/\//i.test(target) && URL.canParse(target) ? new URL(target).hostname || null : null;
    case 'tcp':
      return hostOfHostPort(target);
    case 'ping':
    case 'dns':
      return isHost(target) ? target : null;
  }
}

/**
 * The first problem of a monitor body (create, or PATCH against the stored `current`), or null: the document's,
 * then that the target fits the type; a type change is checked against the stored target and vice versa.
 */
export function monitorProblem(body: Record<string, unknown>, current?: MonitorRecord): string | null {
  return bodyProblem(current ? 'updateMonitor' : 'createMonitor', body, (field) => {
    if (field !== 'target' || !(Object.hasOwn(body, 'target') || Object.hasOwn(body, 'type'))) return null;
    const type = (body.type ?? current?.type ?? DEFAULT_MONITOR_TYPE) as MonitorType;
    const target = Object.hasOwn(body, 'target') ? (body.target as string) : (current?.target ?? null);
    return target !== null && hostOfTarget(type, target) === null ? TARGET_RULES[type] : null;
  });
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

/** The first problem of a channel body (a closed object, unlike a monitor), or null; here, the target's fit. */
export function channelProblem(body: Record<string, unknown>, kind: ChannelKind): string | null {
  const rule = CHANNEL_TARGET_RULES[kind];
  return bodyProblem(
    'updateChannel',
    body,
    (field) => (field === 'target' && typeof body.target === 'string' && !rule.test(body.target) ? rule.message : null),
    ['id', 'kind'],
  );
}
