// The manifests a first user copies (the README's and docs/monitors-as-code.md's)
// must be ones cpk accepts, and docs/ci.md's workflow must be valid YAML that
// validates, plans on pull requests and applies on main through the action,
// with CPK_TOKEN from a secret (scripts/actionlint.mjs lints it too).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { parseManifest } from '../../src/manifest/positions.js';

const yamlBlocks = (file: string): string[] =>
  [...readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8').matchAll(/```yaml\n([\s\S]*?)```/g)].map(
    (m) => m[1]!,
  );

describe('the documented manifests and workflow', () => {
  it("the README's manifest is one cpk accepts", () => {
    const manifest = parseManifest(yamlBlocks('README.md')[0]!, 'README.md');
    expect(manifest.monitors.map((m) => m.key)).toEqual(['checkout-api']);
    expect(manifest.monitors[0]!.body.interval_seconds).toBe(60);
  });

  it('docs/monitors-as-code.md has a manifest cpk accepts', () => {
    const manifest = parseManifest(yamlBlocks('docs/monitors-as-code.md')[0]!, 'docs/monitors-as-code.md');
    expect(manifest.monitors.map((m) => m.key)).toEqual(['checkout-api', 'search']);
    expect(manifest.monitors[0]!.body.interval_seconds).toBe(60);
    expect(manifest.channels.map((c) => c.id)).toEqual(['ch_ops']);
  });

  it('has a GitHub Actions workflow: validate always, plan on pull requests, apply --yes on main, through the action with the token from a secret', () => {
    type Step = { uses?: string; with?: Record<string, string>; run?: string; env?: Record<string, string> };
    const workflow = parse(yamlBlocks('docs/ci.md')[0]!) as {
      on: Record<string, unknown>;
      jobs: Record<string, { if?: string; steps: Step[] }>;
    };
    expect(Object.keys(workflow.on)).toEqual(['pull_request', 'push']);
    const { validate, plan, apply } = workflow.jobs;
    expect(validate!.if).toBeUndefined();
    expect(plan!.if).toContain("'pull_request'");
    expect(apply!.if).toContain("'push'");
    expect(apply!.if).toContain("github.ref == 'refs/heads/main'");
    // cpk comes from the action, pinned to this version, the token from the secret.
    const version = (
      JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
    ).version;
    const action = (job: typeof plan) => job!.steps.find((s) => s.uses?.startsWith('cpk-cli/cpk@'))!;
    for (const job of [validate, plan, apply]) expect(action(job).uses).toBe(`cpk-cli/cpk@v${version}`);
    expect(action(validate).with).toEqual({ 'base-url': 'https://api.example.com/v1' });
    for (const job of [plan, apply])
      expect(action(job).with).toEqual({ 'base-url': 'https://api.example.com/v1', token: '${{ secrets.CPK_TOKEN }}' });
    const run = (job: typeof plan, command: string) => job!.steps.find((s) => s.run?.includes(command))!;
    expect(run(validate, 'cpk validate').run).toBe('cpk validate');
    expect(run(apply, 'cpk apply').run).toBe('cpk apply --yes --prune');
    // The plan goes to the pull request as a comment; cpk puts it in the job's summary itself, once.
    expect(run(plan, 'cpk plan').env).toEqual({ GH_TOKEN: '${{ github.token }}' });
    expect(run(plan, 'cpk plan').run).toContain('cpk plan --prune -o markdown > "$RUNNER_TEMP/plan.md"');
    expect(run(plan, 'cpk plan').run).toContain(
      'gh pr comment "${{ github.event.pull_request.number }}" --body-file "$RUNNER_TEMP/plan.md"',
    );
    expect(run(apply, 'cpk monitors wait').run).toContain('cpk monitors wait - --for status=up --timeout 5m');
    // The gate is cpk's own --assert.
    expect(run(apply, 'cpk reports get').run).toBe("cpk reports get rpt_checkout --assert 'uptime_percent >= `99.5`'");
  });
});
