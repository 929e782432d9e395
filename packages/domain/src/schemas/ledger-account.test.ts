import { beforeAll, describe, expect, it } from 'vitest';
import { AccountType } from '../enums.js';
import { installZodMessages } from '../validators/common.js';
import { defaultAccountType, ledgerAccountSchema } from './ledger-account.js';
import { errorsOf } from './test-helpers.js';

beforeAll(installZodMessages);

const account = { number: '1020', name: 'Bank', currency: 'CHF' };

describe('defaultAccountType (spec §9)', () => {
  it.each([
    ['1000', AccountType.assets],
    ['2000', AccountType.liability],
    ['2800', AccountType.liability],
    ['3200', AccountType.revenue],
    ['4000', AccountType.expenses],
    ['6570', AccountType.expenses],
    ['9100', AccountType.expenses],
    ['0100', AccountType.expenses],
  ])('%s → %i', (number, type) => {
    expect(defaultAccountType(number)).toBe(type);
  });

  it('takes a number too', () => {
    expect(defaultAccountType(1020)).toBe(AccountType.assets);
    expect(defaultAccountType(3400)).toBe(AccountType.revenue);
  });
});

describe('ledgerAccountSchema', () => {
  it('accepts an account, type and function type optional', () => {
    expect(errorsOf(ledgerAccountSchema, account)).toEqual({});
    expect(errorsOf(ledgerAccountSchema, { ...account, type: 1, functionType: 1 })).toEqual({});
    expect(errorsOf(ledgerAccountSchema, { ...account, number: '1234567890', functionType: null })).toEqual({});
  });

  it('needs 4 to 10 digits as text', () => {
    for (const number of ['123', '12345678901', '12a4', ' 1020', '10.2', '']) {
      expect(errorsOf(ledgerAccountSchema, { ...account, number })).toEqual({ number: 'account number must have 4 to 10 digits' });
    }
    expect(errorsOf(ledgerAccountSchema, { ...account, number: 1020 })).toEqual({ number: 'expected type string' });
  });

  it('needs a name and a known currency', () => {
    expect(errorsOf(ledgerAccountSchema, { ...account, name: ' ', currency: 'XYZ' })).toEqual({
      name: 'This field must be given',
      currency: 'currency unknown',
    });
    expect(errorsOf(ledgerAccountSchema, { number: '1020' })).toEqual({
      name: 'This field must be given',
      currency: 'This field is required',
    });
  });

  it('refuses unknown type and function type ids', () => {
    expect(errorsOf(ledgerAccountSchema, { ...account, type: 6, functionType: 0 })).toEqual({
      type: 'account type unknown',
      functionType: 'function type unknown',
    });
    expect(errorsOf(ledgerAccountSchema, { ...account, type: null })).toEqual({}); // null: use the default class
  });
});
