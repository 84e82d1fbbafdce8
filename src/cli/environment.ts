// Every environment variable cpk reads, in one list: `cpk help environment`
// and the ENVIRONMENT section of cpk(1) are made from it, and a test fails when
// src/ reads a CPK_ variable this list does not name.

export interface EnvironmentVariable {
  name: string;
  description: string;
}

export const ENVIRONMENT: readonly EnvironmentVariable[] = [
  { name: 'CPK_TOKEN', description: "the API token (cpk_...); wins over a stored profile's token" },
  {
    name: 'CPK_BASE_URL',
    description: 'the service base URL, as --base-url (default http://127.0.0.1:4010/v1, the emulator)',
  },
  { name: 'CPK_PROFILE', description: 'the stored profile to use, as --profile' },
  {
    name: 'CPK_AGENT',
    description:
      "1: agent mode, as --agent (one JSON document on stdout, no prompt); 0: not even in an agent's environment",
  },
  { name: 'CPK_MAX_TIME', description: "time limit for all of a command's requests, as --max-time" },
  {
    name: 'CPK_MAX_ATTEMPTS',
    description: 'attempts of a request that is safe to repeat, in all (--retries counts the retries)',
  },
  {
    name: 'CPK_CONFIG_DIR',
    description: "where the config file and profiles live (default: the platform's config directory)",
  },
  { name: 'CPK_CACHE_DIR', description: "where the service's cached document and the compile cache live" },
  { name: 'CPK_DATA_DIR', description: 'where the inventory of ids for completion lives' },
  {
    name: 'CPK_TRANSPORT',
    description: 'node or undici: force the HTTP transport (default: node for one request, undici for many)',
  },
  {
    name: 'CPK_EMULATOR_ADMIN_SECRET',
    description: "the emulator's admin secret, as emulator requests --admin-secret",
  },
  {
    name: 'CPK_KEYCHAIN_HELPER',
    description: 'set by cpk itself for its keychain helper process; never set it by hand',
  },
  {
    name: 'HTTPS_PROXY, HTTP_PROXY, NO_PROXY',
    description: 'the proxy to use and the hosts that bypass it, as curl reads them',
  },
  { name: 'NO_COLOR', description: 'no color, as --no-color; FORCE_COLOR forces it' },
  { name: 'CI', description: 'true: no color, no prompts, no spinner' },
  {
    name: 'GITHUB_ACTIONS, GITHUB_STEP_SUMMARY',
    description: 'in GitHub Actions: annotations, and plan and apply summaries for the job',
  },
  { name: 'COLUMNS', description: 'the width of help and tables when the terminal does not say' },
];
