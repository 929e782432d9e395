import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Money } from '../money.js';
import { installZodMessages } from '../validators/common.js';
import { journalEntryDifference, journalEntrySchema } from './journal-entry.js';
import { errorsOf } from './test-helpers.js';

beforeAll(installZodMessages);

const debit = { account: { id: 1 }, amount: '100.00', direction: 1 };
const credit = { account: { id: 2 }, amount: '100.00', direction: -1 };
const entry = { dateLedger: '2024-02-29', description: 'Rent February', entryAccounts: [debit, credit] };

describe('journalEntryDifference', () => {
  it('is debit − credit, exact, at least 2 decimals', () => {
    expect(journalEntryDifference([debit, credit])).toBe('0.00');
    expect(journalEntryDifference([debit, { ...credit, amount: '99.95' }])).toBe('0.05');
    expect(journalEntryDifference([{ ...debit, amount: '0.1' }, { ...debit, amount: '0.2' }, { ...credit, amount: '0.3' }])).toBe('0.00');
    expect(journalEntryDifference([{ ...credit, amount: '1.005' }])).toBe('-1.005');
    expect(journalEntryDifference([])).toBe('0.00');
    expect(journalEntryDifference([{ amount: new Money('2.5'), direction: 1 }])).toBe('2.50');
  });

  it('refuses a direction other than 1 or −1 and non-amounts', () => {
    expect(() => journalEntryDifference([{ amount: '1', direction: 0 }])).toThrow(RangeError);
    expect(() => journalEntryDifference([{ amount: '1', direction: 2 }])).toThrow(RangeError);
    expect(() => journalEntryDifference([{ amount: 'x', direction: 1 }])).toThrow(RangeError);
  });

  it('is zero exactly when the cents balance (property)', () => {
    const cents = fc.bigInt({ min: 1n, max: 10n ** 15n });
    const toAmount = (value: bigint) => `${value / 100n}.${String(value % 100n).padStart(2, '0')}`;
    fc.assert(
      fc.property(fc.array(fc.tuple(cents, fc.constantFrom(1, -1)), { maxLength: 30 }), (lines) => {
        const expected = lines.reduce((total, [value, direction]) => total + value * BigInt(direction), 0n);
        const difference = journalEntryDifference(lines.map(([value, direction]) => ({ amount: toAmount(value), direction })));
        const sign = expected < 0n ? '-' : '';
        expect(difference).toBe(`${sign}${toAmount(expected < 0n ? -expected : expected)}`);
      }),
    );
  });
});

describe('journalEntrySchema', () => {
  it('accepts a balanced entry, with foreign-currency details', () => {
    expect(errorsOf(journalEntrySchema, entry)).toEqual({});
    expect(
      errorsOf(journalEntrySchema, {
        ...entry,
        entryAccounts: [
          { ...debit, originalAmount: '92.1234567891', exchangeRate: '1.0855', currency: 'EUR', description: 'Rent' },
          { ...credit, originalAmount: null, exchangeRate: null, currency: null, description: null },
        ],
      }),
    ).toEqual({});
    expect(errorsOf(journalEntrySchema, { ...entry, description: '' })).toEqual({});
  });

  it('accepts several lines that balance', () => {
    expect(
      errorsOf(journalEntrySchema, {
        ...entry,
        entryAccounts: [
          { ...debit, amount: '108.10' },
          { ...credit, amount: '100.00' },
          { ...credit, account: { id: 3 }, amount: '8.10' },
        ],
      }),
    ).toEqual({});
  });

  it('refuses an unbalanced entry on entryAccounts', () => {
    expect(errorsOf(journalEntrySchema, { ...entry, entryAccounts: [debit, { ...credit, amount: '99.99' }] })).toEqual({
      entryAccounts: 'debit and credit must be equal',
    });
    expect(errorsOf(journalEntrySchema, { ...entry, entryAccounts: [debit, { ...credit, direction: 1 }] })).toEqual({
      entryAccounts: 'debit and credit must be equal',
    });
  });

  it('leaves the balance to the VAT split when a line names a VAT code, and takes vatEntry only with a code', () => {
    // 100.00 net with 8.1 % input tax against 108.10 from the bank balances only after the split.
    const net = [{ ...debit, amount: '100.00', vatCode: 'M81', vatEntry: 'net' }, { ...credit, amount: '108.10' }];
    expect(errorsOf(journalEntrySchema, { ...entry, entryAccounts: net })).toEqual({});
    expect(errorsOf(journalEntrySchema, { ...entry, entryAccounts: [{ ...debit, vatEntry: 'net' }, credit] })).toEqual({
      'entryAccounts.0.vatEntry': 'vatEntry is given only with a vatCode',
    });
    expect(errorsOf(journalEntrySchema, { ...entry, entryAccounts: [{ ...debit, vatCode: 'm81' }, credit] })).toEqual({
      'entryAccounts.0.vatCode': 'a VAT code has 1 to 12 capital letters, digits, - or _',
    });
    expect(errorsOf(journalEntrySchema, { ...entry, entryAccounts: [{ ...debit, vatCode: 'M81', vatEntry: 'both' }, credit] })).toEqual({
      'entryAccounts.0.vatEntry': 'expected gross or net',
    });
  });

  it('needs at least two lines', () => {
    expect(errorsOf(journalEntrySchema, { ...entry, entryAccounts: [debit] })).toEqual({
      entryAccounts: 'a journal entry needs at least two lines',
    });
    expect(errorsOf(journalEntrySchema, { ...entry, entryAccounts: [] })).toEqual({
      entryAccounts: 'a journal entry needs at least two lines',
    });
    expect(errorsOf(journalEntrySchema, { ...entry, entryAccounts: {} })).toEqual({ entryAccounts: 'array expected' });
  });

  it('checks each line', () => {
    expect(
      errorsOf(journalEntrySchema, {
        ...entry,
        entryAccounts: [
          { account: { id: 0 }, amount: '0.00', direction: 0 },
          { account: {}, amount: '-5.00', direction: '1' },
          { ...credit, amount: '1.234', originalAmount: '1.12345678901', exchangeRate: '0', currency: 'XYZ' },
          { ...credit, amount: 5, exchangeRate: '-1.2', description: 'x'.repeat(501) },
        ],
      }),
    ).toEqual({
      'entryAccounts.0.account.id': 'id must be greater than 0',
      'entryAccounts.0.amount': 'amount must be greater than 0',
      'entryAccounts.0.direction': 'direction must be 1 (debit) or -1 (credit)',
      'entryAccounts.1.account.id': 'This field is required',
      'entryAccounts.1.amount': 'amount must be greater than 0',
      'entryAccounts.1.direction': 'direction must be 1 (debit) or -1 (credit)',
      'entryAccounts.2.amount': 'amount must be a decimal number with at most 2 decimals',
      'entryAccounts.2.originalAmount': 'amount must be a decimal number with at most 10 decimals',
      'entryAccounts.2.exchangeRate': 'exchange rate must be a decimal number greater than 0 with at most 10 decimals',
      'entryAccounts.2.currency': 'currency unknown',
      'entryAccounts.3.amount': 'expected type string',
      'entryAccounts.3.exchangeRate': 'exchange rate must be a decimal number greater than 0 with at most 10 decimals',
      'entryAccounts.3.description': 'description must have at most 500 characters',
    });
  });

  it('checks the date and the description', () => {
    expect(errorsOf(journalEntrySchema, { ...entry, dateLedger: '2023-02-29', description: 'x'.repeat(501) })).toEqual({
      dateLedger: 'date invalid',
      description: 'description must have at most 500 characters',
    });
    expect(errorsOf(journalEntrySchema, { ...entry, description: 'x'.repeat(500) })).toEqual({});
  });

  it('reports imbalance together with other field errors', () => {
    expect(
      errorsOf(journalEntrySchema, { ...entry, dateLedger: '2301-01-01', entryAccounts: [debit, { ...credit, amount: '1.00' }] }),
    ).toEqual({ dateLedger: 'date invalid', entryAccounts: 'debit and credit must be equal' });
  });

  it('refuses unknown keys on the entry and its lines', () => {
    expect(errorsOf(journalEntrySchema, { ...entry, id: 3, entryAccounts: [{ ...debit, debit: '100.00' }, credit] })).toEqual({
      id: 'this key cannot be included',
      'entryAccounts.0.debit': 'this key cannot be included',
    });
  });

  it('balanced random entries pass, unbalanced ones fail (property)', () => {
    const amount = fc.bigInt({ min: 1n, max: 10n ** 12n }).map((cents) => `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`);
    fc.assert(
      fc.property(fc.array(amount, { minLength: 1, maxLength: 10 }), fc.boolean(), (amounts, tamper) => {
        const lines = amounts.map((value, index) => ({ account: { id: index + 1 }, amount: value, direction: 1 }));
        const total = amounts.reduce((sum, value) => sum.plus(value), new Money(0));
        const closing = tamper ? total.plus('0.01') : total;
        const body = { ...entry, entryAccounts: [...lines, { account: { id: 99 }, amount: closing.toFixed(2), direction: -1 }] };
        expect(journalEntrySchema.safeParse(body).success).toBe(!tamper);
      }),
    );
  });
});
