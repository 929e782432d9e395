import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseTypedDate, today } from './dates';

describe('today', () => {
  afterEach(() => vi.useRealTimers());

  it.each([
    // 23:30 UTC is 00:30 in Zurich in winter (CET), 01:30 in summer (CEST): already the next day.
    ['2026-11-27T23:30:00Z', '2026-11-28'],
    ['2026-06-30T22:30:00Z', '2026-07-01'],
    ['2026-12-31T23:00:00Z', '2027-01-01'],
    ['2026-11-27T22:59:59Z', '2026-11-27'],
    ['2026-03-29T00:30:00Z', '2026-03-29'],
  ])('at %s is %s, the date in Switzerland', (instant, expected) => {
    vi.useFakeTimers({ now: new Date(instant) });
    expect(today()).toBe(expected);
  });
});

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
