import { beforeAll, describe, expect, it } from 'vitest';
import { installZodMessages } from '../validators/common.js';
import {
  addressSchema, instanceInitAccountsSchema, instanceInitSchema, onboardingBankAccountSchema, onboardingCompanySchema,
  onboardingExtraSchema,
} from './onboarding.js';
import { errorsOf } from './test-helpers.js';

beforeAll(installZodMessages);

const address = { street: 'Bahnhofstrasse', houseNumber: '1', zip: '8001', city: 'Zürich', country: { id: 1 } };
const bankAccount = { ledgerCode: 1000, name: 'Bank', iban: 'CH93 0076 2011 6238 5295 7', bic: 'POFICHBEXXX', type: 1 };

describe('onboardingCompanySchema (spec §5 company name)', () => {
  it('accepts a name with or without a UID', () => {
    expect(errorsOf(onboardingCompanySchema, { name: 'Muster AG' })).toEqual({});
    expect(errorsOf(onboardingCompanySchema, { name: 'Muster AG', uid: 'CHE-116.281.710' })).toEqual({});
    expect(errorsOf(onboardingCompanySchema, { name: 'Muster AG', uid: 'CHE116281710 MWST' })).toEqual({});
    expect(errorsOf(onboardingCompanySchema, { name: 'Muster AG', uid: '' })).toEqual({});
    expect(errorsOf(onboardingCompanySchema, { name: 'Muster AG', uid: null })).toEqual({});
  });

  it('requires the name with "This field must be given"', () => {
    expect(errorsOf(onboardingCompanySchema, {})).toEqual({ name: 'This field must be given' });
    expect(errorsOf(onboardingCompanySchema, { name: '  ' })).toEqual({ name: 'This field must be given' });
  });

  it('refuses an invalid UID with "UID invalid"', () => {
    expect(errorsOf(onboardingCompanySchema, { name: 'A', uid: 'CHE-116.281.711' })).toEqual({ uid: 'UID invalid' });
    expect(errorsOf(onboardingCompanySchema, { name: 'A', uid: '123' })).toEqual({ uid: 'UID invalid' });
  });

  it('refuses unknown keys', () => {
    expect(errorsOf(onboardingCompanySchema, { name: 'A', registerId: 1 })).toEqual({ registerId: 'this key cannot be included' });
  });
});

describe('addressSchema (spec §5 address)', () => {
  it('accepts an address, house number optional', () => {
    expect(errorsOf(addressSchema, address)).toEqual({});
    const { houseNumber: _houseNumber, ...withoutHouseNumber } = address;
    expect(errorsOf(addressSchema, withoutHouseNumber)).toEqual({});
  });

  it('requires street, zip, city and country with "This field must be given"', () => {
    expect(errorsOf(addressSchema, {})).toEqual({
      street: 'This field must be given',
      zip: 'This field must be given',
      city: 'This field must be given',
      country: 'This field must be given',
    });
    expect(errorsOf(addressSchema, { ...address, street: '', zip: ' ', city: '', country: null })).toEqual({
      street: 'This field must be given',
      zip: 'This field must be given',
      city: 'This field must be given',
      country: 'This field must be given',
    });
    expect(errorsOf(addressSchema, { ...address, country: {} })).toEqual({ 'country.id': 'This field must be given' });
    expect(errorsOf(addressSchema, null)).toEqual({ _: 'This field must be given' });
  });

  it('accepts each spec §3 country id and refuses others', () => {
    for (let id = 1; id <= 14; id += 1) expect(errorsOf(addressSchema, { ...address, country: { id } })).toEqual({});
    expect(errorsOf(addressSchema, { ...address, country: { id: 15 } })).toEqual({ 'country.id': 'country unknown' });
    expect(errorsOf(addressSchema, { ...address, country: { id: '1' } })).toEqual({ 'country.id': 'country unknown' });
    expect(errorsOf(addressSchema, { ...address, country: { id: 1, name: 'CH' } })).toEqual({
      'country.name': 'this key cannot be included',
    });
  });
});

describe('onboardingBankAccountSchema (spec §3, §5)', () => {
  it('accepts an IBAN account and a QR-IBAN account, BIC optional', () => {
    expect(errorsOf(onboardingBankAccountSchema, bankAccount)).toEqual({});
    expect(errorsOf(onboardingBankAccountSchema, { ...bankAccount, bic: undefined })).toEqual({});
    expect(errorsOf(onboardingBankAccountSchema, { ...bankAccount, bic: '' })).toEqual({});
    expect(
      errorsOf(onboardingBankAccountSchema, { ...bankAccount, type: 2, iban: 'CH44 3199 9123 0008 8901 2' }),
    ).toEqual({});
  });

  it('checks the IBAN by type', () => {
    expect(errorsOf(onboardingBankAccountSchema, { ...bankAccount, iban: 'CH9400762011623852957' })).toEqual({
      iban: 'The IBAN is wrongly formatted',
    });
    expect(errorsOf(onboardingBankAccountSchema, { ...bankAccount, type: 2 })).toEqual({ iban: 'The QR IBAN is invalid' });
    expect(errorsOf(onboardingBankAccountSchema, { ...bankAccount, type: 2, iban: 'nonsense' })).toEqual({
      iban: 'The QR IBAN is invalid',
    });
    expect(errorsOf(onboardingBankAccountSchema, { ...bankAccount, iban: '' })).toEqual({ iban: 'IBAN must not be empty' });
    expect(errorsOf(onboardingBankAccountSchema, { ...bankAccount, iban: undefined })).toEqual({
      iban: 'IBAN must not be empty',
    });
  });

  it('refuses a wrongly formatted BIC', () => {
    expect(errorsOf(onboardingBankAccountSchema, { ...bankAccount, bic: 'POFICH' })).toEqual({
      bic: 'The BIC is wrongly formatted',
    });
  });

  it('needs type IBAN (1) or QR bill (2)', () => {
    expect(errorsOf(onboardingBankAccountSchema, { ...bankAccount, type: undefined })).toEqual({ type: 'Type must be given' });
    expect(errorsOf(onboardingBankAccountSchema, { ...bankAccount, type: 3 })).toEqual({
      type: 'type must be IBAN (1) or QR bill (2)',
    });
  });

  it('needs a 4-digit integer ledger code and a name', () => {
    expect(errorsOf(onboardingBankAccountSchema, { ...bankAccount, ledgerCode: 999, name: '' })).toEqual({
      ledgerCode: 'ledger code must be between 1000 and 9999',
      name: 'This field must be given',
    });
    expect(errorsOf(onboardingBankAccountSchema, { ...bankAccount, ledgerCode: 10000 })).toEqual({
      ledgerCode: 'ledger code must be between 1000 and 9999',
    });
    expect(errorsOf(onboardingBankAccountSchema, { ...bankAccount, ledgerCode: 1000.5 })).toEqual({
      ledgerCode: 'must be an integer',
    });
    expect(errorsOf(onboardingBankAccountSchema, { ...bankAccount, ledgerCode: '1000' })).toEqual({
      ledgerCode: 'expected type number',
    });
  });

  it('reports the IBAN even when another field is wrong', () => {
    expect(errorsOf(onboardingBankAccountSchema, { ...bankAccount, name: '', iban: 'CH00' })).toEqual({
      name: 'This field must be given',
      iban: 'The IBAN is wrongly formatted',
    });
  });
});

describe('onboardingExtraSchema (spec §5 "Extra info")', () => {
  it('accepts VAT 1–99 percent or none, with a currency', () => {
    for (const vat of ['8.1', '1', '99', '99.000', '2.6', '', null, undefined]) {
      expect(errorsOf(onboardingExtraSchema, { vat, currency: 'CHF' })).toEqual({});
    }
  });

  it("refuses VAT above 99 with \"VAT can't exceed 99%\"", () => {
    expect(errorsOf(onboardingExtraSchema, { vat: '99.001', currency: 'CHF' })).toEqual({ vat: "VAT can't exceed 99%" });
    expect(errorsOf(onboardingExtraSchema, { vat: '100', currency: 'CHF' })).toEqual({ vat: "VAT can't exceed 99%" });
  });

  it("refuses VAT below 1 with \"VAT can't be lower than 1%\"", () => {
    expect(errorsOf(onboardingExtraSchema, { vat: '0.999', currency: 'CHF' })).toEqual({ vat: "VAT can't be lower than 1%" });
    expect(errorsOf(onboardingExtraSchema, { vat: '0', currency: 'CHF' })).toEqual({ vat: "VAT can't be lower than 1%" });
    expect(errorsOf(onboardingExtraSchema, { vat: '-5', currency: 'CHF' })).toEqual({ vat: "VAT can't be lower than 1%" });
  });

  it('refuses VAT that is not a number with at most 3 decimals', () => {
    for (const vat of ['abc', '8,1', '8.1234', ' 8.1']) {
      expect(errorsOf(onboardingExtraSchema, { vat, currency: 'CHF' })).toEqual({
        vat: 'VAT must be a number with at most 3 decimals',
      });
    }
    expect(errorsOf(onboardingExtraSchema, { vat: 8.1, currency: 'CHF' })).toEqual({ vat: 'expected type string' });
  });

  it('requires the currency with "Default currency must be given"', () => {
    expect(errorsOf(onboardingExtraSchema, { vat: '8.1' })).toEqual({ currency: 'Default currency must be given' });
    expect(errorsOf(onboardingExtraSchema, { currency: '' })).toEqual({ currency: 'Default currency must be given' });
    expect(errorsOf(onboardingExtraSchema, { currency: null })).toEqual({ currency: 'Default currency must be given' });
    expect(errorsOf(onboardingExtraSchema, { currency: 'XYZ' })).toEqual({ currency: 'currency unknown' });
  });
});

describe('instanceInitSchema (POST /api/instance/init)', () => {
  const body = { company: { name: 'Muster AG', uid: 'CHE-116.281.710' }, address, extra: { vat: '8.1', currency: 'CHF' } };

  it('accepts the three steps together', () => {
    expect(errorsOf(instanceInitSchema, body)).toEqual({});
    expect(instanceInitSchema.parse({ ...body, company: { name: ' Muster AG ' } }).company.name).toBe('Muster AG');
  });

  it('names every wrong field by its dotted path', () => {
    expect(
      errorsOf(instanceInitSchema, {
        company: { name: '' },
        address: { ...address, city: '' },
        extra: { vat: '120', currency: 'CHF' },
        user: {},
      }),
    ).toEqual({
      'company.name': 'This field must be given',
      'address.city': 'This field must be given',
      'extra.vat': "VAT can't exceed 99%",
      user: 'this key cannot be included',
    });
    expect(errorsOf(instanceInitSchema, {})).toEqual({
      company: 'This field is required',
      address: 'This field must be given',
      extra: 'This field is required',
    });
  });
});

describe('instanceInitAccountsSchema (POST /api/instance/init/accounts)', () => {
  const body = {
    company: { uuid: '3f2b8c1e-8d4a-4f6b-9c2d-1a2b3c4d5e6f' },
    accounts: [bankAccount, { ...bankAccount, ledgerCode: 1001, type: 2, iban: 'CH4431999123000889012' }],
    currency: 'CHF',
  };

  it('accepts the accounts, none included', () => {
    expect(errorsOf(instanceInitAccountsSchema, body)).toEqual({});
    expect(errorsOf(instanceInitAccountsSchema, { ...body, accounts: [] })).toEqual({});
  });

  it('names each wrong account field by index', () => {
    expect(
      errorsOf(instanceInitAccountsSchema, {
        ...body,
        company: { uuid: 'x' },
        accounts: [bankAccount, { ...bankAccount, ledgerCode: 1001, iban: 'CH00' }],
      }),
    ).toEqual({ 'company.uuid': 'uuid invalid', 'accounts.1.iban': 'The IBAN is wrongly formatted' });
    expect(errorsOf(instanceInitAccountsSchema, { ...body, accounts: 'x', currency: 'ABC' })).toEqual({
      accounts: 'array expected',
      currency: 'currency unknown',
    });
  });

  it('refuses the same ledger code twice', () => {
    expect(errorsOf(instanceInitAccountsSchema, { ...body, accounts: [bankAccount, bankAccount] })).toEqual({
      'accounts.1.ledgerCode': 'ledger code already used',
    });
  });
});
