// `cpk doctor`: the checklist a support ticket wants. Each check passes or
// says how to fix it. It creates nothing and sends only GETs; the modes are
// read before anything else, since reading the config (as every command does)
// tightens a file others can read.
import { statSync } from 'node:fs';
import type { Context } from './context.js';
import { CpkError, NetworkError } from '../core/errors.js';
import { emulatorHint } from './guidance.js';
import { describeError } from '../output/errors.js';
import { proxySettings } from '../core/http/proxy.js';
import { trustProblem } from '../config/file.js';
import pkg from '../../package.json' with { type: 'json' };
import type { Env } from '../core/paths.js';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  /** The check could not run (what it needs failed first): neither passed nor failed. */
  skipped?: boolean;
  /** What to do about it, when it did not pass. */
  fix?: string | undefined;
}

/** The minimum Node.js, from package.json's engines.node (">=x.y.z"): one source of truth (README, "Supported Node versions"). */
const MIN_NODE = pkg.engines.node.replace(/^>=\s*/, '');
/** More clock difference than this makes expiry checks and logs confusing. */
const MAX_SKEW_SECONDS = 60;

export function checkNode(version: string): Check {
  // Numeric collation compares each run of digits as a number: 20.9 < 20.19.
  const ok = version.replace(/^v/, '').localeCompare(MIN_NODE, 'en', { numeric: true }) >= 0;
  return {
    name: 'Node.js',
    ok,
    detail: `${version} (cpk needs >= ${MIN_NODE})`,
    fix: ok ? undefined : `install Node.js ${MIN_NODE} or newer`,
  };
}

/** A mode check: private (nothing for group and others), or the fix. */
function modeCheck(name: string, path: string, fix: string): Check | undefined {
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch {
    return undefined;
  }
  const ok = (mode & 0o077) === 0;
  return {
    name,
    ok,
    detail: `${path} (mode ${(mode & 0o777).toString(8).padStart(4, '0')})`,
    fix: ok ? undefined : fix,
  };
}

/** The config file and its directory: present or not, and private. Reads modes only. */
export function checkConfigFile(file: string, dir: string, customDir: boolean): Check[] {
  const fileCheck = modeCheck('Config file', file, `others can read it: chmod 600 '${file}'`);
  if (!fileCheck) return [{ name: 'Config file', ok: true, detail: `none at ${file} (flags and environment only)` }];
  // Another user's file, or one others can write, is refused by every command (src/config/file.ts).
  const distrust = trustProblem(file, dir);
  if (distrust) return [{ name: 'Config file', ok: false, detail: `${file} ${distrust.problem}`, fix: distrust.fix }];
  const dirCheck = customDir ? undefined : modeCheck('Config directory', dir, `chmod 700 '${dir}'`);
  return dirCheck ? [fileCheck, dirCheck] : [fileCheck];
}

function checkProxies(env: Env): Check {
  let settings: ReturnType<typeof proxySettings>;
  try {
    settings = proxySettings(env);
  } catch (error) {
    // Not a URL, or a scheme cpk does not speak (socks5://): the check fails with the reason.
    return { name: 'Proxy', ok: false, detail: (error as Error).message, fix: (error as CpkError).hint };
  }
  if (!settings) return { name: 'Proxy', ok: true, detail: 'none (HTTPS_PROXY, HTTP_PROXY unset)' };
  // proxySettings refused any value that is not an http:// or https:// URL.
  const shown = (name: string, value: string) => (value ? [`${name}=${new URL(value).origin}`] : []);
  const detail = [
    ...shown('HTTPS_PROXY', settings.httpsProxy),
    ...shown('HTTP_PROXY', settings.httpProxy),
    ...(settings.noProxy ? [`NO_PROXY=${settings.noProxy}`] : []),
  ];
  return { name: 'Proxy', ok: true, detail: detail.join(', ') };
}

export function checkSkew(serverDate: string | undefined, now: number): Check {
  const server = serverDate ? Date.parse(serverDate) : Number.NaN;
  if (Number.isNaN(server))
    return { name: 'Clock', ok: true, skipped: true, detail: 'not checked: the server sent no Date header' };
  const skew = Math.round((now - server) / 1000);
  // The Date header has whole seconds: allow that, plus the request's time.
  const ok = Math.abs(skew) <= MAX_SKEW_SECONDS;
  return {
    name: 'Clock',
    ok,
    detail: `${Math.abs(skew)}s ${skew >= 0 ? 'ahead of' : 'behind'} the server (at most ${MAX_SKEW_SECONDS}s)`,
    fix: ok ? undefined : 'set the clock right: enable NTP (e.g. `timedatectl set-ntp true`)',
  };
}

/** A failed check: the error's message as the detail, its next step as the fix (each said once). */
function failed(name: string, error: unknown, hint?: string, fallback?: string): Check {
  if (!(error instanceof CpkError)) return { name, ok: false, detail: describeError(error).message, fix: fallback };
  const { message } = describeError(new CpkError(error.message, error.exitCode));
  return { name, ok: false, detail: message, fix: hint ?? error.hint ?? fallback };
}

/** Runs every check in order; a check that cannot run says why. */
export async function runChecks(ctx: Context): Promise<Check[]> {
  const checks: Check[] = [checkNode(process.versions.node)];
  const { configLocation } = await import('../core/paths.js');
  const location = configLocation(ctx.env);
  checks.push(...checkConfigFile(location.file, location.dir, location.custom));

  let session;
  try {
    session = await ctx.session();
  } catch (error) {
    checks.push(failed('Profile and base URL', error), checkProxies(ctx.env));
    return checks;
  }
  const profile = session.profile ? `profile ${session.profile.name} (from ${session.profile.source}); ` : '';
  checks.push({
    name: 'Profile and base URL',
    ok: true,
    detail: `${profile}${session.baseUrl.value} (from ${session.baseUrl.source})`,
  });
  const proxies = checkProxies(ctx.env);
  checks.push(proxies);
  // A proxy setting cpk refuses would refuse every request below as well.
  if (!proxies.ok) return checks;

  // Reachable, and the public document answers: its version, and the server's clock.
  const anonymous = await ctx.api({ credentials: { baseUrl: session.baseUrl.value, token: '' } });
  let unreachable = false;
  try {
    const res = await anonymous.fetchOpenApi({});
    const doc = (res.body ?? {}) as { openapi?: unknown; info?: { version?: unknown; title?: unknown } };
    const ok = typeof doc.openapi === 'string';
    checks.push({
      name: 'Service',
      ok,
      detail: ok
        ? `reachable; openapi.json: OpenAPI ${String(doc.openapi)}, API version ${String(doc.info?.version ?? 'not given')}`
        : 'reachable, but openapi.json is not an OpenAPI document',
      fix: ok ? undefined : 'check the base URL (it usually ends in /v1)',
    });
    checks.push(checkSkew(res.headers.date, Date.now()));
  } catch (error) {
    checks.push(failed('Service', error, emulatorHint(error, session.baseUrl.value)));
    unreachable = error instanceof NetworkError;
    // The clock is read from the service's answer: none came.
    checks.push({ name: 'Clock', ok: true, skipped: true, detail: 'not checked: the service did not answer' });
  }

  // The token: present, prefixed (resolving the session checked it), accepted.
  if (!session.token) {
    // Without a token, resolving the session said why (src/config/session.ts).
    checks.push(failed('Token', session.tokenProblem, undefined, 'set CPK_TOKEN, or run `cpk auth login`'));
    return checks;
  }
  if (unreachable) {
    checks.push({ name: 'Token', ok: true, skipped: true, detail: 'not checked: the service did not answer' });
    return checks;
  }
  const { maskToken } = await import('../core/token.js');
  const masked = `${maskToken(session.token.value)} from ${session.token.source}`;
  const { probeToken } = await import('../core/api/probe.js');
  const api = await ctx.api({ credentials: { baseUrl: session.baseUrl.value, token: session.token.value } });
  try {
    await probeToken(api);
    checks.push({ name: 'Token', ok: true, detail: `${masked}: accepted by the service` });
  } catch (error) {
    const check = failed('Token', error, undefined, 'get a new token and run `cpk auth login` (or set CPK_TOKEN)');
    checks.push({ ...check, detail: `${masked}: ${check.detail}` });
  }
  return checks;
}
