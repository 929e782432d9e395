/**
 * Browser storage under the spec's keys (spec §3 "Local storage keeps: profile, permissions,
 * locale, the observed year and a login error message"). Storage can be unavailable (private
 * mode, quota): every access is guarded so the app keeps working without it.
 */
export const storageKeys = {
  profile: 'profile',
  permissions: 'permissions',
  locale: 'locale',
  year: 'year',
  loginError: 'login_error',
  /** Ours: last signed-in user per instance uuid, so the login page can offer the passkey (spec §6). */
  lastUsers: 'login_users',
  /** Ours: the user's number format (issue 17 §3), so a reload shows amounts in it before the profile answers. */
  numberFormat: 'number_format',
  /** Ours: epoch ms of the last user activity in any tab (idle sign-out, spec §4). */
  lastActivity: 'last_activity',
} as const;

export const sessionKeys = {
  /** Ours: onboarding answers kept while the wizard is open, so a reload resumes (spec §4). */
  onboarding: 'onboarding',
} as const;

function store(kind: 'local' | 'session'): Storage | null {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null;
  }
}

export function readText(key: string, kind: 'local' | 'session' = 'local'): string | null {
  try {
    return store(kind)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeText(key: string, value: string | null, kind: 'local' | 'session' = 'local'): void {
  try {
    const target = store(kind);
    if (value === null) target?.removeItem(key);
    else target?.setItem(key, value);
  } catch {
    // Storage full or disabled: the value is simply not remembered.
  }
}

export function readJson<T>(key: string, kind: 'local' | 'session' = 'local'): T | null {
  try {
    const text = store(kind)?.getItem(key);
    return text ? (JSON.parse(text) as T) : null;
  } catch {
    return null;
  }
}

export function writeJson(key: string, value: unknown, kind: 'local' | 'session' = 'local'): void {
  writeText(key, value === null || value === undefined ? null : JSON.stringify(value), kind);
}

/** Reads and removes the login error (spec §2.8 "shown once as a warning and then cleared"). */
export const peekLoginError = (): string | null => readText(storageKeys.loginError);
export const clearLoginError = (): void => writeText(storageKeys.loginError, null);
export const storeLoginError = (message: string): void => writeText(storageKeys.loginError, message);
