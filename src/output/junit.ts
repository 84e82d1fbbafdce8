// JUnit XML, as GitLab, Jenkins and Azure Pipelines read it: <testsuites>
// holding one <testsuite> holding a <testcase> per entry, monitor or
// assertion, each failed one with a <failure message="...">details</failure>.
// Built with xmlbuilder2, which escapes text and attributes and replaces the
// characters XML 1.0 cannot hold; imported only by commands given --junit.
import { redactSecrets } from '../core/redact.js';
import { sanitize as sanitizeOnly } from '../core/sanitize.js';

/** Text that may come from the server: no control character, no token. */
const sanitize = (text: string): string => redactSecrets(sanitizeOnly(text));

export interface JunitCase {
  name: string;
  /** Groups cases in the reader's view ("monitor", "channel", "assertion"). */
  classname: string;
  failure?: { message: string; details?: string | undefined } | undefined;
  skipped?: string | undefined;
}

/** `time`: seconds the command took. */
export async function junitXml(suite: { name: string; cases: JunitCase[]; time?: number }): Promise<string> {
  const { create } = await import('xmlbuilder2');
  const failures = suite.cases.filter((c) => c.failure).length;
  const skipped = suite.cases.filter((c) => !c.failure && c.skipped !== undefined).length;
  const counts = {
    tests: String(suite.cases.length),
    failures: String(failures),
    errors: '0',
    skipped: String(skipped),
    ...(suite.time === undefined ? {} : { time: suite.time.toFixed(3) }),
  };
  const root = create({ version: '1.0', encoding: 'UTF-8', invalidCharReplacement: '\uFFFD' }).ele('testsuites', {
    name: suite.name,
    ...counts,
  });
  const element = root.ele('testsuite', { name: suite.name, ...counts });
  for (const c of suite.cases) {
    const testcase = element.ele('testcase', { name: sanitize(c.name), classname: c.classname });
    if (c.failure) {
      testcase
        .ele('failure', { message: sanitize(c.failure.message), type: 'failure' })
        .txt(sanitize(c.failure.details ?? c.failure.message));
    } else if (c.skipped !== undefined) {
      testcase.ele('skipped', { message: sanitize(c.skipped) });
    }
  }
  return root.end({ prettyPrint: true });
}
