import { describe, expect, it } from 'vitest';
import { validationMessages as m } from '../messages.js';
import { isPurchaseAccount, payableDataIssues, payableEmployeeSchema } from './payable.js';

describe('isPurchaseAccount (issue 16 §4)', () => {
  it('takes the expense classes 4–6 and capitalised fixed assets 15xx–17xx', () => {
    for (const number of ['4000', '4200', '5000', '5800', '6000', '6500', '6570', '1500', '1510', '1520', '1600', '1700']) expect(isPurchaseAccount(number), number).toBe(true);
  });
  it('refuses bank, receivables, liabilities, revenue and the rest of class 1', () => {
    for (const number of ['1000', '1020', '1100', '1170', '1400', '2000', '2250', '3200', '7000', '8000', '9200', '15', '']) expect(isPurchaseAccount(number), number).toBe(false);
  });
});

describe('staff expenses (issue 16 §4)', () => {
  it('asks an expense, and only an expense, for its description', () => {
    expect(payableDataIssues({ type: 1, description: '  ' })).toEqual({ description: m.expenseDescriptionRequired });
    expect(payableDataIssues({ isExpense: true })).toEqual({ description: m.expenseDescriptionRequired });
    expect(payableDataIssues({ type: 1, description: 'Train ticket Bern' })).toEqual({});
    expect(payableDataIssues({ type: 0 })).toEqual({});
    expect(payableDataIssues({ type: 0, isExpense: true })).toEqual({});
  });
  it("checks a new employee's name and IBAN with the company form's messages", () => {
    expect(payableEmployeeSchema.safeParse({ name: 'Anna Muster', iban: ' CH56 0483 5012 3456 7800 9 ' }).success).toBe(true);
    const messages = (value: unknown) => {
      const parsed = payableEmployeeSchema.safeParse(value);
      return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
    };
    expect(messages({ name: 'Anna Muster', iban: 'CH5604835012345678008' })).toEqual({ iban: m.ibanWronglyFormatted });
    expect(messages({ name: 'Anna Muster', iban: '' })).toEqual({ iban: m.ibanMustNotBeEmpty });
    expect(Object.keys(messages({ name: '', iban: 'CH5604835012345678009' }))).toEqual(['name']);
  });
});
