import { describe, expect, it } from 'vitest';
import { importProblems } from './import-errors';

describe('importProblems', () => {
  it('lists every unknown account number whole (spec §8 "could not map account {number}")', () => {
    const problems = importProblems({ account: 'could not map account 9991, could not map account 9992, could not map account 1000.1' });
    expect(problems).toEqual({
      unmapped: ['could not map account 9991', 'could not map account 9992', 'could not map account 1000.1'],
      rows: [],
    });
  });

  it('keeps row errors apart from the unknown accounts, in line order', () => {
    const problems = importProblems({
      account: 'could not map account 9991',
      'line 12.amount': 'entry 7 does not balance: debit minus credit is 0.05',
      'line 3.date': 'date invalid',
    });
    expect(problems?.unmapped).toEqual(['could not map account 9991']);
    expect(problems?.rows).toEqual([
      { line: 3, column: 'date', message: 'date invalid' },
      { line: 12, column: 'amount', message: 'entry 7 does not balance: debit minus credit is 0.05' },
    ]);
  });

  it('is null for an answer without import problems', () => {
    expect(importProblems({})).toBeNull();
    expect(importProblems({ dateLedger: 'on or before the lock date' })).toBeNull();
  });

  it('reads the list in the language the server answered in (issue 17 §3)', () => {
    const problems = importProblems({ account: 'Konto 9991 konnte nicht zugeordnet werden, Konto 9992 konnte nicht zugeordnet werden' });
    expect(problems?.unmapped).toEqual(['Konto 9991 konnte nicht zugeordnet werden', 'Konto 9992 konnte nicht zugeordnet werden']);
  });
});
