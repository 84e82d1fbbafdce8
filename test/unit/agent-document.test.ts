// The one document agent mode writes (src/cli/agent.ts), from what a command
// printed, the error main made of its failure, and its exit code.
import { describe, expect, it } from 'vitest';
import { agentDocument } from '../../src/cli/agent.js';

const error = (code: number) => `{"error":"it failed","status":null,"request_id":null,"exit_code":${code}}\n`;

describe('agentDocument', () => {
  it.each([
    ['a result, exit 0: as printed', '{\n  "id": "mon_1"\n}\n', undefined, 0, '{\n  "id": "mon_1"\n}\n'],
    ['nothing printed: {}', '', undefined, 0, '{}\n'],
    ['text: under "text"', 'Usage: cpk\n', undefined, 0, '{\n  "text": "Usage: cpk\\n"\n}\n'],
    [
      'an object, exit 10: exit_code beside its fields',
      '{\n  "a": 1\n}\n',
      undefined,
      10,
      '{\n  "a": 1,\n  "exit_code": 10\n}\n',
    ],
    ['a list, exit 6: under "result"', '[1]\n', undefined, 6, '{"result":[1],"exit_code":6}\n'],
    ['an error alone', '', error(6), 6, error(6)],
    [
      'a whole result, then an error: one document',
      '{"id":"m"}\n',
      error(9),
      9,
      '{"error":"it failed","status":null,"request_id":null,"exit_code":9,"result":{"id":"m"}}\n',
    ],
    ['a list cut short by an error: left out', '[\n  {"id": "m"},', error(3), 3, error(3)],
  ])('%s', (_, held, err, code, expected) => {
    const document = agentDocument(held, err, code);
    expect(document).toBe(expected);
    expect(JSON.parse(document)).toBeTypeOf('object');
  });

  it('keeps numbers exactly as the command printed them', () => {
    const held = '{"n": 12345678901234567890.10}\n';
    expect(agentDocument(held, undefined, 10)).toBe('{"n": 12345678901234567890.10,\n  "exit_code": 10\n}\n');
    expect(agentDocument(held, error(9), 9)).toContain('"result":{"n": 12345678901234567890.10}}');
  });
});
