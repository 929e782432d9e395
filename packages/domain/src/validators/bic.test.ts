import { describe, expect, it } from 'vitest';
import { isValidBic } from './bic.js';

describe('isValidBic (spec §5 "BIC")', () => {
  it.each(['POFICHBEXXX', 'POFICHBE', 'UBSWCHZH80A', 'DEUTDEFF', 'DEUTDEFF500', 'RAIFCH22'])('accepts %s', (bic) => {
    expect(isValidBic(bic)).toBe(true);
  });

  it.each([
    ['', 'empty'],
    ['POFICHB', '7 characters'],
    ['POFICHBEX', '9 characters'],
    ['POFICHBEXX', '10 characters'],
    ['POFICHBEXXXX', '12 characters'],
    ['P0FICHBEXXX', 'a digit in the bank code'],
    ['POFIC1BEXXX', 'a digit in the country code'],
    ['poficHBEXXX', 'lowercase'],
    ['POFI CH BE XXX', 'spaces'],
    ['POFICHBE-XX', 'punctuation'],
  ])('rejects %s (%s)', (bic) => {
    expect(isValidBic(bic)).toBe(false);
  });

  it('rejects non-strings', () => {
    expect(isValidBic(undefined)).toBe(false);
    expect(isValidBic(12345678)).toBe(false);
  });
});
