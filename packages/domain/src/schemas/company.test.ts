import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AdditionalPropertyType as T } from '../enums.js';
import { makeQrReference, makeCreditorReference } from '../validators/reference.js';
import { swissUidCheckDigit } from '../validators/uid.js';
import {
  additionalPropertyInsertSchema,
  additionalPropertyMessage,
  companyAddressSchema,
  companyInsertSchema,
  instanceSettingsSchema,
  normalizeAdditionalPropertyValue,
  parseAmountProperty,
  phoneNumberDisplay,
} from './company.js';
import { errorsOf } from './test-helpers.js';

const address = { street: 'Bahnhofstrasse', houseNumber: '1', zip: '8001', city: 'Zürich', country: { id: 1 } };

describe('companyAddressSchema (spec §5 "Address")', () => {
  it("says 'This field must be given' for street, zip, city and country", () => {
    expect(errorsOf(companyAddressSchema, { street: ' ', zip: '', city: '' })).toEqual({
      street: 'This field must be given',
      zip: 'This field must be given',
      city: 'This field must be given',
      country: 'This field must be given',
    });
    expect(errorsOf(companyAddressSchema, address)).toEqual({});
    expect(errorsOf(companyAddressSchema, { ...address, country: { id: 99 } })).toEqual({ 'country.id': 'country unknown' });
  });

  it('keeps the QR-bill type S lengths (street 70, house number 16, zip 16, city 35)', () => {
    expect(errorsOf(companyAddressSchema, { ...address, street: 'x'.repeat(70), houseNumber: 'y'.repeat(16), zip: '1'.repeat(16), city: 'z'.repeat(35) })).toEqual({});
    expect(errorsOf(companyAddressSchema, { ...address, street: 'x'.repeat(71), houseNumber: 'y'.repeat(17), zip: '1'.repeat(17), city: 'z'.repeat(36) })).toEqual({
      street: 'Street must be at most 70 characters for Swiss QR-bills',
      houseNumber: 'House number must be at most 16 characters for Swiss QR-bills',
      zip: 'ZIP must be at most 16 characters for Swiss QR-bills',
      city: 'City must be at most 35 characters for Swiss QR-bills',
    });
  });
});

describe('companyInsertSchema', () => {
  it('requires a name and checks the UID with the eCH-0097 check digit', () => {
    expect(errorsOf(companyInsertSchema, { name: '' })).toEqual({ name: 'This field must be given' });
    expect(errorsOf(companyInsertSchema, { name: 'A', uid: 'CHE-116.281.710' })).toEqual({});
    expect(errorsOf(companyInsertSchema, { name: 'A', uid: 'CHE-116.281.711' })).toEqual({ uid: 'UID invalid' });
    expect(errorsOf(companyInsertSchema, { name: 'A', uid: '' })).toEqual({});
  });

  it('accepts every UID whose check digit is right and refuses every other last digit', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{8}$/), (digits) => {
        const check = swissUidCheckDigit(digits);
        for (let last = 0; last <= 9; last += 1) {
          const uid = `CHE-${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6)}${last}`;
          expect(companyInsertSchema.safeParse({ name: 'A', uid }).success).toBe(check === last);
        }
      }),
    );
  });
});

describe('additional property values by type', () => {
  it('accepts good values and names the rule of bad ones', () => {
    const qr = makeQrReference('1234567890');
    const rf = makeCreditorReference('539007547034');
    const good: [number, string][] = [
      [T.Text, 'x'], [T.Email, 'a@b.ch'], [T.Phone, '044 668 18 00'], [T.Phone, '+49 30 901820'], [T.Link, 'http://example.ch'],
      [T.Date, '2024-02-29'], [T.Barcode, 'ABC-123'], [T.ReferenceNumber, qr], [T.ReferenceNumber, rf], [T.Amount, '-12.5'],
      [T.InternalLink, '/company'],
    ];
    for (const [type, value] of good) expect(additionalPropertyMessage(type, value), `${type} ${value}`).toBeUndefined();
    expect(additionalPropertyMessage(T.Email, ' a@b.ch')).toBe('email invalid');
    expect(additionalPropertyMessage(T.Link, 'ftp://example.ch')).toBe('link must be an http or https URL');
    expect(additionalPropertyMessage(T.Date, '2024-13-01')).toBe('date invalid');
    expect(additionalPropertyMessage(T.Amount, '1e3')).toMatch(/^amount must be/);
    expect(additionalPropertyMessage(T.InternalLink, 'https://evil.example')).toMatch(/^internal link/);
    expect(additionalPropertyMessage(99, 'x')).toBe('additional property type unknown');
    expect(normalizeAdditionalPropertyValue(T.ReferenceNumber, ' rf18 5390 0754 7034 ')).toBe('RF18539007547034');
  });

  it('Amount: a decimal with at most 2 decimals, optionally with a currency code of spec §3', () => {
    expect(parseAmountProperty('25000')).toEqual({ amount: '25000', currency: null });
    expect(parseAmountProperty('1234.50 eur')).toEqual({ amount: '1234.50', currency: 'EUR' });
    expect(parseAmountProperty('USDT -12.5')).toEqual({ amount: '-12.5', currency: 'USDT' });
    for (const bad of ['1.234', '12 XYZ', 'EUR 1 EUR', '1e3', 'EUR', '']) expect(parseAmountProperty(bad), bad).toBeUndefined();
    expect(additionalPropertyMessage(T.Amount, '12 XYZ')).toMatch(/^amount must be a decimal number with at most 2 decimals, optionally with a currency code/);
    expect(normalizeAdditionalPropertyValue(T.Amount, ' eur  1234.50 ')).toBe('1234.50 EUR');
    expect(normalizeAdditionalPropertyValue(T.Amount, '99')).toBe('99');
  });

  it('Phone: E.164 for dialling, international form for reading, +41 for Swiss national numbers', () => {
    expect(phoneNumberDisplay('044 668 18 00')).toEqual({ e164: '+41446681800', display: '+41 44 668 18 00' });
    expect(phoneNumberDisplay('+41791234567')).toEqual({ e164: '+41791234567', display: '+41 79 123 45 67' });
    expect(phoneNumberDisplay('+33 1 42 68 53 00')).toEqual({ e164: '+33142685300', display: '+33 1 42 68 53 00' });
    expect(phoneNumberDisplay('12')).toBeUndefined();
  });

  it('puts the message on value in the insert schema', () => {
    const uuid = '3f1c1a55-3c0f-4d3c-9a53-2f8f7b0b8a11';
    expect(errorsOf(additionalPropertyInsertSchema, { company: { uuid }, type: T.Email, name: 'Mail', value: 'x' })).toEqual({ value: 'email invalid' });
    expect(errorsOf(additionalPropertyInsertSchema, { company: { uuid }, type: T.Text, name: 'Note', value: 'ok' })).toEqual({});
  });
});

describe('instanceSettingsSchema (spec §2.7 General Settings)', () => {
  it('reuses the §5 VAT messages and the UID rule for the VAT number', () => {
    expect(errorsOf(instanceSettingsSchema, { vat: '100' })).toEqual({ vat: "VAT can't exceed 99%" });
    expect(errorsOf(instanceSettingsSchema, { vat: '0.9' })).toEqual({ vat: "VAT can't be lower than 1%" });
    expect(errorsOf(instanceSettingsSchema, { vat: '', vatNumber: 'CHE-116.281.710 MWST' })).toEqual({});
    expect(errorsOf(instanceSettingsSchema, { vatNumber: 'CHE-116.281.710 VAT' })).toEqual({ vatNumber: 'UID invalid' });
  });
});
