// The pure pieces of CI output: workflow-command escaping (as the runner
// reads it), JUnit XML that a real parser reads back exactly, and what a
// failed assertion says it saw.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { escapeData, escapeProperty, workflowCommand } from '../../src/output/workflow.js';
import { junitXml } from '../../src/output/junit.js';
import { compileAssertions } from '../../src/output/assert.js';
import { sanitize } from '../../src/core/sanitize.js';

/** The runner's own unescaping (actions/runner ActionCommand), to read a command back. */
function unescapeData(text: string): string {
  return text.replaceAll('%0D', '\r').replaceAll('%0A', '\n').replaceAll('%25', '%');
}
function unescapeProperty(text: string): string {
  return unescapeData(text.replaceAll('%3A', ':').replaceAll('%2C', ','));
}

const tricky = fc.string({ unit: fc.constantFrom('%', '\r', '\n', ':', ',', '0', 'A', 'D', '2', '5', 'a', ' ', '=') });

describe('workflow commands', () => {
  it.each([
    ['100%', '100%25'],
    ['a\nb', 'a%0Ab'],
    ['a\r\nb', 'a%0D%0Ab'],
    ['::warning::x', '::warning::x'],
    ['%0A', '%250A'],
  ])('data %j -> %j', (input, output) => expect(escapeData(input)).toBe(output));

  it.each([
    ['a:b,c', 'a%3Ab%2Cc'],
    ['50%\n', '50%25%0A'],
  ])('property %j -> %j', (input, output) => expect(escapeProperty(input)).toBe(output));

  it('a command is one line whose properties and message read back as given (sanitized)', () => {
    fc.assert(
      // Text made of what matters to the runner (%, CR, LF, :, ,) and plain characters.
      fc.property(tricky, tricky, (file, message) => {
        const line = workflowCommand('error', { file, line: 3, col: 4, message });
        expect(line).not.toMatch(/[\r\n]/);
        const match = /^::error (.*?)::(.*)$/.exec(line);
        expect(match).not.toBeNull();
        const properties = match![1]!.split(',');
        const fileProperty = properties.find((p) => p.startsWith('file='));
        // A lone CR is a control character: sanitized away, as on a terminal.
        if (file !== '') expect(unescapeProperty(fileProperty!.slice('file='.length))).toBe(sanitize(file));
        expect(unescapeData(match![2]!)).toBe(sanitize(message));
      }),
    );
  });

  it('removes escape sequences from server text', () => {
    expect(workflowCommand('warning', { message: 'red \u001b[31mtext\u001b]0;title\u0007' })).toBe(
      '::warning::red text',
    );
  });
});

describe('JUnit XML', () => {
  it('is well formed whatever the text, and a parser reads names and messages back', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.string(), async (name, message) => {
        const xml = await junitXml({
          name: 'cpk plan',
          cases: [{ name, classname: 'monitors', failure: { message } }],
        });
        expect(XMLValidator.validate(xml)).toBe(true);
        const doc = new XMLParser({
          ignoreAttributes: false,
          attributeNamePrefix: '',
          trimValues: false,
          parseTagValue: false,
          parseAttributeValue: false,
        }).parse(xml);
        expect(doc.testsuites.testsuite.testcase.classname).toBe('monitors');
        expect(doc.testsuites.testsuite.failures).toBe('1');
      }),
      { numRuns: 200 },
    );
  });

  it('escapes markup: <, &, quotes and ]]> stay text', async () => {
    const nasty = '<failure message="x"/> & ]]> \'"';
    const xml = await junitXml({ name: 's', cases: [{ name: nasty, classname: 'c', failure: { message: nasty } }] });
    const doc = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      textNodeName: 'text',
      trimValues: false,
    }).parse(xml);
    const testcase = doc.testsuites.testsuite.testcase;
    expect(testcase.name).toBe(nasty);
    expect(testcase.failure.message).toBe(nasty);
    expect(testcase.failure.text).toBe(nasty);
  });
});

describe('--assert', () => {
  it.each([
    ['uptime_percent >= `99.5`', { uptime_percent: 87.5 }, false, 'uptime_percent is 87.5'],
    ['uptime_percent >= `99.5`', { uptime_percent: null }, false, 'uptime_percent is null'],
    ['uptime_percent >= `99.5`', { uptime_percent: 99.9 }, true, 'uptime_percent is 99.9'],
    ["last_check.status == 'up'", { last_check: { status: 'down' } }, false, 'last_check.status is "down"'],
    ['!paused', { paused: true }, false, 'paused is true'],
    ['length(checks) > `2`', { checks: [1] }, false, 'length(checks) is 1'],
    ['checks', { checks: [] }, false, 'the expression gave []'],
    ['count', { count: 0 }, true, 'the expression gave 0'],
    // A slice's bounds are numbers and nulls in the syntax tree: a side cpk cannot write back is left out.
    ['checks[:1] == `[2]`', { checks: [1, 2] }, false, 'the expression gave false'],
  ])('%s over %j: %s (%s)', async (expression, value, ok, saw) => {
    const [assertion] = await compileAssertions([expression]);
    expect(assertion!.check(value)).toEqual({ expression, ok, saw });
  });
});

describe("docs/ci.md's workflows", () => {
  it('no step that runs cpk plan or apply appends to the job summary itself: cpk does, once', async () => {
    const { readFileSync } = await import('node:fs');
    const { parse } = await import('yaml');
    const text = readFileSync(new URL('../../docs/ci.md', import.meta.url), 'utf8');
    const blocks = [...text.matchAll(/```yaml\n([^]*?)```/g)].map((m) => m[1]!);
    const runs = blocks.flatMap((block) => {
      const doc = parse(block) as { jobs?: Record<string, { steps?: Array<{ run?: string }> }> } | null;
      return Object.values(doc?.jobs ?? {}).flatMap((job) => (job.steps ?? []).map((s) => s.run ?? ''));
    });
    const cpkSteps = runs.filter((run) => /\bcpk (plan|apply)\b/.test(run));
    expect(cpkSteps.length).toBeGreaterThan(1);
    expect(cpkSteps.filter((run) => run.includes('GITHUB_STEP_SUMMARY'))).toEqual([]);
  });
});
