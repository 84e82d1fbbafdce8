// One manifest, several environments: `${env:NAME}` and `${env:NAME:-default}`
// in manifest values, resolved before anything is planned or sent; an unset
// name is a problem at file:line:col; a variable that holds the token is refused.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useEmulator } from '../helpers/emulator.js';
import { login, sandbox } from '../helpers/sandbox.js';

const f = useEmulator({}, { inProcess: true });

function write(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'cpk-env-')), 'cpk.yaml');
  writeFileSync(file, text);
  return file;
}

const MANIFEST = [
  'monitors:',
  '  shop:',
  '    name: Shop ${env:STAGE}',
  '    target: https://${env:SHOP_HOST}/health',
  '    interval_seconds: ${env:INTERVAL:-60}',
  '    budget: ${env:BUDGET}',
  "    note: '${env:STAGE}'",
  '    literal: $${env:STAGE}',
  '',
].join('\n');

describe('${env:NAME} in a manifest', () => {
  it('plan shows the resolved values; apply sends them, numbers exactly as the variable holds them', async () => {
    const file = write(MANIFEST);
    const env = { STAGE: 'staging', SHOP_HOST: 'shop.staging.example.com', BUDGET: '1234567890123456789' };
    const plan = await f.cpk(['plan', '-f', file], { env });
    expect(plan.code).toBe(10);
    expect(plan.stdout.split('\n').slice(2, 9)).toEqual([
      '+ shop: create',
      '    name: "Shop staging"',
      '    target: "https://shop.staging.example.com/health"',
      '    interval_seconds: 60',
      '    budget: 1234567890123456789',
      '    note: "staging"',
      '    literal: "${env:STAGE}"',
    ]);
    const sent = f.mark();
    expect((await f.cpk(['apply', '-f', file, '--yes'], { env: { ...env, INTERVAL: '300' } })).code).toBe(0);
    expect(
      sent()
        .filter((q) => q.method === 'POST')
        .map((q) => q.body),
    ).toEqual([
      '{"name":"Shop staging","target":"https://shop.staging.example.com/health","interval_seconds":300,' +
        '"budget":1234567890123456789,"note":"staging","literal":"${env:STAGE}"}',
    ]);
  });

  it('an unset name without a default is a problem where it is written; nothing is sent', async () => {
    const file = write(MANIFEST);
    const sent = f.mark();
    const r = await f.cpk(['plan', '-f', file], { env: { STAGE: 'prod' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      [
        `${file}:4:13: SHOP_HOST is not set, and \${env:SHOP_HOST} gives no default (write \${env:SHOP_HOST:-value} to give one)`,
        `${file}:6:13: BUDGET is not set, and \${env:BUDGET} gives no default (write \${env:BUDGET:-value} to give one)`,
        `cpk: ${file} is not a valid manifest (2 problems); nothing was sent`,
        '',
      ].join('\n'),
    );
    expect(sent().filter((q) => q.path !== '/v1/openapi.json')).toEqual([]);
  });

  it('a variable that holds the token is refused: CPK_TOKEN, one equal to it, or the token of a profile', async () => {
    const file = write('monitors:\n  leak:\n    name: leak\n    target: https://x.example.com/?t=${env:SECRET}\n');
    for (const [name, env] of [
      ['CPK_TOKEN', {}],
      ['SECRET', { SECRET: f.emu.token }],
    ] as const) {
      const text = file.replace(/cpk\.yaml$/, `${name}.yaml`);
      writeFileSync(text, `monitors:\n  leak:\n    name: leak\n    target: https://x.example.com/?t=\${env:${name}}\n`);
      const r = await f.cpk(['plan', '-f', text], { env });
      expect(r.code).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe(
        `${text}:4:13: \${env:${name}}: ${name} holds the API token, which must never be sent in a monitor's fields`,
      );
      expect(r.stderr).not.toContain(f.emu.token);
    }
    // The token of a signed-in profile, not in the environment: refused once cpk knows it.
    const s = sandbox({}, { inProcess: true });
    expect((await login(s, f.emu.token, ['--base-url', f.emu.baseUrl])).code).toBe(0);
    const sent = f.mark();
    const r = await s.cpk(['apply', '-f', file, '--yes'], { env: { SECRET: f.emu.token } });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      `${file}:4:13: \${env:SECRET}: SECRET holds the API token, which must never be sent in a monitor's fields`,
    );
    expect(r.stderr).not.toContain(f.emu.token);
    expect(sent().filter((q) => q.method !== 'GET')).toEqual([]);
  });
});
