import { beforeAll, describe, expect, it } from 'vitest';
import { PaymentProfileType, ledgerPaymentProfileTypes, offeredPaymentProfileTypes } from '../enums.js';
import { installZodMessages } from '../validators/common.js';
import {
  clearIbanOnTypeChange, ibanMessageForType, isIbanPaymentProfileType, paymentProfileFormSchema,
} from './payment-profile.js';
import { errorsOf } from './test-helpers.js';

beforeAll(installZodMessages);

const profile = { account: { id: 7 }, type: PaymentProfileType.Iban, iban: 'CH93 0076 2011 6238 5295 7', bic: 'POFICHBEXXX' };

describe('paymentProfileFormSchema (spec §5 "Payment profile form")', () => {
  it('accepts an IBAN profile, a QR-bill profile and a public-ledger profile', () => {
    expect(errorsOf(paymentProfileFormSchema, profile)).toEqual({});
    expect(errorsOf(paymentProfileFormSchema, { ...profile, bic: null })).toEqual({});
    expect(errorsOf(paymentProfileFormSchema, { ...profile, type: PaymentProfileType.QrBill, iban: 'CH4431999123000889012' })).toEqual({});
    expect(
      errorsOf(paymentProfileFormSchema, {
        account: { id: 7 }, type: PaymentProfileType.Ethereum, iban: '0x52908400098527886E0F7030069857D2E4169EE7',
      }),
    ).toEqual({});
  });

  it('requires the account with "Account must not be empty"', () => {
    expect(errorsOf(paymentProfileFormSchema, { ...profile, account: undefined })).toEqual({ account: 'Account must not be empty' });
    expect(errorsOf(paymentProfileFormSchema, { ...profile, account: null })).toEqual({ account: 'Account must not be empty' });
    expect(errorsOf(paymentProfileFormSchema, { ...profile, account: {} })).toEqual({ 'account.id': 'Account must not be empty' });
    expect(errorsOf(paymentProfileFormSchema, { ...profile, account: { id: 0 } })).toEqual({
      'account.id': 'id must be greater than 0',
    });
  });

  it('requires the type with "Type must be given"; 0 counts as not given', () => {
    for (const type of [undefined, null, 0]) {
      expect(errorsOf(paymentProfileFormSchema, { ...profile, type })).toEqual({ type: 'Type must be given' });
    }
    expect(errorsOf(paymentProfileFormSchema, { ...profile, type: 'iban' })).toEqual({ type: 'expected type number' });
    expect(errorsOf(paymentProfileFormSchema, { ...profile, type: PaymentProfileType.Stripe })).toEqual({ type: 'type not supported' });
  });

  it('with no type, reports only account and type, whatever the iban', () => {
    expect(errorsOf(paymentProfileFormSchema, { type: 0, iban: '' })).toEqual({
      account: 'Account must not be empty',
      type: 'Type must be given',
    });
  });

  it('"IBAN must not be empty" for IBAN kinds, "Public address must not be empty" for ledger kinds', () => {
    for (const iban of ['', '  ', null, undefined]) {
      expect(errorsOf(paymentProfileFormSchema, { ...profile, iban })).toEqual({ iban: 'IBAN must not be empty' });
      expect(errorsOf(paymentProfileFormSchema, { ...profile, type: PaymentProfileType.QrBill, iban })).toEqual({
        iban: 'IBAN must not be empty',
      });
    }
    for (const type of ledgerPaymentProfileTypes) {
      expect(errorsOf(paymentProfileFormSchema, { account: { id: 7 }, type, iban: '' })).toEqual({
        iban: 'Public address must not be empty',
      });
    }
  });

  it('IBAN kind must pass the IBAN check', () => {
    expect(errorsOf(paymentProfileFormSchema, { ...profile, iban: 'CH9400762011623852957' })).toEqual({
      iban: 'The IBAN is wrongly formatted',
    });
    expect(errorsOf(paymentProfileFormSchema, { ...profile, iban: 'CH4431999123000889012' })).toEqual({});
  });

  it('QR-bill kind needs a valid IBAN with an IID in 30000–31999', () => {
    const qr = { ...profile, type: PaymentProfileType.QrBill };
    expect(errorsOf(paymentProfileFormSchema, { ...qr, iban: 'CH9300762011623852957' })).toEqual({ iban: 'The QR IBAN is invalid' });
    expect(errorsOf(paymentProfileFormSchema, { ...qr, iban: 'CH4531999123000889012' })).toEqual({ iban: 'The QR IBAN is invalid' });
    expect(errorsOf(paymentProfileFormSchema, { ...qr, iban: 'ch44 3199 9123 0008 8901 2' })).toEqual({});
  });

  it('BIC is optional, must be well formed, and only for IBAN kinds', () => {
    expect(errorsOf(paymentProfileFormSchema, { ...profile, bic: '' })).toEqual({});
    expect(errorsOf(paymentProfileFormSchema, { ...profile, bic: 'pofichbexxx' })).toEqual({ bic: 'The BIC is wrongly formatted' });
    expect(
      errorsOf(paymentProfileFormSchema, { account: { id: 7 }, type: PaymentProfileType.Solana, iban: '11111111111111111111111111111111', bic: 'POFICHBEXXX' }),
    ).toEqual({ bic: 'BIC is only used with IBAN and QR bill' });
  });

  it('reports the IBAN and the BIC together', () => {
    expect(
      errorsOf(paymentProfileFormSchema, { ...profile, type: PaymentProfileType.QrBill, iban: 'CH9300762011623852957', bic: 'x' }),
    ).toEqual({ iban: 'The QR IBAN is invalid', bic: 'The BIC is wrongly formatted' });
  });

  it('refuses unknown keys', () => {
    expect(errorsOf(paymentProfileFormSchema, { ...profile, account: { id: 7, number: '1020' }, archived: true })).toEqual({
      'account.number': 'this key cannot be included',
      archived: 'this key cannot be included',
    });
  });
});

describe('clearIbanOnTypeChange (spec §5)', () => {
  it('is false for IBAN and QR bill, true for every other kind and for none', () => {
    expect(clearIbanOnTypeChange(PaymentProfileType.Iban)).toBe(false);
    expect(clearIbanOnTypeChange(PaymentProfileType.QrBill)).toBe(false);
    for (const type of [0, ...offeredPaymentProfileTypes.filter((t) => !isIbanPaymentProfileType(t)), 10, 11]) {
      expect(clearIbanOnTypeChange(type)).toBe(true);
    }
  });
});

describe('ibanMessageForType', () => {
  it('checks nothing for type 0 and the address format for ledger kinds', () => {
    expect(ibanMessageForType(0, '')).toBeUndefined();
    expect(ibanMessageForType(PaymentProfileType.Ethereum, 'anything')).toBe('The public address is invalid');
    expect(ibanMessageForType(PaymentProfileType.Polygon, '0x52908400098527886E0F7030069857D2E4169EE7')).toBeUndefined();
    expect(ibanMessageForType(PaymentProfileType.Polygon, '0x52908400098527886E0F7030069857D2E4169Ee7')).toBe('The public address is invalid');
    expect(ibanMessageForType(PaymentProfileType.Solana, '11111111111111111111111111111111')).toBeUndefined();
    expect(ibanMessageForType(PaymentProfileType.Iban, 'CH9300762011623852957')).toBeUndefined();
  });
});
