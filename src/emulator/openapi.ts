// The emulator's two OpenAPI documents, kept as files beside this module:
// openapi.yaml (the service, GET /v1/openapi.json, `cpk openapi`) and
// admin-openapi.yaml (the emulator's own routes, GET /__emulator/openapi.json).
// The build (and vitest.config.ts) turns each YAML file into data in the bundle: nothing parses YAML at start.
import adminSource from './admin-openapi.yaml';
import publicSource from './openapi.yaml';

type Json = Record<string, unknown>;

/** The address the documents are written with; replaced by the one the emulator listens on. */
const DOCUMENT_ROOT = 'http://127.0.0.1:4010';

/** A fresh copy of `source` with the emulator's address in place of the default one. */
function withAddress(source: Json, baseUrl: string): Json {
  const root = baseUrl.replace(/\/v1$/, '');
  // A URL holds no character JSON escapes, so a text replacement is exact.
  return JSON.parse(JSON.stringify(source).replaceAll(DOCUMENT_ROOT, root)) as Json;
}

/** The service's document, and the admin routes' one, as served by an emulator at `baseUrl` (".../v1"). */
export const buildOpenApiDocument = (baseUrl: string): Json => withAddress(publicSource, baseUrl);
export const buildAdminDocument = (baseUrl: string): Json => withAddress(adminSource, baseUrl);

/** The documents as written (address not replaced): what the validators compile. Do not modify. */
export const publicDocument: Json = publicSource;
export const adminDocument: Json = adminSource;
