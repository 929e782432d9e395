/** Passkey calls (spec §7.2). WebAuthn binary fields travel as base64url strings. */
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { api, type ApiBody, type ApiResult } from './api';

export type PasskeyLoginResult = ApiResult<'post', '/napi/auth/webauthn/login'>;

// The server passes @simplewebauthn/server's options through untouched (its route schema says
// only "an object"), so their type is the library's, which both ends share.
type RegisterStart = Omit<ApiResult<'get', '/napi/profile/webauthn/register'>, 'options'> & { options: PublicKeyCredentialCreationOptionsJSON };
type Prelogin = Omit<ApiResult<'post', '/napi/auth/webauthn/prelogin'>, 'options'> & { options: PublicKeyCredentialRequestOptionsJSON };

export const passkeyApi = {
  list: () => api.get('/napi/profile/webauthn/list'),
  registerStart: () => api.get('/napi/profile/webauthn/register') as Promise<RegisterStart>,
  registerFinish: (body: ApiBody<'/napi/profile/webauthn/register'>) =>
    api.post('/napi/profile/webauthn/register', body),
  prelogin: (uuid: string, instance: string) => api.post('/napi/auth/webauthn/prelogin', { uuid, instance }) as Promise<Prelogin>,
  login: (body: ApiBody<'/napi/auth/webauthn/login'>) =>
    api.post('/napi/auth/webauthn/login', body),
};
