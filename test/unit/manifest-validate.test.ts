// Manifest entries against the bodies a service's document declares (#15):
// src/manifest/validate.ts with documents built here and the emulator's own.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeSpec } from '../../src/core/api/spec.js';
import { buildOpenApiDocument } from '../../src/emulator/openapi.js';
import { parseManifest } from '../../src/manifest/positions.js';
import { validateEntries, problemLine } from '../../src/manifest/validate.js';

const emulator = analyzeSpec(buildOpenApiDocument('http://127.0.0.1:1/v1'));

/** What a manifest's text gives against a document. */
async function check(text: string, document: unknown = buildOpenApiDocument('http://127.0.0.1:1/v1')) {
  const manifest = parseManifest(text, 'm.yaml');
  const debug: string[] = [];
  const { problems, checked } = await validateEntries(manifest, analyzeSpec(document), (line) => debug.push(line));
  return { lines: problems.map(problemLine), checked, debug };
}

/** The same through a real file. */
async function checkFile(text: string, document?: unknown) {
  const dir = mkdtempSync(join(tmpdir(), 'cpk-validate-unit-'));
  const file = join(dir, 'm.yaml');
  writeFileSync(file, text);
  const manifest = parseManifest(text, file);
  const { problems, checked } = await validateEntries(
    manifest,
    analyzeSpec(document ?? buildOpenApiDocument('http://127.0.0.1:1/v1')),
  );
  return { lines: problems.map((p) => problemLine({ ...p, file: 'm.yaml' })), checked };
}

const create = (schema: unknown, extra: Record<string, unknown> = {}) => ({
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths: { '/monitors': { post: { requestBody: { content: { 'application/json': { schema } } } } } },
  ...extra,
});

describe('the emulator declares both bodies', () => {
  it('is read as declared', () => {
    expect(emulator.body('create')?.schema.dialect).toBe('2020-12');
    expect(emulator.body('update')?.schema).toBeDefined();
  });

  it.each([
    ['    interval: 10s\n', ['m.yaml:4:15: monitors.a.interval must be at least 30 (sent as interval_seconds: 10)']],
    ['    interval_seconds: 10\n', ['m.yaml:4:23: monitors.a.interval_seconds must be at least 30']],
    ['    type: pnig\n', ['m.yaml:4:11: monitors.a.type must be one of http, tcp, ping, dns; did you mean "ping"?']],
    ['    type: smtp\n', ['m.yaml:4:11: monitors.a.type must be one of http, tcp, ping, dns']],
    [
      '    interval: 2d\n',
      ['m.yaml:4:15: monitors.a.interval must be at most 86400 (sent as interval_seconds: 172800)'],
    ],
    ['    type: tc\n', ['m.yaml:4:11: monitors.a.type must be one of http, tcp, ping, dns; did you mean "tcp"?']],
    [
      '    target: ""\n    Paused: true\n',
      [
        'm.yaml:5:5: monitors.a.Paused is not a field the service declares; did you mean "paused"? (to send it as it is, list it under custom_fields:)',
      ],
    ],
    [
      '    interval_secs: 60\n',
      [
        'm.yaml:4:5: monitors.a.interval_secs is not a field the service declares; did you mean "interval_seconds"? (to send it as it is, list it under custom_fields:)',
      ],
    ],
    [
      '    intreval: 5m\n',
      [
        'm.yaml:4:5: monitors.a.intreval is not a field the service declares; did you mean "interval"? (to send it as it is, list it under custom_fields:)',
      ],
    ],
    ['    team: web\n    tags: [a]\n    runbook: https://wiki\n', []],
  ])('%j', async (extra, expected) => {
    const { lines } = await checkFile(`monitors:\n  a:\n    name: A\n${extra}`);
    expect(lines).toEqual(expected);
  });

  it('custom_fields lets a near-miss through, and only it', async () => {
    const { lines } = await checkFile(
      'custom_fields: [types]\nmonitors:\n  a:\n    name: A\n    types: [x]\n    nmae: x\n',
    );
    expect(lines).toEqual([
      'm.yaml:6:5: monitors.a.nmae is not a field the service declares; did you mean "name"? (to send it as it is, list it under custom_fields:)',
    ]);
  });

  it('a name too long for the service, in a second entry', async () => {
    const { lines } = await checkFile(`monitors:\n  a:\n    name: A\n  b:\n    name: ${'x'.repeat(300)}\n`);
    expect(lines).toEqual([expect.stringMatching(/^m\.yaml:5:11: monitors\.b\.name must be at most \d+ characters$/)]);
  });
});

describe('other documents', () => {
  it('a document without bodies checks nothing, and says why', async () => {
    const none = await check('monitors:\n  a:\n    name: A\n    intervall: 1\n', { openapi: '3.0.0', paths: {} });
    expect(none).toEqual({
      lines: [],
      checked: undefined,
      debug: ["validation: the service's document declares no monitor or channel body; entries are not checked"],
    });
    const absent = await check('monitors:\n  a:\n    name: A\n', null);
    expect(absent.debug).toEqual([
      "validation: the service's document is missing, unreachable or not an OpenAPI document; entries are not checked",
    ]);
  });

  it('read-only fields and unknown ones where the body refuses others, nested types, $refs resolved', async () => {
    const doc = create(
      { $ref: '#/components/schemas/C' },
      {
        components: {
          schemas: {
            C: {
              type: 'object',
              additionalProperties: false,
              'x-read-only-fields': ['owner'],
              properties: {
                name: { type: 'string' },
                owner: { type: 'string' },
                headers: { type: 'object', additionalProperties: { type: 'string' } },
                kind: { $ref: '#/components/schemas/Kind' },
              },
            },
            Kind: { type: 'string', enum: ['a', 'b'] },
          },
        },
      },
    );
    const { lines, checked } = await checkFile(
      'monitors:\n  a:\n    name: A\n    owner: me\n    kind: c\n    headers:\n      x-one: 1\n    nam: x\n',
      doc,
    );
    expect(checked).toBe('monitor create');
    expect(lines).toEqual([
      'm.yaml:4:5: monitors.a.owner is set by the service (read-only in its document)',
      'm.yaml:5:11: monitors.a.kind must be one of a, b',
      'm.yaml:7:14: monitors.a.headers.x-one must be a string',
      'm.yaml:8:5: monitors.a.nam is not a field the service accepts; did you mean "name"?',
    ]);
  });

  it('channel settings: a near miss of a declared setting, unless custom_fields names it', async () => {
    const doc = {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: {
        '/channels/{id}': {
          patch: {
            requestBody: {
              content: {
                'application/json': { schema: { type: 'object', properties: { enabled: { type: 'boolean' } } } },
              },
            },
          },
        },
      },
    };
    const text = 'monitors:\n  a:\n    name: A\n    nmae: x\nchannels:\n  ch_1:\n    enabeld: true\n';
    const typo = await checkFile(text, doc);
    expect(typo).toEqual({
      checked: 'channel update',
      lines: [
        'm.yaml:7:5: channels.ch_1.enabeld is not a field the service declares; did you mean "enabled"? (to send it as it is, list it under custom_fields:)',
      ],
    });
    expect(await checkFile(`custom_fields: [enabeld]\n${text}`, doc)).toEqual({ checked: 'channel update', lines: [] });
  });

  it('a schema ajv cannot compile, or a $ref that leads nowhere, is "nothing declared"', async () => {
    for (const schema of [
      { type: 'object', properties: { name: { type: 'nope' } } },
      { type: 'object', properties: { name: { minLength: 'three' } } },
      { type: 'object', properties: { name: { $ref: '#/components/schemas/Missing' } } },
    ]) {
      const r = await check('monitors:\n  a:\n    name: A\n', create(schema));
      expect(r.lines).toEqual([]);
      expect(r.checked).toBeUndefined();
      expect(r.debug[0]).toMatch(
        /^validation: the document's body schemas cannot be used \(.+\); entries are not checked$/,
      );
    }
  });
});

describe('a declared pattern is left to the service', () => {
  it('is never matched: a catastrophic one cannot hang validation, and the other rules still hold', async () => {
    const doc = create({
      type: 'object',
      properties: { name: { type: 'string', pattern: '^(a+)+$' }, interval_seconds: { type: 'integer', minimum: 30 } },
    });
    const file = join(mkdtempSync(join(tmpdir(), 'cpk-validate-unit-')), 'm.yaml');
    const text = `monitors:\n  a:\n    name: ${'a'.repeat(40)}b\n    interval_seconds: 5\n  b:\n    name: aaab\n`;
    writeFileSync(file, text);
    const result = await validateEntries(parseManifest(text, file), analyzeSpec(doc));
    expect(result.checked).toBe('monitor create');
    expect(result.problems.map((p) => problemLine({ ...p, file: 'm.yaml' }))).toEqual([
      'm.yaml:4:23: monitors.a.interval_seconds must be at least 30',
    ]);
    // A value the pattern refuses at once is not reported either: the service says so when it is sent.
    const quick = 'monitors:\n  b:\n    name: aaab\n';
    writeFileSync(file, quick);
    expect((await validateEntries(parseManifest(quick, file), analyzeSpec(doc))).problems).toEqual([]);
  });
});
