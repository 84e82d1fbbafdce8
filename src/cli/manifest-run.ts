// What the monitors-as-code commands give the workflow of src/manifest/: the
// context's output, API client and signal, and the CI report (annotations,
// JUnit cases) its problems go to. Imported lazily, inside each action, with
// the workflow it feeds: `cpk --help` never loads the manifest code.
import type { Context } from './context.js';
import type { WorkflowDeps } from '../manifest/workflow.js';
import { entryPlaces, reportProblems } from './ci.js';

export function workflowDeps(ctx: Context): WorkflowDeps {
  const ci = ctx.ci;
  return {
    out: ctx.out,
    env: ctx.env,
    signal: ctx.signal,
    api: (options) => ctx.api(options),
    confirm: (question, options) => ctx.confirm(question, options),
    tokenDigest: () => ctx.tokenDigest(),
    isToken: (value) => ctx.isToken(value),
    report: ci && {
      problems: (problems, manifest, file) => reportProblems(ci, problems, manifest, file),
      async unread(manifest, failures) {
        const place = entryPlaces(manifest);
        for (const { key, message } of failures) {
          await ci.annotate({ ...place('monitors', key), message });
          ci.add({ name: key, classname: 'monitors', failure: { message } });
        }
      },
    },
  };
}
