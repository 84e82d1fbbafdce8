// Text in a CI log is data (src/core/sanitize.ts): under GitHub Actions no
// text from a service, a manifest or the person may be read by the runner as
// a workflow command. The checker (test/helpers/workflow-commands.ts) reads
// lines as the runner does; these cases hold it and the escaping to each other.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { defuseWorkflowCommands, defuseWorkflowCommandsEncoded } from '../../src/core/sanitize.js';
import { toJson } from '../../src/output/json.js';
import { toYaml } from '../../src/output/yaml.js';
import { workflowCommand } from '../../src/output/workflow.js';
import { workflowCommandsIn } from '../helpers/workflow-commands.js';

/** Text a hostile server would send: the command forms, white space the runner trims, line breaks. */
const hostileText = fc
  .array(
    fc.constantFrom(
      '::',
      ':',
      '##[',
      '#',
      '[',
      ']',
      'warning',
      'stop-commands',
      'add-mask',
      ' ',
      '\t',
      '\u00a0',
      '\u2028',
      '\u3000',
      '\n',
      '\r',
      '\r\n',
      'x',
      '%0A',
      '"',
      '\\',
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

describe('the checker reads lines as the runner does', () => {
  it.each([
    ['::warning::x', true],
    ['  \t::error file=a::x', true],
    ['\u00a0\u3000::add-mask::s', true],
    ['x ##[warning]forged', true],
    ['"name": "##[stop-commands]T",', true],
    ['a\r::warning::x', true],
    ['x ::warning::y', false],
    ['::warning', false],
    ['##[warning no end', false],
    ['plain', false],
  ])('%j: a command %s', (text, found) => {
    expect(workflowCommandsIn(text).length > 0).toBe(found);
  });
});

describe('defuseWorkflowCommands', () => {
  it.each([
    ['x ##[warning]forged', 'x ##\u200b[warning]forged'],
    ['##[stop-commands]T', '##\u200b[stop-commands]T'],
    ['a\n::warning::x', 'a\n:\u200b:warning::x'],
    ['a\r\n  ::error::x', 'a\r\n  :\u200b:error::x'],
    ['\u00a0::add-mask::s', '\u00a0:\u200b:add-mask::s'],
    // A `::` inside a line is no command: left as it is.
    ['see http://a and x::y', 'see http://a and x::y'],
    ['plain text', 'plain text'],
  ])('%j -> %j', (input, output) => {
    expect(defuseWorkflowCommands(input)).toBe(output);
    expect(defuseWorkflowCommands(output)).toBe(output);
  });

  it('leaves no command form in any text, and changes only by zero-width spaces', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const defused = defuseWorkflowCommands(text);
        expect(workflowCommandsIn(defused)).toEqual([]);
        expect(defused.replaceAll('\u200b', '')).toBe(text.replaceAll('\u200b', ''));
      }),
      { numRuns: 500 },
    );
  });
});

describe('defuseWorkflowCommandsEncoded keeps JSON and YAML values exact', () => {
  it('JSON: no command form, and the same value', () => {
    fc.assert(
      fc.property(fc.dictionary(hostileText, fc.oneof(hostileText, fc.array(hostileText))), (value) => {
        for (const indent of [0, 2]) {
          const text = defuseWorkflowCommandsEncoded(toJson(value, indent));
          expect(workflowCommandsIn(text)).toEqual([]);
          expect(JSON.parse(text)).toEqual(value);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('YAML under Actions: no command form', () => {
    fc.assert(
      fc.property(fc.dictionary(hostileText, fc.oneof(hostileText, fc.array(hostileText))), (value) => {
        expect(workflowCommandsIn(defuseWorkflowCommandsEncoded(toYaml(value, { ciLog: true })))).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });

  it('YAML under Actions: a string with a command form (double-quoted, escaped) keeps its value', () => {
    // Only these strings are written differently under Actions.
    const withForm = fc
      .tuple(hostileText, fc.constantFrom('##[', '::', '\n::', '\n  ::'), hostileText)
      .map(([a, form, b]) => `${a}${form}${b}`);
    fc.assert(
      fc.property(fc.dictionary(withForm, fc.oneof(withForm, fc.array(withForm))), (value) => {
        const text = defuseWorkflowCommandsEncoded(toYaml(value, { ciLog: true }));
        expect(parseYaml(text, { version: '1.1' })).toEqual(value);
      }),
      { numRuns: 100 },
    );
  });

  it('YAML: a long string with a line break stays on one line', () => {
    const value = { name: `${'x'.repeat(100)}\n::warning::${'y '.repeat(50)}` };
    const text = defuseWorkflowCommandsEncoded(toYaml(value, { ciLog: true }));
    expect(workflowCommandsIn(text)).toEqual([]);
    expect(parseYaml(text)).toEqual(value);
  });
});

describe("cpk's own annotations", () => {
  it('are one command each, whatever their text holds', () => {
    fc.assert(
      fc.property(hostileText, hostileText, (message, file) => {
        const line = workflowCommand('error', { file, title: 'cpk apply', message });
        expect(workflowCommandsIn(line)).toEqual([line]);
        expect(line).not.toContain('##[');
      }),
    );
  });
});
