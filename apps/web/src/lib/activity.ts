/**
 * The browser's last user activity, shared by every tab through localStorage (issue #3 §3). The
 * idle timer starts from it on page load (a reload is not activity), and every refresh reports
 * how long ago it was, so the server can end a session idle for more than 30 minutes (spec §9)
 * even when no tab is left to do it.
 */
import { msg } from './i18n';
import { readText, storageKeys, writeText } from './storage';

/** Spec §8, word for word. */
export const IDLE_MESSAGE = msg('Inactivity exceeded 30min; you were automatically signed out');

/** The last activity recorded by any tab (epoch ms), or null when none or unreadable. A time in the future counts as now. */
export function readLastActivity(now = Date.now()): number | null {
  const text = readText(storageKeys.lastActivity);
  if (!text || !/^\d{1,15}$/.test(text)) return null;
  return Math.min(Number(text), now);
}

/** Records activity at `at`; never moves the shared value back (another tab may be more recent). */
export function recordActivity(at = Date.now()): void {
  const known = readLastActivity(at);
  if (known === null || at > known) writeText(storageKeys.lastActivity, String(at));
}

/** Milliseconds since the last recorded activity, for the refresh's `idleMs`; undefined when none is recorded. */
export function idleMs(now = Date.now()): number | undefined {
  const last = readLastActivity(now);
  return last === null ? undefined : Math.max(0, Math.round(now - last));
}

const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;

/**
 * Records user input on every page of the app (onboarding and the login pages included, not only
 * inside the shell), at most once a second. Installed once at start-up; answers the stop function.
 */
export function trackActivity(): () => void {
  let last = 0;
  const onInput = () => {
    const now = Date.now();
    if (now - last < 1000) return;
    last = now;
    recordActivity(now);
  };
  for (const name of ACTIVITY_EVENTS) window.addEventListener(name, onInput, { passive: true, capture: true });
  return () => {
    for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onInput, { capture: true });
  };
}
