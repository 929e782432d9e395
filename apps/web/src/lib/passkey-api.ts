/** Passkey calls (spec §7.2). WebAuthn binary fields travel as base64url strings. */
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { api } from './api';

export interface PasskeyLoginResult {
  token?: string;
  user?: { uuid: string; email?: string };
  instance?: { uuid: string; name: string };
  action?: '2FA';
  payload?: string;
}

export const passkeyApi = {
  list: () => api.get<{ data: { credentialId: string; createdAt: string; lastUsedAt: string | null }[] }>('/napi/profile/webauthn/list'),
  registerStart: () =>
    api.get<{ challenge: string; jwt: string; options: PublicKeyCredentialCreationOptionsJSON }>('/napi/profile/webauthn/register'),
  registerFinish: (body: { jwt: string; credentialId: string; attestationObject: string; clientDataJSON: string; transports: string[] }) =>
    api.post<{ isValidSignature: boolean }>('/napi/profile/webauthn/register', body),
  prelogin: (uuid: string, instance: string) =>
    api.post<{ challenge: string; authenticators: { credentialId: string; jwt: string }[]; options: PublicKeyCredentialRequestOptionsJSON }>(
      '/napi/auth/webauthn/prelogin',
      { uuid, instance },
    ),
  login: (body: { jwt: string; credentialId: string; authenticatorData: string; clientDataJSON: string; signature: string; userHandle?: string }) =>
    api.post<PasskeyLoginResult>('/napi/auth/webauthn/login', body),
};
