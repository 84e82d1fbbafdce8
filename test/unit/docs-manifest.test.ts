// The manifests a first user copies (the README's and docs/monitors-as-code.md's)
// must be ones cpk accepts, and docs/ci.md's workflow must be valid YAML that
// plans on pull requests and applies on main with CPK_TOKEN from a secret.
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

  it('has a GitHub Actions workflow: plan on pull requests, apply --yes on main, the token from a secret', () => {
    const workflow = parse(yamlBlocks('docs/ci.md')[0]!) as {
      on: Record<string, { branches?: string[] }>;
      jobs: Record<string, { if: string; steps: Array<{ run?: string; env?: Record<string, string> }> }>;
    };
    expect(Object.keys(workflow.on)).toEqual(['pull_request', 'push']);
    expect(workflow.on.push!.branches).toEqual(['main']);
    const { plan, apply } = workflow.jobs;
    expect(plan!.if).toContain("'pull_request'");
    expect(apply!.if).toContain("'push'");
    const run = (job: typeof plan) => job!.steps.find((s) => s.run?.includes('npx cpk'))!;
    expect(run(plan).run).toContain('npx cpk plan');
    expect(run(apply).run).toBe('npx cpk apply --yes --prune');
    expect(run(apply).env).toEqual({ CPK_TOKEN: '${{ secrets.CPK_TOKEN }}' });
    // The plan goes to the pull request as a comment (cpk plan -o markdown).
    expect(run(plan).env).toEqual({ CPK_TOKEN: '${{ secrets.CPK_TOKEN }}', GH_TOKEN: '${{ github.token }}' });
    expect(run(plan).run).toContain('npx cpk plan --prune -o markdown > "$RUNNER_TEMP/plan.md"');
    expect(run(plan).run).toContain(
      'gh pr comment "${{ github.event.pull_request.number }}" --body-file "$RUNNER_TEMP/plan.md"',
    );
  });
});
