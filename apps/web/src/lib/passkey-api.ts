/** Passkey calls (spec §7.2). WebAuthn binary fields travel as base64url strings. */
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { untypedApi } from './api';

export interface PasskeyLoginResult {
  token?: string;
  user?: { uuid: string; email?: string };
  instance?: { uuid: string; name: string };
  action?: '2FA';
  payload?: string;
}

export const passkeyApi = {
  list: () => untypedApi.get<{ data: { credentialId: string; createdAt: string; lastUsedAt: string | null }[] }>('/napi/profile/webauthn/list'),
  registerStart: () =>
    untypedApi.get<{ challenge: string; jwt: string; options: PublicKeyCredentialCreationOptionsJSON }>('/napi/profile/webauthn/register'),
  registerFinish: (body: { jwt: string; credentialId: string; attestationObject: string; clientDataJSON: string; transports: string[] }) =>
    untypedApi.post<{ isValidSignature: boolean }>('/napi/profile/webauthn/register', body),
  prelogin: (uuid: string, instance: string) =>
    untypedApi.post<{ challenge: string; authenticators: { credentialId: string; jwt: string }[]; options: PublicKeyCredentialRequestOptionsJSON }>(
      '/napi/auth/webauthn/prelogin',
      { uuid, instance },
    ),
  login: (body: { jwt: string; credentialId: string; authenticatorData: string; clientDataJSON: string; signature: string; userHandle?: string }) =>
    untypedApi.post<PasskeyLoginResult>('/napi/auth/webauthn/login', body),
};
