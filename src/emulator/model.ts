// Shared constants of the emulated service. What the OpenAPI document states
// (seeded tokens, accounts and channels, bounds) is read from the document;
// what is kept here is checked against it by the test suite. Nothing here
// loads the document: the CLI imports this module when it starts.

export const API_PREFIX = '/v1';
export const ADMIN_PREFIX = '/__emulator';
export const ADMIN_HEADER = 'x-emulator-admin';

/** Request bodies above this many bytes are answered with 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

export const SCOPES = ['monitors:read', 'monitors:write', 'channels:read', 'channels:write', 'reports:read'] as const;
export type Scope = (typeof SCOPES)[number];

export const MONITOR_TYPES = ['http', 'tcp', 'ping', 'dns'] as const;
export type MonitorType = (typeof MONITOR_TYPES)[number];
export const DEFAULT_MONITOR_TYPE: MonitorType = 'http';

export const MONITOR_STATUSES = ['pending', 'up', 'down', 'paused'] as const;
export type MonitorStatus = (typeof MONITOR_STATUSES)[number];

export const DEFAULT_INTERVAL = 60;

/** Fields a client may send when creating or updating a monitor. */
export const MONITOR_WRITABLE_FIELDS = ['name', 'type', 'target', 'interval_seconds', 'paused'] as const;

export const MONITOR_ID_PREFIX = 'mon_';
export const REPORT_ID_PREFIX = 'rpt_';
export const SUMMARY_REPORT_ID = 'rpt_summary';
/** Lower-case RFC 4648 base32 alphabet; ids are prefix + 12 of these. */
export const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
export const ID_LENGTH = 12;

export const CHANNEL_KINDS = ['email', 'webhook', 'slack'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** Uptime a monitor whose target contains "flaky" reports (any value < 99 would do). */
export const FLAKY_UPTIME = 87.5;
export const REPORT_PERIOD = '24h';

/** List operations: cursor pagination, `limit` items a page by default. */
export const LIST_LIMIT_DEFAULT = 20;

export const DEV_ACCOUNT = 'acct_dev';
export const DEFAULT_DEV_TOKEN = 'cpk_dev_emulator_token';

export interface ChannelRecord {
  id: string;
  name: string;
  kind: ChannelKind;
  enabled: boolean;
  target: string;
  events: string[];
}
