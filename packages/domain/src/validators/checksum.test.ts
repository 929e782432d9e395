import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mod10RecursiveCheckDigit, mod97 } from './checksum.js';

describe('mod97', () => {
  it('matches BigInt arithmetic on the letter-expanded number (ISO 7064 MOD 97-10)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9A-Z]{1,40}$/), (value) => {
        const digits = [...value].map((c) => (/\d/.test(c) ? c : String(c.charCodeAt(0) - 55))).join('');
        expect(mod97(value)).toBe(Number(BigInt(digits) % 97n));
      }),
    );
  });

  it('is NaN for characters outside 0-9 and A-Z', () => {
    expect(mod97('12a4')).toBeNaN();
    expect(mod97('12 4')).toBeNaN();
  });
});

describe('mod10RecursiveCheckDigit', () => {
  it('follows the SIX carry table on known values', () => {
    // SIX IG v2.3 example 1: 21000000000313947143000901 → 7.
    expect(mod10RecursiveCheckDigit('21000000000313947143000901')).toBe(7);
    expect(mod10RecursiveCheckDigit('')).toBe(0);
    expect(mod10RecursiveCheckDigit('0')).toBe(0);
    expect(mod10RecursiveCheckDigit('1')).toBe(1); // carry table[1] = 9 → (10 − 9) mod 10
  });

  it('rejects non-digits', () => {
    expect(() => mod10RecursiveCheckDigit('12a')).toThrow(RangeError);
  });
});
