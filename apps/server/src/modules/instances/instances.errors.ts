/**
 * Error codes of the instances module (STYLE.md #8, http/errors.ts `moduleErrors`): the body's
 * `code` says which refusal it is, for the web's onboarding wizard and settings page.
 */
import { moduleErrors } from '../../http/errors.js';

export const instanceError = moduleErrors({
  not_a_member: 'unauthenticated', // the token's user has left the workplace
  onboarding_not_finished: 'conflict', // the web then opens /onboarding (spec §4)
  onboarding_finished: 'conflict', // init and init/accounts run once
  instance_not_found: 'not_found',
  own_company_missing: 'validation', // init/accounts before the company step
  ledger_code_repeated: 'validation', // two bank accounts with one ledger code
  instance_name_taken: 'conflict',
  currency_fixed: 'conflict', // the books' currency cannot change once they have entries
});
