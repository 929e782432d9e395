import { describe, expect, it } from 'vitest';
import { formPath, toPayload, totals, type EntryFormValues } from './entry-lines';

const values = (lines: EntryFormValues['lines']): EntryFormValues => ({ dateLedger: '2026-03-31', description: ' Rent ', lines });

describe('journal entry form arithmetic', () => {
  it('sums exactly, never in binary floats', () => {
    const { debit, credit, difference } = totals([
      { accountId: 1, debit: '0.1', credit: '' },
      { accountId: 2, debit: '0.2', credit: '' },
      { accountId: 3, debit: '', credit: '0.3' },
    ]);
    expect(debit.toFixed(2)).toBe('0.30');
    expect(credit.toFixed(2)).toBe('0.30');
    expect(difference.isZero()).toBe(true);
  });

  it('reads half-typed amounts ("12.") and treats blanks as zero', () => {
    const { debit, difference } = totals([
      { accountId: 1, debit: '12.', credit: '' },
      { accountId: null, debit: '', credit: '' },
    ]);
    expect(debit.toFixed(2)).toBe('12.00');
    expect(difference.toFixed(2)).toBe('12.00');
  });
});

describe('toPayload', () => {
  it('turns debit/credit columns into absolute amounts with a direction and skips blank lines', () => {
    const { payload, indexes } = toPayload(
      values([
        { accountId: 7, debit: '2450.5', credit: '' },
        { accountId: null, debit: '', credit: '' },
        { accountId: 1, debit: '', credit: '2450.50' },
      ]),
    );
    expect(payload).toEqual({
      dateLedger: '2026-03-31',
      description: 'Rent',
      entryAccounts: [
        { account: { id: 7 }, amount: '2450.50', direction: 1 },
        { account: { id: 1 }, amount: '2450.50', direction: -1 },
      ],
    });
    expect(indexes).toEqual([0, 2]);
  });

  it('maps schema paths back to the form line that caused them', () => {
    const form = values([
      { accountId: 7, debit: '10', credit: '' },
      { accountId: null, debit: '', credit: '' },
      { accountId: 1, debit: '', credit: '10' },
    ]);
    const { indexes } = toPayload(form);
    expect(formPath('entryAccounts.1.amount', form, indexes)).toBe('lines.2.credit');
    expect(formPath('entryAccounts.0.account.id', form, indexes)).toBe('lines.0.accountId');
    expect(formPath('dateLedger', form, indexes)).toBe('dateLedger');
    expect(formPath('entryAccounts', form, indexes)).toBeUndefined();
  });
});
