import { describe, expect, it } from 'vitest';
import { lockSentence } from './write-error';

describe('lockSentence', () => {
  it("turns the server's lock refusal into a sentence with Swiss dates", () => {
    expect(lockSentence('the date 2025-02-15 is on or before the lock date 2025-03-31')).toBe(
      'The date 15.02.2025 is on or before the lock date 31.03.2025.',
    );
    expect(lockSentence('the period is locked.')).toBe('The period is locked.');
  });
});
