// What `npm run dist -- --host` says when this machine's Node cannot build an
// executable (no --build-sea before Node 25.5): how to get the pinned Node,
// not only which one. Apart from dist.mjs so that a test can ask it.

/** The targets dist.mjs fetches a Node binary for from the npm registry, by this machine's platform-arch. */
const FETCHED = { 'linux-x64': 'linux-x64', 'linux-arm64': 'linux-arm64', 'win32-x64': 'win-x64' };

/** The line for a host Node without --build-sea. */
export function noBuildSea({ version, pinned, platform, arch }) {
  const major = pinned.split('.')[0];
  const target = FETCHED[`${platform}-${arch}`];
  const how = target
    ? `npm run dist -- ${target} builds this platform's executable with Node ${pinned}, fetched from the npm registry as the tests fetch theirs; or run \`npm run dist -- --host\` under Node ${major} (nvm install ${major})`
    : `install Node ${major} (nvm install ${major}, or from nodejs.org) and run npm run dist -- --host under it`;
  return `Node ${version} has no --build-sea (Node ${major} has): ${how}`;
}
