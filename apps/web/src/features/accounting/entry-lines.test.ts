import { describe, expect, it } from 'vitest';
import { SWISS_VAT_CODES } from '@bilan/domain';
import { entryToFormValues, formPath, previewEntry, toPayload, totals, type EntryFormValues } from './entry-lines';

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

describe('previewEntry: the VAT split before saving (same domain function as the server)', () => {
  const codes = new Map(SWISS_VAT_CODES.map((code) => [code.code, code]));
  const at = (lines: EntryFormValues['lines'], dateLedger = '2024-03-15'): EntryFormValues => ({ dateLedger, description: '', lines });

  it('shows 108.10 gross on 6500 with M81 as 100.00 + 8.10 on 1170, balanced against the bank', () => {
    const preview = previewEntry(
      at([
        { accountId: 65, debit: '108.10', credit: '', vatCode: 'M81', vatEntry: 'gross' },
        { accountId: 10, debit: '', credit: '108.10' },
      ]),
      codes,
    );
    expect(preview.postings.map((p) => [p.accountId, p.accountNumber, p.direction, p.amount.toFixed(2), p.vat?.role ?? null])).toEqual([
      [65, null, 1, '100.00', 'base'],
      [null, '1170', 1, '8.10', 'tax'],
      [10, null, -1, '108.10', null],
    ]);
    expect([preview.difference.toFixed(2), preview.hasVat, preview.problems.size]).toEqual(['0.00', true, 0]);
  });

  it('counts the tax of a net amount in the difference, and takes the rate of the entry date', () => {
    const net = previewEntry(at([{ accountId: 65, debit: '100', credit: '', vatCode: 'M81', vatEntry: 'net' }, { accountId: 10, debit: '', credit: '100' }]), codes);
    expect(net.difference.toFixed(2)).toBe('8.10');
    const old = previewEntry(at([{ accountId: 32, debit: '', credit: '107.70', vatCode: 'V81', vatEntry: 'gross' }, { accountId: 10, debit: '107.70', credit: '' }], '2023-12-31'), codes);
    expect(old.postings[0]!.vat).toEqual({ code: 'V81', role: 'base', percent: '7.7' });
    expect(old.postings[1]!.amount.toFixed(2)).toBe('7.70');
  });

  it('names a line that cannot be split', () => {
    const preview = previewEntry(at([{ accountId: 44, debit: '1081', credit: '', vatCode: 'B81', vatEntry: 'gross' }, { accountId: 10, debit: '', credit: '1081' }]), codes);
    expect(preview.problems.get(0)).toMatch(/not included in the price/);
  });

  it('loads a coded entry as its base lines entered net, and sends the code back', () => {
    const vat = (code: string, role: 'base' | 'tax') => ({ code, role, percent: '8.1', base: '100.00', amount: '8.10' });
    const line = (id: number, number: string, amount: string, direction: 1 | -1, v: ReturnType<typeof vat> | null) => ({
      id,
      account: { id, number, name: number },
      amount,
      direction,
      originalAmount: amount,
      exchangeRate: '1',
      currency: 'CHF' as const,
      description: null,
      vat: v,
    });
    const entry = {
      id: 1,
      dateLedger: '2024-03-15',
      description: 'Paper',
      source: 'manual',
      debitTotal: '108.10',
      document: null,
      entryAccounts: [line(65, '6500', '100.00', 1, vat('M81', 'base')), line(1170, '1170', '8.10', 1, vat('M81', 'tax')), line(10, '1020', '108.10', -1, null)],
    };
    const form = entryToFormValues(entry);
    expect(form.lines.map((l) => [l.accountId, l.debit, l.credit, l.vatCode, l.vatEntry])).toEqual([
      [65, '100.00', '', 'M81', 'net'],
      [10, '', '108.10', null, null],
    ]);
    expect(toPayload(form).payload.entryAccounts.map((l) => [l.amount, l.vatCode, l.vatEntry])).toEqual([
      ['100.00', 'M81', 'net'],
      ['108.10', undefined, undefined],
    ]);
    expect(previewEntry(form, codes).difference.toFixed(2)).toBe('0.00');
  });
});
