// Checks every answer of an in-process emulator against its own OpenAPI
// document, as a validating proxy (Prism) would: the helpers that start an
// emulator for a test file pass `onResponse` and fail the file in afterAll
// when any answer broke the document.
import { expect } from 'vitest';
import { checkResponse, type Exchange } from '../../src/emulator/contract.js';

export interface ResponseContract {
  onResponse(exchange: Exchange): void;
  /** Every violation seen so far (a few per answer at most, 200 in all). */
  violations: string[];
  /** Fails the test (file, from afterAll) when any answer broke the document. */
  assertKept(): void;
}

export function responseContract(): ResponseContract {
  const violations: string[] = [];
  return {
    violations,
    onResponse(exchange) {
      if (violations.length >= 200) return;
      violations.push(...checkResponse(exchange).slice(0, 5));
    },
    assertKept() {
      expect(violations, 'emulator answers that break its OpenAPI document').toEqual([]);
    },
  };
}
