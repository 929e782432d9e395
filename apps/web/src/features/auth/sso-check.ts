import { isSsoProvider, type SsoProvider } from '@bilan/domain';
import { decodeBase64UrlJson } from '../../lib/base64url';
import { msg } from '../../lib/i18n';

/** `message` is an English text, shown through t(). */
export type SsoCheck = { ok: true; provider: SsoProvider } | { ok: false; message: string };

/** Spec §5 "Single sign-on return": provider, then code and state, then the instance in the state. */
export function checkSsoReturn(provider: string | undefined, search: URLSearchParams): SsoCheck {
  if (!isSsoProvider(provider)) return { ok: false, message: msg('SSO provider not recognized') };
  const code = search.get('code');
  const state = search.get('state');
  if (!code || !state) return { ok: false, message: msg('Code expected') };
  const decoded = decodeBase64UrlJson(state);
  const instance = typeof decoded === 'object' && decoded !== null ? (decoded as { instance?: unknown }).instance : undefined;
  if (typeof instance !== 'string' || !instance) return { ok: false, message: msg('instance wrong') };
  return { ok: true, provider };
}

