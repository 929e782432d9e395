/**
 * The session: access token in memory, refreshed at start and every 8 minutes (spec §4, §7.2, §9),
 * and the profile of the signed-in user. Components read it with `useSession()`; the auth guard
 * turns its status into navigation (a failed refresh or a 401 profile load → /login, any other
 * profile failure → /onboarding).
 */
import { useSyncExternalStore } from 'react';
import { ACCESS_TOKEN_REFRESH_MS } from '@bilan/domain';
import { api, ApiError, getAccessToken, setAccessToken, type ApiResult } from './api';
import { IDLE_MESSAGE, idleMs, recordActivity } from './activity';
import { applyPreferences } from './i18n';
import { readJson, storageKeys, storeLoginError, writeJson } from './storage';

export type Profile = ApiResult<'get', '/napi/profile'>;

export type SessionStatus =
  /** Nothing tried yet (fresh page load). */
  | 'unknown'
  | 'loading'
  /** No valid token: the guard sends the user to /login. */
  | 'anonymous'
  /** A token but no usable profile: onboarding not finished (spec §4 "any other failure"). */
  | 'onboarding'
  | 'ready';

export interface SessionState {
  status: SessionStatus;
  profile: Profile | null;
}

let state: SessionState = { status: 'unknown', profile: null };
const listeners = new Set<() => void>();

function setState(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

export const getSession = (): SessionState => state;

export function useSession(): SessionState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
  );
}

/**
 * Whether the signed-in user may `read`, `write` (post and edit) or `admin` (settings, staff) in
 * the current instance (issue #3 §4: permissions drive what the web shows; the server enforces them).
 */
export function useCan(permission: 'read' | 'write' | 'admin'): boolean {
  const { profile } = useSession();
  return Boolean(profile?.permissions?.includes(permission));
}

/** The profile stored by the last load (spec §3), e.g. for /logout after a reload. */
export const storedProfile = (): Profile | null => readJson<Profile>(storageKeys.profile);

let refreshTimer: ReturnType<typeof setInterval> | undefined;
let lastRefresh = 0;
let inflight: Promise<boolean> | null = null;
/** The profile a page load's refresh brought along (`withProfile`), taken once by `startSession`. */
let refreshedProfile: Profile | null = null;

/**
 * GET /napi/auth/refresh?idleMs=… The refresh token rotates on every use, so tabs take turns
 * through a Web Lock: two tabs never present the same cookie (the second one waits and sends the
 * new one). `idleMs` reports the browser's last activity: the server refuses (and ends) a session
 * idle for more than 30 minutes or older than 12 hours; the reason is then stored as login_error
 * (spec §8 idle message). When the answer names another instance than this tab shows, the session
 * was switched in another tab: this tab reloads into it.
 */
export function refreshAccessToken(options: { withProfile?: boolean } = {}): Promise<boolean> {
  inflight ??= (async () => {
    const run = async () => {
      const query = options.withProfile ? { idleMs: idleMs(), withProfile: 'true' as const } : { idleMs: idleMs() };
      const answer = await api.get('/napi/auth/refresh', { query });
      setAccessToken(answer.token);
      refreshedProfile = answer.profile ?? null;
      lastRefresh = Date.now();
      const shown = state.profile?.instance.uuid;
      if (shown && answer.instance && answer.instance.uuid !== shown) reloadIntoInstance();
    };
    try {
      if ('locks' in navigator && navigator.locks) await navigator.locks.request('bilan-refresh', run);
      else await run();
      return true;
    } catch (error) {
      const body = error instanceof ApiError && error.status === 401 ? (error.body as { reason?: unknown; error?: unknown } | null) : null;
      if (body?.reason === 'idle') storeLoginError(IDLE_MESSAGE);
      else if (body?.reason === 'expired' && typeof body.error === 'string') storeLoginError(body.error);
      return false;
    } finally {
      inflight = null;
    }
  })();
  return inflight;
}

/** The session now belongs to another instance (switched in another tab): start over at home. */
export function reloadIntoInstance(): void {
  clearInterval(refreshTimer);
  window.location.assign('/');
}

function scheduleRefresh(): void {
  clearInterval(refreshTimer);
  refreshTimer = setInterval(() => void refreshOrEnd(), ACCESS_TOKEN_REFRESH_MS);
}

async function refreshOrEnd(): Promise<void> {
  if (!(await refreshAccessToken())) endSession();
}

// A laptop waking up or a background tab whose timers were throttled refreshes at once.
if (typeof document !== 'undefined') {
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && getAccessToken() && Date.now() - lastRefresh >= ACCESS_TOKEN_REFRESH_MS) {
      void refreshOrEnd();
    }
  });
}

/** GET /napi/profile: 401 → anonymous, any other failure → onboarding (spec §4 "Session loading"). */
export async function loadProfile(): Promise<SessionStatus> {
  // The status stays as it is until the answer: a reload after onboarding keeps its page on screen.
  try {
    return await acceptProfile(await api.get('/napi/profile'));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      endSession();
      return 'anonymous';
    }
    setState({ status: 'onboarding', profile: null });
    return 'onboarding';
  }
}

/** Stores a loaded profile and applies the user's preferences; the session is then ready (or still onboarding). */
async function acceptProfile(profile: Profile): Promise<SessionStatus> {
  writeJson(storageKeys.profile, profile);
  writeJson(storageKeys.permissions, profile.permissions ?? []);
  // The spec's `locale` (§3) is the user's language; an unchosen one leaves the browser's.
  await applyPreferences(profile);
  const status: SessionStatus = profile.instance.initialized === false ? 'onboarding' : 'ready';
  setState({ status, profile });
  return status;
}

/**
 * Page load: refresh (the cookie is the only credential that survives a reload), which brings the
 * profile along; GET /napi/profile only when it could not (it then tells why: onboarding, 401).
 */
export async function startSession(): Promise<SessionStatus> {
  if (state.status !== 'unknown') return state.status;
  setState({ status: 'loading', profile: null });
  if (!getAccessToken() && !(await refreshAccessToken({ withProfile: true }))) {
    endSession();
    return 'anonymous';
  }
  scheduleRefresh();
  const profile = refreshedProfile;
  refreshedProfile = null;
  return profile ? acceptProfile(profile) : loadProfile();
}

/** After single sign-on or two-factor: keep the token, start refreshing, load the profile. Signing in is activity. */
export async function signIn(token: string): Promise<SessionStatus> {
  recordActivity();
  setAccessToken(token);
  lastRefresh = Date.now();
  scheduleRefresh();
  return loadProfile();
}

/** Forgets the token and the stored profile; the guard then sends the user to /login. */
export function endSession(): void {
  clearInterval(refreshTimer);
  setAccessToken(null);
  writeJson(storageKeys.profile, null);
  writeJson(storageKeys.permissions, null);
  setState({ status: 'anonymous', profile: null });
}
