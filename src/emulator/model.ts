// Shared constants of the emulated service. The store, the validators and the
// OpenAPI document all read them from here, so the published document cannot
// drift from what the emulator actually enforces.

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

export const NAME_MAX_LENGTH = 200;
export const TARGET_MAX_LENGTH = 2048;
export const INTERVAL_MIN = 30;
export const INTERVAL_MAX = 86400;
export const DEFAULT_INTERVAL = 60;

/** Fields the server owns: sending any of them in a monitor body is a 422. */
export const MONITOR_READ_ONLY_FIELDS = [
  'id',
  'status',
  'created_at',
  'updated_at',
  'last_check',
  'report_id',
] as const;
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
export const CHANNEL_EVENTS = ['down', 'up', 'paused', 'resumed'] as const;
export const CHANNEL_WRITABLE_FIELDS = ['name', 'enabled', 'target', 'events'] as const;
export const CHANNEL_READ_ONLY_FIELDS = ['id', 'kind'] as const;

/** Uptime a monitor whose target contains "flaky" reports (any value < 99 would do). */
export const FLAKY_UPTIME = 87.5;
export const REPORT_PERIOD = '24h';

/** List operations: cursor pagination, `limit` items a page (default and bound). */
export const LIST_LIMIT_DEFAULT = 20;
export const LIST_LIMIT_MAX = 100;

export const DEV_ACCOUNT = 'acct_dev';
export const OTHER_ACCOUNT = 'acct_other';
export const SUSPENDED_ACCOUNT = 'acct_suspended';
export const DEFAULT_DEV_TOKEN = 'cpk_dev_emulator_token';

export interface SeededToken {
  token: string;
  account: string;
  scopes: readonly Scope[];
  expired?: boolean;
  revoked?: boolean;
  /** What a user gets when calling the API with it; published in the OpenAPI document. */
  behaviour: string;
}

/** Tokens that exist in every emulator besides the development token. */
export const SEEDED_TOKENS: readonly SeededToken[] = [
  {
    token: 'cpk_test_other',
    account: OTHER_ACCOUNT,
    scopes: SCOPES,
    behaviour: 'valid, all scopes, another account (acct_other): acct_dev resources answer 404 (isolation)',
  },
  {
    token: 'cpk_test_readonly',
    account: DEV_ACCOUNT,
    scopes: ['monitors:read', 'reports:read'],
    behaviour: 'valid for acct_dev with monitors:read and reports:read only: writes answer 403',
  },
  {
    token: 'cpk_test_expired',
    account: DEV_ACCOUNT,
    scopes: SCOPES,
    expired: true,
    behaviour: 'expired: every authenticated request answers 401 "token expired"',
  },
  {
    token: 'cpk_test_revoked',
    account: DEV_ACCOUNT,
    scopes: SCOPES,
    revoked: true,
    behaviour: 'revoked: every authenticated request answers 401 "token revoked"',
  },
  {
    token: 'cpk_test_suspended',
    account: SUSPENDED_ACCOUNT,
    scopes: SCOPES,
    behaviour:
      'valid but its account acct_suspended is suspended: every authenticated request answers 403 "account suspended"',
  },
];

export const ACCOUNTS: ReadonlyArray<{ id: string; suspended: boolean }> = [
  { id: DEV_ACCOUNT, suspended: false },
  { id: OTHER_ACCOUNT, suspended: false },
  { id: SUSPENDED_ACCOUNT, suspended: true },
];

export interface ChannelRecord {
  id: string;
  name: string;
  kind: ChannelKind;
  enabled: boolean;
  target: string;
  events: string[];
}

/** Channels cannot be created through the interface, so every account starts with these. */
export const SEEDED_CHANNELS: readonly ChannelRecord[] = [
  {
    id: 'ch_ops',
    name: 'Ops mailbox',
    kind: 'email',
    enabled: true,
    target: 'ops@example.com',
    events: ['down', 'up'],
  },
  {
    id: 'ch_oncall',
    name: 'On-call webhook',
    kind: 'webhook',
    enabled: true,
    target: 'https://hooks.example.com/oncall',
    events: ['down'],
  },
  {
    id: 'ch_slack',
    name: 'Slack #alerts',
    kind: 'slack',
    enabled: false,
    target: '#alerts',
    events: ['down', 'up', 'paused', 'resumed'],
  },
];

/** Which scope each operation needs (operation ids match the OpenAPI document). */
export const OPERATION_SCOPES = {
  createMonitor: 'monitors:write',
  getMonitor: 'monitors:read',
  updateMonitor: 'monitors:write',
  deleteMonitor: 'monitors:write',
  updateChannel: 'channels:write',
  getReport: 'reports:read',
  listMonitors: 'monitors:read',
  listChannels: 'channels:read',
  listReports: 'reports:read',
} as const satisfies Record<string, Scope>;
export type OperationId = keyof typeof OPERATION_SCOPES;
