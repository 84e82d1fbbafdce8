// test/e2e/ holds the cases a transport can change, and each of its files runs
// them on both: cpk's own choice (node:http for one request, undici for many)
// and undici for every request (CPK_TRANSPORT=undici). The two run one after
// the other in the same test worker, so the file costs one worker's start, not
// two: the CLI runs of a block (child processes and in-process alike) take
// CPK_TRANSPORT from this process's environment (./cli.ts, baseEnv), which the
// block sets before its first case and puts back after its last.
import { afterAll, beforeAll, describe } from 'vitest';

export type TransportRun = 'auto' | 'undici';

export function onEachTransport(cases: (transport: TransportRun) => void): void {
  for (const transport of ['auto', 'undici'] as const) {
    describe(`transport: ${transport}`, () => {
      let before: string | undefined;
      beforeAll(() => {
        before = process.env.CPK_TRANSPORT;
        if (transport === 'undici') process.env.CPK_TRANSPORT = 'undici';
        else delete process.env.CPK_TRANSPORT;
      });
      afterAll(() => {
        if (before === undefined) delete process.env.CPK_TRANSPORT;
        else process.env.CPK_TRANSPORT = before;
      });
      cases(transport);
    });
  }
}
