import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IDLE_TIMEOUT_MS } from '@bilan/domain';
import { idleMs, readLastActivity, recordActivity } from './activity';
import { effectiveTimeout, IDLE_MESSAGE, startIdleWatch } from './idle';

/** The browser's Storage, in memory (Node has none). */
class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
}

const MINUTE = 60_000;
const START = new Date('2026-03-02T10:00:00Z').getTime();
let storage: MemoryStorage;
let browser: EventTarget;
let calls: string[];
let stop: (() => void) | undefined;

beforeEach(() => {
  vi.useFakeTimers({ now: START, toFake: ['Date', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
  storage = new MemoryStorage();
  browser = Object.assign(new EventTarget(), { localStorage: storage, sessionStorage: new MemoryStorage() });
  vi.stubGlobal('window', browser);
  calls = [];
  // The network (not our code): the server's session settings and the logout call.
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      calls.push(url);
      const body = url.endsWith('/napi/auth/settings') ? { idleTimeoutMs: IDLE_TIMEOUT_MS, refreshIntervalMs: 480_000, testOverrides: false } : { ok: true };
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    }),
  );
});

afterEach(() => {
  stop?.();
  stop = undefined;
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function watch() {
  const signedOut = vi.fn();
  stop = startIdleWatch(signedOut);
  return signedOut;
}

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

describe('idle timer on page load', () => {
  it('starts from the last activity stored for the browser, not from the page load', async () => {
    storage.setItem('last_activity', String(START - 29 * MINUTE));
    const signedOut = watch();
    await vi.advanceTimersByTimeAsync(50_000);
    expect(signedOut).not.toHaveBeenCalled();
    // 30 minutes after the stored activity, although the page was loaded only a minute ago.
    await vi.advanceTimersByTimeAsync(15_000);
    expect(signedOut).toHaveBeenCalledTimes(1);
    expect(storage.getItem('login_error')).toBe(IDLE_MESSAGE);
    expect(calls).toContain('/napi/auth/logout');
  });

  it('signs out at once when the browser was idle for more than 30 minutes before the reload', async () => {
    storage.setItem('last_activity', String(START - 31 * MINUTE));
    const signedOut = watch();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(signedOut).toHaveBeenCalledTimes(1);
  });

  it('starts from now, and records it, when the browser has no record', async () => {
    const signedOut = watch();
    expect(storage.getItem('last_activity')).toBe(String(START));
    await vi.advanceTimersByTimeAsync(29 * MINUTE);
    expect(signedOut).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(MINUTE + 1_000);
    expect(signedOut).toHaveBeenCalledTimes(1);
  });
});

describe('activity', () => {
  it('records input for every tab and restarts the 30 minutes', async () => {
    storage.setItem('last_activity', String(START - 20 * MINUTE));
    const signedOut = watch();
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    browser.dispatchEvent(new Event('keydown'));
    expect(storage.getItem('last_activity')).toBe(String(START + 5 * MINUTE));
    await vi.advanceTimersByTimeAsync(29 * MINUTE);
    expect(signedOut).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(MINUTE + 1_000);
    expect(signedOut).toHaveBeenCalledTimes(1);
  });

  it('counts activity another tab stored', async () => {
    const signedOut = watch();
    await vi.advanceTimersByTimeAsync(20 * MINUTE);
    storage.setItem('last_activity', String(Date.now()));
    await vi.advanceTimersByTimeAsync(25 * MINUTE);
    expect(signedOut).not.toHaveBeenCalled();
  });

  it('does not let input after the time-out revive the session (a laptop waking up)', async () => {
    const signedOut = watch();
    // The machine sleeps: the clock jumps, no timer ran.
    vi.setSystemTime(START + 31 * MINUTE);
    browser.dispatchEvent(new Event('pointermove'));
    expect(signedOut).toHaveBeenCalledTimes(1);
    expect(storage.getItem('last_activity')).toBe(String(START));
  });

  it('reports the idle time for the refresh and never moves the shared record back', () => {
    expect(idleMs(START)).toBeUndefined();
    recordActivity(START - 5 * MINUTE);
    expect(idleMs(START)).toBe(5 * MINUTE);
    recordActivity(START - 10 * MINUTE);
    expect(readLastActivity(START)).toBe(START - 5 * MINUTE);
    // A record in the future (another tab's clock) counts as now.
    storage.setItem('last_activity', String(START + MINUTE));
    expect(idleMs(START)).toBe(0);
    storage.setItem('last_activity', 'garbage');
    expect(idleMs(START)).toBeUndefined();
  });
});
