// The tools of `cpk mcp` come from the command tree: which commands, their
// names, annotations and input schemas, and the argv a call becomes.
import { describe, expect, it } from 'vitest';
import { referenceProgram } from '../../src/gen/files.js';
import { argvOf, inputSchema, toolsOf } from '../../src/cli/mcp-tools.js';
import { parseMcpOptions } from '../../src/commands/mcp/mcp.js';

const tools = toolsOf(referenceProgram());
const tool = (name: string) => tools.find((t) => t.name === name)!;

describe('MCP tools from the command tree', () => {
  it('one tool per command that declares tool: true, named after its path, annotated from its effect', () => {
    expect(Object.fromEntries(tools.map((t) => [t.name, t.annotations]))).toEqual({
      monitors_list: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
      monitors_create: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
      monitors_get: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
      monitors_update: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
      monitors_delete: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
      channels_list: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
      channels_update: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
      reports_list: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
      reports_get: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
      plan: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
      apply: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
      validate: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    });
  });

  it("a schema from the command's arguments and options, without those the server answers for itself", () => {
    const schema = inputSchema(tool('monitors_delete'));
    expect(Object.keys(schema.properties)).toEqual(['ids', 'concurrency', 'dry-run']);
    expect(schema.properties.ids).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(schema.required).toEqual(['ids']);
    expect(inputSchema(tool('plan')).properties).not.toHaveProperty('out');
    expect(inputSchema(tool('plan')).properties.file).toMatchObject({ type: 'array' });
    expect(inputSchema(tool('monitors_update')).properties['dry-run']).toMatchObject({ type: 'boolean' });
  });

  it('a call becomes argv: options as --flag=value, then --json, then the arguments after --', () => {
    expect(argvOf(tool('monitors_get'), { ids: ['-rf', 'mon_2'] })).toEqual([
      'monitors',
      'get',
      '--json',
      '--',
      '-rf',
      'mon_2',
    ]);
    expect(
      argvOf(tool('channels_update'), { id: 'ch_ops', set: ['enabled=false', 'x=1'], 'dry-run': true }, ['--yes']),
    ).toEqual([
      'channels',
      'update',
      '--set=enabled=false',
      '--set=x=1',
      '--dry-run',
      '--yes',
      '--json',
      '--',
      'ch_ops',
    ]);
  });

  it.each([
    [{ ids: ['m'], yes: true }, 'takes no input "yes"'],
    [{}, 'needs "ids"'],
    [{ ids: [{ id: 'mon_1' }] }, 'a list of strings'],
    [{ ids: ['m'], concurrency: ['1', '2'] }, '"concurrency" is a string'],
    [{ ids: ['m'], 'dry-run': 'yes' }, 'true or false'],
  ])('refuses input of the wrong shape: %j', (input, message) => {
    expect(() => argvOf(tool('monitors_delete'), input)).toThrow(message);
  });
});

describe('cpk mcp flags', () => {
  it('--allow-delete needs --allow-write: a usage error, not a server that deletes nothing it could write', () => {
    expect(() => parseMcpOptions({ allowDelete: true })).toThrow('--allow-delete needs --allow-write');
    expect(parseMcpOptions({ allowDelete: true, allowWrite: true })).toEqual({
      allowWrite: true,
      allowDelete: true,
      sandbox: false,
    });
  });
});
