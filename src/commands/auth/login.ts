import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../core/errors.js';
import { readAll } from '../../core/io.js';
import { profileBaseUrl, profileRecord, resolveBaseUrl, selectProfile, type Resolved } from '../../config/resolve.js';
import { checkTokenInput } from '../../config/token-input.js';
import type { ConfigData } from '../../config/schema.js';
import { action, describe, type RawOptions, type Runtime } from '../../cli/action.js';

/** commander's raw values to the options; withToken: read the token from stdin instead of prompting. */
export function parseLoginOptions(raw: RawOptions) {
  return {
    withToken: raw.withToken === true,
    verify: raw.verify !== false,
    insecureStorage: raw.insecureStorage === true,
  };
}

export function register(parent: Command, runtime: Runtime): void {
  const cmd = parent
    .command('login')
    .description(
      'Store a token for a profile (asks for it on a terminal; there is no flag that takes the token itself)',
    )
    .option('--with-token', 'read the token from stdin (for scripts)')
    .option('--no-verify', 'store the token without checking it against the service (offline set-up)')
    .option(
      '--insecure-storage',
      'store the token in the config file (mode 0600) even when a system keychain is available',
    )
    .action(action(runtime, (ctx, _args, opts) => run(parseLoginOptions(opts), ctx)));
  describe(cmd, {
    effect: 'write',
    examples: [
      'cpk auth login                         # asks for the token, hidden',
      'echo "$TOKEN" | cpk auth login --with-token --base-url "$SERVICE_URL"',
      'cpk auth login --profile staging --base-url https://staging.example.com',
    ],
  });
}

/** Which profile a login writes, and the base URL it is for (flag > environment > the profile's own > default). */
function loginTarget(ctx: Context, data: ConfigData): { name: string; baseUrl: Resolved<string> } {
  const choice = selectProfile(ctx.globals.profile, ctx.env, data) ?? {
    name: 'default',
    source: 'current profile' as const,
    record: profileRecord(data, 'default'),
  };
  const baseUrl = resolveBaseUrl(ctx.globals.baseUrl, ctx.env, choice);
  // A login that did not name its profile must not re-point an existing one at another service.
  if (
    choice.source === 'current profile' &&
    choice.record &&
    new URL(baseUrl.value).origin !== new URL(profileBaseUrl(choice)).origin
  ) {
    throw new UsageError(
      `profile "${choice.name}" is for ${profileBaseUrl(choice)}, not ${baseUrl.value} (from ${baseUrl.source})`,
      {
        hint: `name the profile for ${baseUrl.value}: cpk auth login --profile NAME`,
      },
    );
  }
  return { name: choice.name, baseUrl };
}

export async function run(opts: ReturnType<typeof parseLoginOptions>, ctx: Context): Promise<void> {
  const [{ loadConfig }, { saveToken }] = await Promise.all([
    import('../../config/file.js'),
    import('../../config/profiles.js'),
  ]);
  // A broken config file stops here, before anyone types a token for nothing.
  const loaded = loadConfig(ctx.env, (text) => ctx.out.warn(text));
  const { name, baseUrl } = loginTarget(ctx, loaded.data);

  if (!opts.withToken && !ctx.io.stdinIsTTY)
    throw new UsageError('stdin is not a terminal, so cpk cannot ask for the token', {
      hint: 'pipe it in: echo "$TOKEN" | cpk auth login --with-token',
    });
  const raw = opts.withToken
    ? await readAll(ctx.io.stdin, 64 * 1024, 'the token on stdin')
    : await askToken(ctx, `Token for profile "${name}" (${baseUrl.value}), input hidden: `);
  const token = checkTokenInput(raw, opts.withToken ? 'stdin' : 'the prompt');

  if (opts.verify) {
    const [{ probeToken, explainProbeFailure }, api] = await Promise.all([
      import('../../core/api/probe.js'),
      ctx.api({ credentials: { baseUrl: baseUrl.value, token } }),
    ]);
    try {
      await ctx.out.spin('Checking the token', () => probeToken(api));
    } catch (error) {
      throw explainProbeFailure(error, 'nothing was stored', 'to store it without checking, add --no-verify');
    }
    ctx.out.info(`The service at ${baseUrl.value} accepted the token.`);
  }

  const saved = await saveToken({
    env: ctx.env,
    profile: name,
    baseUrl: baseUrl.value,
    token,
    insecureStorage: opts.insecureStorage,
    secrets: () => ctx.secrets(),
    warn: (text) => ctx.out.warn(text),
  });
  const file = saved.location.file;
  if (saved.storage === 'keychain') {
    ctx.out.info(`Token stored in the ${saved.keychainName}.`);
  } else if (opts.insecureStorage) {
    ctx.out.info(`Token stored in ${file} (mode 0600, readable only by you), as --insecure-storage asks.`);
  } else {
    if (saved.fallbackReason) ctx.out.debug(`keychain: ${saved.fallbackReason}`);
    ctx.out.warn(
      `no system keychain is available (${saved.fallbackWords ?? 'none answered'}); the token is stored in plain text in ${file} (mode 0600, readable only by you)`,
    );
  }
  const use = saved.current
    ? ' (the current profile)'
    : `; use it with --profile ${name} or \`cpk profile use ${name}\``;
  // Unchecked, it is only stored: the first command that sends it will tell whether it works.
  ctx.out.info(
    opts.verify
      ? `Logged in: profile "${name}" at ${baseUrl.value}${use}.`
      : `Token stored, not checked (--no-verify): profile "${name}" at ${baseUrl.value}${use}; \`cpk auth status\` checks it.`,
  );
  if (ctx.env.CPK_TOKEN?.trim())
    ctx.out.warn(
      `CPK_TOKEN is set in this environment and still wins over the stored token; unset CPK_TOKEN to use profile "${name}"`,
    );
  if (ctx.out.json)
    ctx.out.printJson({
      profile: name,
      base_url: baseUrl.value,
      current: saved.current,
      verified: opts.verify,
      token_storage: saved.storage,
      keychain: saved.keychainName ?? null,
      config_file: file,
    });
}

/** How many times an empty answer at the prompt is asked again before giving up. */
const PROMPT_TRIES = 3;

/** The hidden prompt, asked again on an empty answer (Enter pressed before pasting), a bounded number of times. */
async function askToken(ctx: Context, question: string): Promise<string> {
  for (let i = 1; ; i++) {
    const answer = await ctx.out.promptSecret(question);
    if (answer.trim() !== '' || i === PROMPT_TRIES) return answer;
    ctx.out.info('No token entered; paste it and press Enter (Ctrl-C to stop).');
  }
}
