/**
 * Idle sign-out (spec §4 "Idle sign-out", §8, §9): after 30 minutes without activity in any tab of
 * the browser, every tab signs out at once, the idle message is stored as login_error and the
 * user goes to /login. Tabs share their activity through localStorage (lib/activity) and the
 * sign-out over a BroadcastChannel. The timer starts from the last activity stored for the browser,
 * so reloading a page does not restart the 30 minutes; the server enforces the same limit at the
 * next refresh (docs/security.md, V7.3.1).
 */
import { IDLE_TIMEOUT_MS } from '@bilan/domain';
import { api, type ApiResult } from './api';
import { IDLE_MESSAGE, readLastActivity, recordActivity } from './activity';
import { endSession } from './session';
import { SESSION_CHANNEL, type SessionMessage } from './session-channel';
import { readText, storeLoginError } from './storage';

export { IDLE_MESSAGE } from './activity';
/** Test hook: honoured only when the server says it is not a production server. */
export const IDLE_OVERRIDE_KEY = 'idle_timeout_ms';
const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;

type SessionSettings = Pick<ApiResult<'get', '/napi/auth/settings'>, 'idleTimeoutMs' | 'testOverrides'>;

/** The idle time-out in effect: the server's, or the test override on a non-production server. */
export function effectiveTimeout(settings: SessionSettings | null, override: string | null): number {
  const base = settings?.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  if (settings?.testOverrides && override && /^\d+$/.test(override) && Number(override) > 0) return Number(override);
  return base;
}

/**
 * Starts watching; returns the stop function. `onSignedOut` runs in every tab after the session
 * ended (the guard then navigates to /login).
 */
export function startIdleWatch(onSignedOut: () => void): () => void {
  let timeoutMs = IDLE_TIMEOUT_MS;
  let stopped = false;
  void api
    .get('/napi/auth/settings')
    .then((settings) => {
      timeoutMs = effectiveTimeout(settings, readText(IDLE_OVERRIDE_KEY));
    })
    .catch(() => undefined);

  const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(SESSION_CHANNEL);
  // Opening or reloading a page is not activity: the clock runs from the browser's last one. A
  // browser without any record (storage off) starts now.
  let lastActivity = readLastActivity() ?? Date.now();
  if (readLastActivity() === null) recordActivity(lastActivity);
  let lastShared = 0;

  const share = (at: number) => {
    // Once a second is plenty: the time-out is measured in minutes.
    if (at - lastShared < 1000) return;
    lastShared = at;
    recordActivity(at);
    channel?.postMessage({ type: 'activity', at } satisfies SessionMessage);
  };
  const expired = (now: number) => now - Math.max(lastActivity, readLastActivity(now) ?? 0) >= timeoutMs;
  const onActivity = () => {
    const now = Date.now();
    // Input after the time-out has passed (a laptop waking up) does not revive the session.
    if (expired(now)) {
      signOut(true);
      return;
    }
    lastActivity = now;
    share(now);
  };

  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onActivity);
    channel?.close();
  };

  const signOut = (initiator: boolean) => {
    if (stopped) return;
    storeLoginError(IDLE_MESSAGE);
    if (initiator) {
      // Before stop(): a closed channel cannot post.
      channel?.postMessage({ type: 'signout' } satisfies SessionMessage);
      // Ends the server session too; the local sign-out does not wait for it.
      void api.get('/napi/auth/logout').catch(() => undefined);
    }
    stop();
    endSession();
    onSignedOut();
  };

  if (channel) {
    channel.onmessage = (event: MessageEvent<SessionMessage>) => {
      if (event.data?.type === 'activity' && typeof event.data.at === 'number') lastActivity = Math.max(lastActivity, Math.min(event.data.at, Date.now()));
      if (event.data?.type === 'signout') signOut(false);
    };
  }
  for (const name of ACTIVITY_EVENTS) window.addEventListener(name, onActivity, { passive: true });
  const timer = setInterval(() => {
    if (expired(Date.now())) signOut(true);
  }, 1000);
  return stop;
}
