// The README's "Monitors as code" section is a first user's path: its
// manifest must be one cpk accepts, and its workflow must be valid YAML that
// plans on pull requests and applies on main with CPK_TOKEN from a secret.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { parseManifest } from '../../src/manifest/positions.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const section = readme.slice(
  readme.indexOf('## Monitors as code'),
  readme.indexOf('\n## ', readme.indexOf('## Monitors as code') + 1),
);
const yamlBlocks = [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);

describe('README: Monitors as code', () => {
  it('has a manifest cpk accepts', () => {
    const manifest = parseManifest(yamlBlocks[0]!, 'README.md');
    expect(manifest.monitors.map((m) => m.key)).toEqual(['checkout-api', 'search']);
    expect(manifest.monitors[0]!.body.interval_seconds).toBe(60);
    expect(manifest.channels.map((c) => c.id)).toEqual(['ch_ops']);
  });

  it('has a GitHub Actions workflow: plan on pull requests, apply --yes on main, the token from a secret', () => {
    const workflow = parse(yamlBlocks[1]!) as {
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
    // The plan goes to the pull request as a comment (cpk plan -o markdown, issue 15).
    expect(run(plan).env).toEqual({ CPK_TOKEN: '${{ secrets.CPK_TOKEN }}', GH_TOKEN: '${{ github.token }}' });
    expect(run(plan).run).toContain('npx cpk plan --prune -o markdown > "$RUNNER_TEMP/plan.md"');
    expect(run(plan).run).toContain(
      'gh pr comment "${{ github.event.pull_request.number }}" --body-file "$RUNNER_TEMP/plan.md"',
    );
  });
});
