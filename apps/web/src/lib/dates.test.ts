import { describe, expect, it } from 'vitest';
import { parseTypedDate } from './dates';

describe('parseTypedDate', () => {
  it.each([
    ['15.01.2026', '2026-01-15'],
    ['5.1.2026', '2026-01-05'],
    ['31.12.25', '2025-12-31'],
    ['2024-02-29', '2024-02-29'],
    [' 01/03/2026 ', '2026-03-01'],
  ])('reads %s as %s', (input, expected) => {
    expect(parseTypedDate(input)).toBe(expected);
  });

  it.each(['31.02.2026', '29.02.2025', '2026-13-01', 'tomorrow', ''])('refuses %s', (input) => {
    expect(parseTypedDate(input)).toBeNull();
  });
});
