/**
 * Error codes of the identity module (STYLE.md #8, http/errors.ts `moduleErrors`): sessions,
 * passkeys, staff, two-factor.
 */
import { moduleErrors } from '../../http/errors.js';

export const identityError = moduleErrors({
  user_not_found: 'not_found',
  session_not_found: 'not_found',
  instance_not_found: 'not_found', // not a member of it, or it does not exist (the same to the caller)
  invitation_not_found: 'not_found',
  member_not_found: 'not_found',
  invalid_uuid: 'validation',
  passkey_registration_expired: 'validation',
  passkey_unverified: 'validation', // the authenticator's attestation does not verify
  passkey_sign_in_expired: 'unauthenticated',
  passkey_not_matched: 'unauthenticated', // unknown credential or bad signature: never says which
  sign_in_forbidden: 'forbidden', // not a member of the workplace
  owner_role_reserved: 'forbidden', // only an owner grants or takes the owner role
  own_membership: 'conflict', // one cannot change one's own role or remove oneself
  last_owner: 'conflict', // an instance keeps at least one owner
  already_member: 'conflict',
  already_invited: 'conflict',
  // Two-factor (two-factor.service.ts); the messages are the spec's (§8), `fields` name the input.
  two_factor_set: 'conflict', // set while already set
  two_factor_not_set: 'conflict', // unset while not set
  totp_secret_unknown: 'validation', // the secret url was not proposed to this user
  two_factor_code_invalid: 'validation', // a wrong or reused code (`attempt`, `maxAttempts` when counted)
  second_factor_expired: 'unauthenticated', // the pending sign-in is unknown, used or older than 5 minutes
  account_blocked: 'forbidden', // too many wrong codes: support unblocks (`blocked: true`)
});
