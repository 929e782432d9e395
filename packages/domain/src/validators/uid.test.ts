import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatSwissUid, isValidSwissUid, swissUidCheckDigit } from './uid.js';

const toUid = (digits9: string) => `CHE-${digits9.slice(0, 3)}.${digits9.slice(3, 6)}.${digits9.slice(6)}`;

describe('swissUidCheckDigit (eCH-0097)', () => {
  it('computes 11 − (weighted sum mod 11)', () => {
    // 1·5 + 1·4 + 6·3 + 2·2 + 8·7 + 1·6 + 7·5 + 1·4 = 132 = 12·11 → 11 − 0 = 11 → 0.
    expect(swissUidCheckDigit('11628171')).toBe(0);
    // 1·5 + 0·4 + 9·3 + 2·2 + 9·7 + 9·6 + 0·5 + 0·4 = 153; 153 mod 11 = 10 → 1.
    expect(swissUidCheckDigit('10929900')).toBe(1);
  });

  it('is undefined when the check would be 10', () => {
    // 3·4 = 12; 12 mod 11 = 1; 11 − 1 = 10: no UID can end these 8 digits.
    expect(swissUidCheckDigit('00000003')).toBeUndefined();
  });

  it('needs 8 digits', () => {
    expect(() => swissUidCheckDigit('1234567')).toThrow(RangeError);
  });
});

describe('isValidSwissUid', () => {
  it('accepts CHE-116.281.710 and CHE-109.299.001 (check digits worked out above)', () => {
    expect(isValidSwissUid('CHE-116.281.710')).toBe(true);
    expect(isValidSwissUid('CHE-109.299.001')).toBe(true);
  });

  it('accepts the VAT suffixes and the compact register form', () => {
    expect(isValidSwissUid('CHE-116.281.710 MWST')).toBe(true);
    expect(isValidSwissUid('CHE-116.281.710 TVA')).toBe(true);
    expect(isValidSwissUid('CHE-116.281.710 IVA')).toBe(true);
    expect(isValidSwissUid('CHE116281710')).toBe(true);
    expect(isValidSwissUid('CHE116281710 MWST')).toBe(true);
  });

  it('rejects a wrong check digit', () => {
    expect(isValidSwissUid('CHE-116.281.711')).toBe(false);
    expect(isValidSwissUid('CHE-000.000.030')).toBe(false); // check would be 10
  });

  it('rejects other layouts and suffixes', () => {
    for (const bad of [
      'CHE-116.281.71', 'CHE-116281.710', 'che-116.281.710', 'CHE 116.281.710', 'CHE-116.281.710 VAT',
      'CHE-116.281.710MWST', 'CHE-116.281.710  MWST', ' CHE-116.281.710', 'ADM-116.281.710', '116.281.710', '',
    ]) {
      expect(isValidSwissUid(bad)).toBe(false);
    }
    expect(isValidSwissUid(undefined)).toBe(false);
  });

  it('validates computed check digits and rejects single-digit mutations (property)', () => {
    const digits8 = fc.stringMatching(/^\d{8}$/).filter((digits) => swissUidCheckDigit(digits) !== undefined);
    fc.assert(
      fc.property(digits8, fc.integer({ min: 0, max: 8 }), fc.integer({ min: 1, max: 9 }), (digits, index, shift) => {
        const valid = `${digits}${swissUidCheckDigit(digits)}`;
        expect(isValidSwissUid(toUid(valid))).toBe(true);
        const mutated = valid.slice(0, index) + String((Number(valid[index]) + shift) % 10) + valid.slice(index + 1);
        expect(isValidSwissUid(toUid(mutated))).toBe(false);
      }),
    );
  });
});

describe('formatSwissUid', () => {
  it('writes the official form and keeps the suffix', () => {
    expect(formatSwissUid('CHE116281710')).toBe('CHE-116.281.710');
    expect(formatSwissUid('CHE-116.281.710')).toBe('CHE-116.281.710');
    expect(formatSwissUid('CHE116281710 TVA')).toBe('CHE-116.281.710 TVA');
  });

  it('returns other text unchanged', () => {
    expect(formatSwissUid('not a uid')).toBe('not a uid');
    expect(formatSwissUid('')).toBe('');
  });
});
