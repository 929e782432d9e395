/** Session API calls of the login area (spec §7.2, docs/api.md). */
import type { SsoProvider } from '@bilan/domain';
import { api, type ApiResult } from '../../lib/api';

export type InstanceRef = ApiResult<'post', '/napi/instance/exists'>;

export type SignInResult = ApiResult<'post', '/napi/auth/2fa'>;
/** A sign-in that needs the second factor (spec §7.2). */
export type TwoFactorRequired = Extract<ApiResult<'get', '/napi/auth/{provider}/redirect'>, { action: '2FA' }>;

export const isTwoFactorRequired = (value: unknown): value is TwoFactorRequired =>
  typeof value === 'object' && value !== null && (value as { action?: unknown }).action === '2FA';

/** 200 → the workplace exists; 404 `{ err }` → it does not (spec §7.2, §8). */
export const instanceExists = (name: string) => api.post('/napi/instance/exists', { name });

/** Where to send the browser for single sign-on: `?instance=<uuid>` or `?instance=<name>&isSignup=true`. */
export const providerUrl = (provider: SsoProvider, instance: string, isSignup = false) =>
  api.get('/napi/auth/{provider}/url', { params: { provider }, query: { instance, ...(isSignup ? { isSignup: 'true' as const } : {}) } });

/** Finishes single sign-on with the query string the provider sent back, every parameter of it (openid-client checks them). */
export const finishSso = (provider: SsoProvider, search: string) =>
  api.get('/napi/auth/{provider}/redirect', { params: { provider }, query: Object.fromEntries(new URLSearchParams(search)) });

export const verifyTwoFactor = (code: string, payload: string) =>
  api.post('/napi/auth/2fa', { code, payload });

export const logout = () => api.get('/napi/auth/logout');
