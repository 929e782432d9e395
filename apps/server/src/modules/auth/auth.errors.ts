/**
 * Error codes of sign-in (STYLE.md #8, http/errors.ts `moduleErrors`): the body's `code` says which
 * refusal it is; the reason behind a refused sign-in stays in the log and the audit trail (spec §5
 * shows one text, 'Could not log you in').
 */
import { moduleErrors } from '../../http/errors.js';

export const authError = moduleErrors({
  provider_unknown: 'validation', // not one of the spec's SSO providers
  provider_not_configured: 'validation',
  code_expected: 'validation', // the provider's callback lacks code or state
  instance_wrong: 'validation', // the sign-in state names no valid instance
  instance_name_taken: 'conflict',
  instance_not_found: 'not_found',
  sign_in_refused: 'unauthenticated', // any mismatch of the sign-in, never saying which
  sign_in_forbidden: 'forbidden', // authenticated, but not a member of the workplace
  session_refused: 'unauthenticated', // refresh refused: idle, too old or invalid
});
