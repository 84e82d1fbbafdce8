// Types of the validator `npm run gen` compiles from schema/manifest.schema.json (src/gen/manifest-validator.ts).
import type { ErrorObject } from 'ajv';

export interface ManifestValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}
export declare const validate: ManifestValidator;
export default validate;
