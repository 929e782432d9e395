import { describe, expect, it } from 'vitest';
import { IDLE_TIMEOUT_MS } from '@bilan/domain';
import { effectiveTimeout, IDLE_MESSAGE } from './idle';

describe('idle time-out', () => {
  it('is 30 minutes with the spec message (spec §8, §9)', () => {
    expect(IDLE_TIMEOUT_MS).toBe(30 * 60 * 1000);
    expect(IDLE_MESSAGE).toBe('Inactivity exceeded 30min; you were automatically signed out');
    expect(effectiveTimeout(null, null)).toBe(IDLE_TIMEOUT_MS);
  });

  it('honours the test override only on a non-production server and only for a positive integer', () => {
    const production = { idleTimeoutMs: IDLE_TIMEOUT_MS, testOverrides: false };
    const test = { idleTimeoutMs: IDLE_TIMEOUT_MS, testOverrides: true };
    expect(effectiveTimeout(production, '5000')).toBe(IDLE_TIMEOUT_MS);
    expect(effectiveTimeout(test, '5000')).toBe(5000);
    for (const bad of ['0', '-5', 'abc', '1.5', '', null]) expect(effectiveTimeout(test, bad)).toBe(IDLE_TIMEOUT_MS);
  });
});
