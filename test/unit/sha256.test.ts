// The inventory's SHA-256 (src/config/sha256.ts) is node:crypto's, on any text:
// the inventory's file names and token fingerprints must not change with it.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/config/sha256.js';

const reference = (text: string) => createHash('sha256').update(text).digest('hex');

describe('sha256Hex', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  ])('the FIPS 180-4 examples: %j', (text, digest) => {
    expect(sha256Hex(text)).toBe(digest);
  });

  it('every length around the block boundaries (55, 56, 63, 64, 119, 120 bytes...)', () => {
    for (let n = 0; n <= 200; n++) expect(sha256Hex('a'.repeat(n))).toBe(reference('a'.repeat(n)));
  });

  it('equals node:crypto on any text, non-ASCII too', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => sha256Hex(text) === reference(text)),
      { numRuns: 500 },
    );
  });
});
