// The order test files start in. A file that waits on processes and sockets
// (test/release, test/e2e, then test/cli) starts before the unit files, which
// only use the CPU: the long waits then overlap each other and the static
// checks, and the short CPU-bound files fill the end of the run instead of
// one long file holding it up. A project's files stay together, since a
// worker runs one project's files and a switch starts a new worker, which
// imports everything again; the project whose files wait the most goes first.
// Within a group, the larger file first; once a run has recorded how long each
// file took (vitest's cache), the longer first.
import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const GROUPS = [/^test\/(release|e2e)\//, /^test\/cli\//];

export default class WaitersFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const path = (file: TestSpecification) => relative(root, file.moduleId);
    const group = (file: TestSpecification) => {
      const index = GROUPS.findIndex((pattern) => pattern.test(path(file)));
      return index === -1 ? GROUPS.length : index;
    };
    const projects = new Map<string, number[]>();
    for (const file of files)
      projects.set(file.project.name, [...(projects.get(file.project.name) ?? []), group(file)]);
    const mean = (name: string) => {
      const groups = projects.get(name)!;
      return groups.reduce((sum, g) => sum + g, 0) / groups.length;
    };
    const took = (file: TestSpecification) =>
      this.ctx.cache.getFileTestResults(`${file.project.name}:${path(file)}`)?.duration;
    const size = (file: TestSpecification) => statSync(file.moduleId).size;
    return [...files].sort((a, b) => {
      if (a.project.name !== b.project.name) return mean(a.project.name) - mean(b.project.name);
      const [da, db] = [took(a), took(b)];
      if (da !== undefined && db !== undefined) return db - da;
      return group(a) - group(b) || size(b) - size(a);
    });
  }
}
