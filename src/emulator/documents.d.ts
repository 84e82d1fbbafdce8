// The OpenAPI documents beside the emulator are YAML files that the build (and
// vitest) turn into data: importing one gives the parsed document.
declare module '*.yaml' {
  const document: Record<string, unknown>;
  export default document;
}
