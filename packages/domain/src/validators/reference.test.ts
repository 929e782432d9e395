import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  formatCreditorReference, formatQrReference, isValidCreditorReference, isValidPostalAccountNumber,
  isValidQrReference, makeCreditorReference, makeQrReference, qrReferenceCheckDigit,
} from './reference.js';

const replaceAt = (value: string, index: number, char: string) => value.slice(0, index) + char + value.slice(index + 1);

describe('QR reference (SIX QR-bill IG v2.3 §4.3.3)', () => {
  it('accepts the SIX example 1 reference', () => {
    expect(isValidQrReference('210000000003139471430009017')).toBe(true);
    expect(isValidQrReference('21 00000 00003 13947 14300 09017')).toBe(true);
  });

  it('computes its check digit', () => {
    expect(qrReferenceCheckDigit('21000000000313947143000901')).toBe(7);
    expect(makeQrReference('21000000000313947143000901')).toBe('210000000003139471430009017');
  });

  it('rejects a wrong check digit, a wrong length, letters and all zeros', () => {
    expect(isValidQrReference('210000000003139471430009018')).toBe(false);
    expect(isValidQrReference('21000000000313947143000901')).toBe(false);
    expect(isValidQrReference('2100000000031394714300090170')).toBe(false);
    expect(isValidQrReference('21000000000313947143000901A')).toBe(false);
    expect(isValidQrReference('000000000000000000000000000')).toBe(false);
    expect(isValidQrReference('')).toBe(false);
    expect(isValidQrReference(undefined)).toBe(false);
  });

  it('makeQrReference left-pads the base to 26 digits', () => {
    expect(makeQrReference('1')).toBe('000000000000000000000000011');
    expect(makeQrReference('12 345')).toBe(`${'12345'.padStart(26, '0')}${qrReferenceCheckDigit('12345'.padStart(26, '0'))}`);
  });

  it('makeQrReference refuses an empty, non-numeric, too long or all-zero base', () => {
    for (const base of ['', 'abc', '12a', '1'.repeat(27), '0000', '-1']) {
      expect(() => makeQrReference(base)).toThrow(RangeError);
    }
  });

  it('qrReferenceCheckDigit needs exactly 26 digits', () => {
    expect(() => qrReferenceCheckDigit('123')).toThrow(RangeError);
    expect(() => qrReferenceCheckDigit('2100000000031394714300090A')).toThrow(RangeError);
  });

  const base = fc.stringMatching(/^\d{1,26}$/).filter((digits) => !/^0+$/.test(digits));

  it('makeQrReference always yields a valid reference (property)', () => {
    fc.assert(
      fc.property(base, (digits) => {
        const reference = makeQrReference(digits);
        expect(reference).toMatch(/^\d{27}$/);
        expect(isValidQrReference(reference)).toBe(true);
        expect(isValidQrReference(formatQrReference(reference))).toBe(true);
      }),
    );
  });

  it('changing any single digit makes it invalid (property)', () => {
    fc.assert(
      fc.property(base, fc.integer({ min: 0, max: 26 }), fc.integer({ min: 1, max: 9 }), (digits, index, shift) => {
        const reference = makeQrReference(digits);
        const mutated = replaceAt(reference, index, String((Number(reference[index]) + shift) % 10));
        expect(isValidQrReference(mutated)).toBe(false);
      }),
    );
  });

  it('formatQrReference groups 2 + 5×5, leaves other text alone', () => {
    expect(formatQrReference('210000000003139471430009017')).toBe('21 00000 00003 13947 14300 09017');
    expect(formatQrReference('21 00000 00003 13947 14300 09017')).toBe('21 00000 00003 13947 14300 09017');
    expect(formatQrReference('1234')).toBe('1234');
  });
});

describe('creditor reference (ISO 11649)', () => {
  it('accepts the SIX example references', () => {
    expect(isValidCreditorReference('RF18539007547034')).toBe(true);
    expect(isValidCreditorReference('RF18 5390 0754 7034')).toBe(true);
    expect(isValidCreditorReference('RF48 5000 0567 8901 2345')).toBe(true);
    expect(isValidCreditorReference('RF48500005678901234 5')).toBe(true);
  });

  it('rejects SIX example 4 as printed: its check digits should be 24, not 72', () => {
    expect(isValidCreditorReference('RF720191230100405JSH0438')).toBe(false);
    expect(makeCreditorReference('0191230100405JSH0438')).toBe('RF240191230100405JSH0438');
    expect(isValidCreditorReference('RF240191230100405JSH0438')).toBe(true);
  });

  it('accepts lowercase', () => {
    expect(isValidCreditorReference('rf18539007547034')).toBe(true);
  });

  it('rejects wrong check digits, a wrong prefix, an empty or too long body and other characters', () => {
    expect(isValidCreditorReference('RF19539007547034')).toBe(false);
    expect(isValidCreditorReference('RG18539007547034')).toBe(false);
    expect(isValidCreditorReference('RF18')).toBe(false);
    expect(isValidCreditorReference(makeCreditorReference('1'.repeat(21)) + '1')).toBe(false);
    expect(isValidCreditorReference('RF18-539007547034')).toBe(false);
    expect(isValidCreditorReference('RFAB539007547034')).toBe(false);
    expect(isValidCreditorReference(null)).toBe(false);
  });

  it('makeCreditorReference refuses a base that is empty, too long or not alphanumeric', () => {
    for (const bad of ['', ' ', '1'.repeat(22), 'ABC-1', 'Ä1']) {
      expect(() => makeCreditorReference(bad)).toThrow(RangeError);
    }
  });

  const base = fc.stringMatching(/^[0-9A-Z]{1,21}$/);

  it('makeCreditorReference round-trips (property)', () => {
    fc.assert(
      fc.property(base, (body) => {
        const reference = makeCreditorReference(body);
        expect(reference).toMatch(/^RF\d{2}/);
        expect(reference.slice(4)).toBe(body);
        expect(isValidCreditorReference(reference)).toBe(true);
        expect(isValidCreditorReference(formatCreditorReference(reference))).toBe(true);
        expect(makeCreditorReference(body.toLowerCase())).toBe(reference);
      }),
    );
  });

  it('changing any single digit makes it invalid (property)', () => {
    fc.assert(
      fc.property(base, fc.nat(), fc.integer({ min: 1, max: 9 }), (body, pick, shift) => {
        const reference = makeCreditorReference(body);
        const digitPositions = [...reference].flatMap((char, index) => (/\d/.test(char) ? [index] : []));
        const index = digitPositions[pick % digitPositions.length] ?? 2;
        const mutated = replaceAt(reference, index, String((Number(reference[index]) + shift) % 10));
        expect(isValidCreditorReference(mutated)).toBe(false);
      }),
    );
  });

  it('formatCreditorReference groups by 4', () => {
    expect(formatCreditorReference('RF18539007547034')).toBe('RF18 5390 0754 7034');
    expect(formatCreditorReference('rf4850000567890123 45')).toBe('RF48 5000 0567 8901 2345');
  });
});

describe('isValidPostalAccountNumber (spec §5 "Account number")', () => {
  it('accepts the 9-digit form and the padded dashed form', () => {
    expect(isValidPostalAccountNumber('010001628')).toBe(true); // 01-162-8
    expect(isValidPostalAccountNumber('01-000162-8')).toBe(true);
    expect(isValidPostalAccountNumber('010391391')).toBe(true); // 01-39139-1
    expect(isValidPostalAccountNumber('01-039139-1')).toBe(true);
  });

  it('accepts prefix 02 with its check digit and refuses other prefixes', () => {
    const check = (digits8: string) => `${digits8}${qrReferenceCheckDigit(digits8.padStart(26, '0'))}`;
    expect(isValidPostalAccountNumber(check('02123456'))).toBe(true);
    expect(isValidPostalAccountNumber(check('03123456'))).toBe(false);
    expect(isValidPostalAccountNumber(check('10123456'))).toBe(false);
  });

  it('rejects a wrong check digit and the short printed form', () => {
    expect(isValidPostalAccountNumber('010001627')).toBe(false);
    expect(isValidPostalAccountNumber('01-000162-7')).toBe(false);
    expect(isValidPostalAccountNumber('01-162-8')).toBe(false);
  });

  it('rejects wrong lengths, mixed forms and non-strings', () => {
    expect(isValidPostalAccountNumber('01000162')).toBe(false);
    expect(isValidPostalAccountNumber('0100016280')).toBe(false);
    expect(isValidPostalAccountNumber('01-0001628')).toBe(false);
    expect(isValidPostalAccountNumber('010001-628')).toBe(false);
    expect(isValidPostalAccountNumber(' 010001628')).toBe(false);
    expect(isValidPostalAccountNumber(10001628)).toBe(false);
  });
});
