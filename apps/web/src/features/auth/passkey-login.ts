/**
 * 'Sign in with Passkey' (spec §2.8, §6, §8): prelogin → the browser's WebAuthn prompt → login.
 * Errors are the spec's: 'Invalid UUID format', 'failing to retrieve credentials', 'could not
 * match credentials', or the server's text from prelogin.
 */
import { startAuthentication } from '@simplewebauthn/browser';
import { errorMessage } from '../../lib/errors';
import { msg } from '../../lib/i18n';
import { passkeyApi, type PasskeyLoginResult } from '../../lib/passkey-api';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class PasskeyLoginError extends Error {}

export async function signInWithPasskey(userUuid: string, instanceUuid: string): Promise<PasskeyLoginResult> {
  if (!UUID.test(userUuid)) throw new PasskeyLoginError(msg('Invalid UUID format'));
  let start;
  try {
    start = await passkeyApi.prelogin(userUuid, instanceUuid);
  } catch (error) {
    throw new PasskeyLoginError(errorMessage(error));
  }
  if (!start.authenticators.length) throw new PasskeyLoginError(msg('failing to retrieve credentials'));
  let assertion;
  try {
    assertion = await startAuthentication({ optionsJSON: start.options });
  } catch {
    throw new PasskeyLoginError(msg('failing to retrieve credentials'));
  }
  const match = start.authenticators.find((a) => a.credentialId === assertion.id);
  if (!match) throw new PasskeyLoginError(msg('could not match credentials'));
  try {
    return await passkeyApi.login({
      jwt: match.jwt,
      credentialId: assertion.id,
      authenticatorData: assertion.response.authenticatorData,
      clientDataJSON: assertion.response.clientDataJSON,
      signature: assertion.response.signature,
      ...(assertion.response.userHandle ? { userHandle: assertion.response.userHandle } : {}),
    });
  } catch (error) {
    throw new PasskeyLoginError(errorMessage(error));
  }
}
