/**
 * Error codes of the dunning module (STYLE.md #8, http/errors.ts `moduleErrors`).
 */
import { moduleErrors } from '../../http/errors.js';

export const dunningError = moduleErrors({
  settings_invalid: 'validation', // a level's days, fee or texts, an account or the interest rate
  run_invalid: 'validation', // a confirmation item: invoice twice, no contact to e-mail, a contact of another customer
  reminder_not_found: 'not_found',
  own_company_missing: 'not_found', // the letter needs the creditor: onboarding's own company
  invoice_not_open: 'conflict', // paid, credited, denied or pending: nothing to remind
  level_not_due: 'conflict', // the level is not the next one, or its date is not reached
});

export const dunningFieldError = (code: Parameters<typeof dunningError>[0], field: string, message: string) => dunningError(code, message, { [field]: message });
