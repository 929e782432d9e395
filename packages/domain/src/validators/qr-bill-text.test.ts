import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressSchema, onboardingCompanySchema } from '../schemas/onboarding.js';
import { companyAddressSchema, companyInsertSchema, companyUpdateSchema } from '../schemas/company.js';
import { errorsOf } from '../schemas/test-helpers.js';
import { isQrBillText } from '../qrbill.js';
import { firstNonQrBillCharacter, qrBillFieldMessage, QR_BILL_FIELDS, type QrBillField } from './qr-bill-text.js';

const address = { street: 'Bahnhofstrasse', houseNumber: '1', zip: '8001', city: 'Zürich', country: { id: 1 } };

/** Every character SPS 2025 allows: U+0020–U+007E, U+00A0–U+017F, Ș ș Ț ț (U+0218–U+021B), €. */
const ALLOWED = [
  ...Array.from({ length: 0x7e - 0x20 + 1 }, (_, i) => String.fromCodePoint(0x20 + i)),
  ...Array.from({ length: 0x17f - 0xa0 + 1 }, (_, i) => String.fromCodePoint(0xa0 + i)),
  'Ș', 'ș', 'Ț', 'ț', '€',
];
const allowedSet = new Set(ALLOWED);
/** Characters outside the set: controls, Greek, Cyrillic, CJK, emoji, typographic quotes, combining marks alone. */
const refused = fc
  .oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f }), fc.integer({ min: 0x180, max: 0x217 }), fc.integer({ min: 0x21c, max: 0x20ab }), fc.integer({ min: 0x20ad, max: 0xd7ff }), fc.integer({ min: 0x1f300, max: 0x1faff }))
  .map((code) => String.fromCodePoint(code))
  // Not what NFC turns into an allowed character (U+1FEF → '`', U+212B → 'Å'), and no combining
  // marks, which NFC may merge with the letter before them ('a' + U+0300 → 'à').
  .filter((character) => !isQrBillText(character.normalize('NFC')) && !/\p{M}/u.test(character));
const allowedText = (max: number) => fc.array(fc.constantFrom(...ALLOWED), { minLength: 1, maxLength: max }).map((chars) => chars.join('')).filter((text) => text.trim() !== '');

describe('QR-bill text fields (SIX IG v2.3 §4.3.2, SPS 2025 character set)', () => {
  it('names the field and its QR-bill limit when too long', () => {
    expect(qrBillFieldMessage('name', 'x'.repeat(70))).toBeUndefined();
    expect(qrBillFieldMessage('name', 'x'.repeat(71))).toBe('Name must be at most 70 characters for Swiss QR-bills');
    expect(qrBillFieldMessage('street', 'x'.repeat(71))).toBe('Street must be at most 70 characters for Swiss QR-bills');
    expect(qrBillFieldMessage('houseNumber', '1'.repeat(17))).toBe('House number must be at most 16 characters for Swiss QR-bills');
    expect(qrBillFieldMessage('zip', '1'.repeat(17))).toBe('ZIP must be at most 16 characters for Swiss QR-bills');
    expect(qrBillFieldMessage('city', 'z'.repeat(36))).toBe('City must be at most 35 characters for Swiss QR-bills');
  });

  it('names the first character outside the Swiss payments set', () => {
    expect(qrBillFieldMessage('name', 'Ωmega AG')).toBe('Character "Ω" cannot be used in Swiss payments');
    expect(qrBillFieldMessage('name', 'Müller “Söhne” AG')).toBe('Character "“" cannot be used in Swiss payments');
    expect(qrBillFieldMessage('city', 'Zürich 🏔')).toBe('Character "🏔" cannot be used in Swiss payments');
    expect(qrBillFieldMessage('street', 'Haupt\tstrasse')).toBe('Character U+0009 cannot be used in Swiss payments');
    expect(qrBillFieldMessage('name', 'Москва ООО')).toBe('Character "М" cannot be used in Swiss payments');
  });

  it('accepts Latin-1, Latin Extended-A, Ș ș Ț ț and €, and a decomposed é (stored as NFC)', () => {
    for (const text of ['Crème Brûlée Sàrl', 'Łódź Spółka', 'Șțefan Țară', 'Euro € GmbH', 'Ÿvonne ½ ©', 'Œuvre Žižek']) expect(qrBillFieldMessage('name', text), text).toBeUndefined();
    expect(qrBillFieldMessage('city', 'Gene\u0301ve')).toBeUndefined();
    expect(companyAddressSchema.parse({ ...address, city: 'Gene\u0301ve' }).city).toBe('Gen\u00e9ve');
  });

  it('property: any text of the set within the limit passes; one refused character anywhere fails naming it', () => {
    for (const [field, { max }] of Object.entries(QR_BILL_FIELDS) as [QrBillField, { max: number }][]) {
      fc.assert(
        fc.property(allowedText(max), refused, fc.nat(), (text, bad, at) => {
          expect(qrBillFieldMessage(field, text)).toBeUndefined();
          const chars = Array.from(text).slice(0, max - 1);
          chars.splice(at % (chars.length + 1), 0, bad);
          const withBad = chars.join('');
          expect(firstNonQrBillCharacter(withBad.normalize('NFC'))).toBeDefined();
          expect(qrBillFieldMessage(field, withBad)).toMatch(/^Character (".+"|U\+[0-9A-F]{4,}) cannot be used in Swiss payments$/u);
        }),
        { numRuns: 200 },
      );
    }
    for (const character of ALLOWED) expect(firstNonQrBillCharacter(character), character).toBeUndefined();
    expect(allowedSet.size).toBe(95 + 224 + 5);
  });

  it('applies to the company, address and onboarding schemas, on the field that breaks the rule', () => {
    expect(errorsOf(companyInsertSchema, { name: 'A'.repeat(71) })).toEqual({ name: 'Name must be at most 70 characters for Swiss QR-bills' });
    expect(errorsOf(companyInsertSchema, { name: 'Ωmega AG', address: { ...address, street: 'Straße Ω' } })).toEqual({
      name: 'Character "Ω" cannot be used in Swiss payments',
      'address.street': 'Character "Ω" cannot be used in Swiss payments',
    });
    expect(errorsOf(companyUpdateSchema, { name: 'Σ AG' })).toEqual({ name: 'Character "Σ" cannot be used in Swiss payments' });
    expect(errorsOf(companyUpdateSchema, { uid: null })).toEqual({});
    expect(errorsOf(companyAddressSchema, { ...address, houseNumber: '12\u200b' })).toEqual({ houseNumber: 'Character U+200B cannot be used in Swiss payments' });
    expect(errorsOf(companyAddressSchema, { ...address, houseNumber: '' })).toEqual({});
    expect(errorsOf(onboardingCompanySchema, { name: 'x'.repeat(71) })).toEqual({ name: 'Name must be at most 70 characters for Swiss QR-bills' });
    expect(errorsOf(addressSchema, { ...address, city: 'Αθήνα' })).toEqual({ city: 'Character "Α" cannot be used in Swiss payments' });
    expect(errorsOf(addressSchema, { ...address, zip: '8'.repeat(17) })).toEqual({ zip: 'ZIP must be at most 16 characters for Swiss QR-bills' });
  });
});
