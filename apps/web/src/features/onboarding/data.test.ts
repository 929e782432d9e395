import { describe, expect, it } from 'vitest';
import { deriveStep, stepOfField, STEP_ADDRESS, STEP_BANK_ACCOUNTS, STEP_COMPANY, STEP_END, STEP_EXTRA } from './data';

const company = { name: 'Acme AG' };
const address = { street: 'Bahnhofstrasse', zip: '8001', city: 'Zürich', country: { id: 1 as const } };
const bankAccounts = [{ ledgerCode: 1000, name: 'Bank', iban: 'CH9300762011623852957', type: 1 as const }];
const extra = { vat: '8.1', currency: 'CHF' as const };

describe('onboarding step (spec §4 "derived from collected data")', () => {
  it('follows the answers collected so far', () => {
    expect(deriveStep({})).toBe(STEP_COMPANY);
    expect(deriveStep({ company })).toBe(STEP_ADDRESS);
    expect(deriveStep({ company, address })).toBe(STEP_BANK_ACCOUNTS);
    expect(deriveStep({ company, address, bankAccounts: [] })).toBe(STEP_BANK_ACCOUNTS);
    expect(deriveStep({ company, address, bankAccounts })).toBe(STEP_EXTRA);
    expect(deriveStep({ company, address, bankAccounts, extra })).toBe(STEP_END);
  });

  it('sends server field errors back to the step of the field', () => {
    expect(stepOfField('company.name')).toEqual([STEP_COMPANY, 'name']);
    expect(stepOfField('address.country.id')).toEqual([STEP_ADDRESS, 'country']);
    expect(stepOfField('accounts.1.iban')).toEqual([STEP_BANK_ACCOUNTS, 'accounts.1.iban']);
    expect(stepOfField('extra.vat')).toEqual([STEP_EXTRA, 'vat']);
    expect(stepOfField('something')).toBeUndefined();
  });
});
