// `npm run dist -- --host` on a Node without --build-sea says how to get the pinned Node, not only which.
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a build script in JavaScript, without declarations
import { noBuildSea } from '../../scripts/dist-host.mjs';

describe('dist --host on an old Node', () => {
  it('names the one command that fetches the pinned Node where the registry has it, else how to install it', () => {
    const say = (platform: string, arch: string): string =>
      noBuildSea({ version: 'v20.20.2', pinned: '26.10.0', platform, arch });
    expect(say('linux', 'x64')).toBe(
      "Node v20.20.2 has no --build-sea (Node 26 has): npm run dist -- linux-x64 builds this platform's executable with Node 26.10.0, fetched from the npm registry as the tests fetch theirs; or run `npm run dist -- --host` under Node 26 (nvm install 26)",
    );
    expect(say('darwin', 'arm64')).toBe(
      'Node v20.20.2 has no --build-sea (Node 26 has): install Node 26 (nvm install 26, or from nodejs.org) and run npm run dist -- --host under it',
    );
  });
});
