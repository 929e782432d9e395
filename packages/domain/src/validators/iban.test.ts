import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatIban, ibanLengths, isQrIban, isValidIban, makeIban, normalizeIban, qrIid } from './iban.js';

describe('normalizeIban', () => {
  it('removes all whitespace and uppercases', () => {
    expect(normalizeIban(' ch93 0076\t2011 6238\n5295 7 ')).toBe('CH9300762011623852957');
    expect(normalizeIban('CH93\u00a00076')).toBe('CH930076');
  });
});

describe('ibanLengths', () => {
  it('keeps every length within the spec bounds 15–31 (spec §9)', () => {
    for (const [country, length] of Object.entries(ibanLengths)) {
      expect(country).toMatch(/^[A-Z]{2}$/);
      expect(length).toBeGreaterThanOrEqual(15);
      expect(length).toBeLessThanOrEqual(31);
    }
  });

  it('holds the SWIFT registry countries within the bounds, and not LC (32) nor RU (33)', () => {
    expect(Object.keys(ibanLengths)).toHaveLength(87);
    expect(ibanLengths).toMatchObject({ CH: 21, LI: 21, DE: 22, FR: 27, IT: 27, AT: 20, GB: 22, NO: 15, MT: 31, SC: 31 });
    expect(ibanLengths.LC).toBeUndefined();
    expect(ibanLengths.RU).toBeUndefined();
  });
});

describe('isValidIban (spec §5 "IBAN check")', () => {
  it.each([
    'CH9300762011623852957',
    'CH93 0076 2011 6238 5295 7',
    'CH4431999123000889012',
    'CH5604835012345678009',
    'DE89370400440532013000',
    'GB29NWBK60161331926819',
    'FR1420041010050500013M02606',
    'NO9386011117947',
    'MT84MALT011000012345MTLCAST001S',
    'LI21088100002324013AA',
    'BE68539007547034',
  ])('accepts %s', (iban) => {
    expect(isValidIban(iban)).toBe(true);
  });

  it('accepts lowercase after normalisation', () => {
    expect(isValidIban('ch93 0076 2011 6238 5295 7')).toBe(true);
    expect(isValidIban('gb29nwbk60161331926819')).toBe(true);
  });

  it('rejects a wrong check digit', () => {
    expect(isValidIban('CH9400762011623852957')).toBe(false);
    expect(isValidIban('DE88370400440532013000')).toBe(false);
  });

  it('rejects a wrong character in the account part', () => {
    expect(isValidIban('CH9300762011623852958')).toBe(false);
  });

  it('rejects a wrong length for the country', () => {
    expect(isValidIban('CH930076201162385295')).toBe(false);
    expect(isValidIban('CH93007620116238529570')).toBe(false);
    // A DE-length IBAN with CH as country.
    expect(isValidIban(makeIban('DE', '370400440532013000').replace(/^DE/, 'CH'))).toBe(false);
  });

  it('rejects an unknown country even with correct check digits', () => {
    expect(isValidIban('XX' + makeIban('CH', '00762011623852957').slice(2))).toBe(false);
    expect(isValidIban('LC55HEMM000100010012001200023015')).toBe(false); // registry length 32, beyond spec §9
  });

  it('rejects what breaks the pattern', () => {
    expect(isValidIban('')).toBe(false);
    expect(isValidIban('CH')).toBe(false);
    expect(isValidIban('CHAB00762011623852957')).toBe(false);
    expect(isValidIban('1H9300762011623852957')).toBe(false);
    expect(isValidIban('CH93-0076-2011-6238-5295-7')).toBe(false);
    expect(isValidIban('CH93007620116238529Ä7')).toBe(false);
  });

  it('rejects non-strings', () => {
    expect(isValidIban(undefined)).toBe(false);
    expect(isValidIban(null)).toBe(false);
    expect(isValidIban(930076201162)).toBe(false);
  });

  const countries = Object.keys(ibanLengths);
  const generatedIban = fc
    .constantFrom(...countries)
    .chain((country) =>
      fc
        .stringMatching(new RegExp(`^[0-9A-Z]{${(ibanLengths[country] ?? 5) - 4}}$`))
        .map((bban) => makeIban(country, bban)),
    );

  it('validates random IBANs built by computing the check digits (property)', () => {
    fc.assert(
      fc.property(generatedIban, (iban) => {
        expect(isValidIban(iban)).toBe(true);
        expect(isValidIban(formatIban(iban).toLowerCase())).toBe(true);
      }),
    );
  });

  it('rejects any single-digit mutation of a valid IBAN (property)', () => {
    fc.assert(
      fc.property(generatedIban, fc.nat(), fc.integer({ min: 1, max: 9 }), (iban, pick, shift) => {
        const digitPositions = [...iban].flatMap((char, index) => (index >= 2 && /\d/.test(char) ? [index] : []));
        const position = digitPositions[pick % digitPositions.length] ?? 2; // check digits are always digits
        const mutated = iban.slice(0, position) + String((Number(iban[position]) + shift) % 10) + iban.slice(position + 1);
        expect(isValidIban(mutated)).toBe(false);
      }),
    );
  });
});

describe('makeIban', () => {
  it('computes the check digits of known IBANs', () => {
    expect(makeIban('CH', '00762011623852957')).toBe('CH9300762011623852957');
    expect(makeIban('de', '370400440532013000')).toBe('DE89370400440532013000');
  });

  it('refuses what cannot become a valid IBAN', () => {
    expect(() => makeIban('CH', '123')).toThrow(RangeError);
    expect(() => makeIban('XX', '00762011623852957')).toThrow(RangeError);
  });
});

describe('qrIid', () => {
  it('returns characters 5–9 of the normalized IBAN as a number', () => {
    expect(qrIid('CH44 3199 9123 0008 8901 2')).toBe(31999);
    expect(qrIid('CH9300762011623852957')).toBe(762);
  });

  it('is undefined when those characters are not 5 digits', () => {
    expect(qrIid('GB29NWBK60161331926819')).toBeUndefined();
    expect(qrIid('CH93')).toBeUndefined();
  });
});

describe('isQrIban (spec §5, SIX QR-IID 30000–31999)', () => {
  it('accepts the SIX example QR-IBAN, with or without spaces', () => {
    expect(isQrIban('CH44 3199 9123 0008 8901 2')).toBe(true);
    expect(isQrIban('CH4431999123000889012')).toBe(true);
  });

  it('accepts the bounds of the range and LI', () => {
    expect(isQrIban(makeIban('CH', '30000000000000000'))).toBe(true);
    expect(isQrIban(makeIban('CH', '31999000000000000'))).toBe(true);
    expect(isQrIban(makeIban('LI', '30123000000000000'))).toBe(true);
  });

  it('rejects IIDs just outside the range', () => {
    expect(isQrIban(makeIban('CH', '29999000000000000'))).toBe(false);
    expect(isQrIban(makeIban('CH', '32000000000000000'))).toBe(false);
  });

  it('rejects ordinary IBANs, other countries and invalid IBANs', () => {
    expect(isQrIban('CH9300762011623852957')).toBe(false);
    expect(isQrIban('CH5604835012345678009')).toBe(false);
    expect(isQrIban(makeIban('DE', '300000000000000000'))).toBe(false);
    expect(isQrIban('CH4531999123000889012')).toBe(false);
    expect(isQrIban(undefined)).toBe(false);
  });
});

describe('formatIban', () => {
  it('groups by 4 from the left', () => {
    expect(formatIban('CH9300762011623852957')).toBe('CH93 0076 2011 6238 5295 7');
    expect(formatIban(' de89 3704 0044 0532 0130 00')).toBe('DE89 3704 0044 0532 0130 00');
    expect(formatIban('NO9386011117947')).toBe('NO93 8601 1117 947');
    expect(formatIban('')).toBe('');
  });
});
