import { describe, expect, it } from 'vitest';
import { rowProblems } from './api';

describe('rowProblems', () => {
  it('lists row errors in line order, the header as line 1 and file-wide problems without a line', () => {
    expect(
      rowProblems({
        'line 9.iban': 'no IBAN for Beat Keller',
        account: 'could not map account 4711',
        'line 3.wagetype': 'unknown wage type "9999"',
        'line 1': 'missing column amount',
      }),
    ).toEqual([
      { line: null, column: 'account', message: 'could not map account 4711' },
      { line: 1, column: 'header', message: 'missing column amount' },
      { line: 3, column: 'wagetype', message: 'unknown wage type "9999"' },
      { line: 9, column: 'iban', message: 'no IBAN for Beat Keller' },
    ]);
  });
  it('answers nothing without fields', () => {
    expect(rowProblems(undefined)).toEqual([]);
  });
});
