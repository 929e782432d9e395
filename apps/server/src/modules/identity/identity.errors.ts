/**
 * Error codes of the identity module (STYLE.md #8, http/errors.ts `moduleErrors`): sessions,
 * passkeys, staff. Two-factor refusals keep their shape for now (two-factor.service.ts is being
 * hardened in parallel, issue 11 §5) and follow in phase 2.
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
});
