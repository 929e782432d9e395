/** Session API calls of the login area (spec §7.2, docs/api.md). */
import type { SsoProvider } from '@bilan/domain';
import { untypedApi, withQuery } from '../../lib/api';

export interface InstanceRef {
  uuid: string;
  name: string;
}

export interface SignInResult {
  token: string;
  user: { uuid: string; email?: string };
  instance: InstanceRef;
}

/** A sign-in that needs the second factor (spec §7.2). */
export interface TwoFactorRequired {
  action: '2FA';
  payload: string;
}

export const isTwoFactorRequired = (value: unknown): value is TwoFactorRequired =>
  typeof value === 'object' && value !== null && (value as { action?: unknown }).action === '2FA';

/** 200 → the workplace exists; 404 `{ err }` → it does not (spec §7.2, §8). */
export const instanceExists = (name: string) => untypedApi.post<InstanceRef>('/napi/instance/exists', { name });

/** Where to send the browser for single sign-on: `?instance=<uuid>` or `?instance=<name>&isSignup=true`. */
export const providerUrl = (provider: SsoProvider, instance: string, isSignup = false) =>
  untypedApi.get<{ url: string }>(withQuery(`/napi/auth/${provider}/url`, { instance, isSignup: isSignup ? true : undefined }));

/** Finishes single sign-on with the query string the provider sent back. */
export const finishSso = (provider: SsoProvider, search: string) =>
  untypedApi.get<SignInResult | TwoFactorRequired>(`/napi/auth/${provider}/redirect${search}`);

export const verifyTwoFactor = (code: string, payload: string) =>
  untypedApi.post<SignInResult | TwoFactorRequired>('/napi/auth/2fa', { code, payload });

export const logout = () => untypedApi.get<{ ok: true }>('/napi/auth/logout');
