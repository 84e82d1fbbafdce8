import type { Command } from 'commander';
import type { Context } from '../../cli/context.js';
import { NetworkError } from '../../core/errors.js';
import { maskToken } from '../../core/token.js';
import { hasToken } from '../../config/schema.js';
import type { Session } from '../../config/session.js';
import { action, describe, type Runtime } from '../../cli/action.js';

export function register(parent: Command, runtime: Runtime): void {
  const cmd = parent
    .command('status')
    .description(
      'Show the profile in use and why, its base URL, where the token comes from (masked), and whether the service accepts it',
    )
    .action(action(runtime, (ctx) => run(ctx)));
  describe(cmd, {
    effect: 'read',
    synonyms: ['whoami'],
    examples: ['cpk auth status', 'cpk auth status --profile staging --json'],
  });
}

function tokenSource(session: Session, keychainName: string): string | null {
  const token = session.token;
  if (!token) return null;
  if (token.origin === 'env') {
    const shadowed =
      session.profile && hasToken(session.profile.record)
        ? ` (over the token stored for profile "${session.profile.name}")`
        : '';
    return `CPK_TOKEN${shadowed}`;
  }
  return `${token.source}, ${token.origin === 'keychain' ? keychainName : 'config file'}`;
}

export async function run(ctx: Context): Promise<void> {
  const session = await ctx.session();
  // As --json prints it; accepted: true, false (401/403), or null (not checked, or could not be).
  const report = {
    profile: session.profile?.name ?? null,
    profile_source: session.profile?.source ?? null,
    base_url: session.baseUrl.value,
    base_url_source: session.baseUrl.source,
    token: session.token ? maskToken(session.token.value) : null,
    token_source: tokenSource(session, session.token?.origin === 'keychain' ? (await ctx.secrets()).name : ''),
    config_file: session.location.file,
    accepted: null as boolean | null,
    check: session.token ? '' : 'no token to check',
  };
  let problem: unknown = session.tokenProblem;
  if (session.token) {
    const [{ probeToken, explainProbeFailure }, api] = await Promise.all([
      import('../../core/api/probe.js'),
      ctx.api({ credentials: { baseUrl: session.baseUrl.value, token: session.token.value } }),
    ]);
    try {
      const probe = await ctx.out.spin('Checking the token', () => probeToken(api));
      report.accepted = true;
      report.check = `accepted (${probe.method} ${probe.url} answered ${probe.status}, as expected for a probe id)`;
    } catch (error) {
      problem = explainProbeFailure(error, 'the token is not usable now');
      report.accepted = error instanceof NetworkError ? null : false;
      report.check = problem instanceof Error ? problem.message : String(problem);
    }
  }

  if (ctx.out.json) ctx.out.printJson(report);
  else
    await ctx.out.print({
      profile: report.profile ? `${report.profile} (from ${report.profile_source})` : 'none',
      base_url: `${report.base_url} (from ${report.base_url_source})`,
      token: report.token ? `${report.token} (from ${report.token_source})` : 'none',
      config_file: report.config_file,
      service: report.check,
    });
  // The status is printed either way; the exit code says whether the token works (4 none or 401, 5 403, 3 unreachable).
  if (problem) throw problem;
}
