/**
 * Error codes of the companies module (STYLE.md #8, http/errors.ts `moduleErrors`): the body's
 * `code` says which refusal it is; `fields` names the request field where there is one.
 */
import { moduleErrors } from '../../http/errors.js';

export const companyError = moduleErrors({
  company_not_found: 'not_found',
  address_not_found: 'not_found',
  payment_profile_not_found: 'not_found',
  additional_property_not_found: 'not_found',
  contact_not_found: 'not_found',
  ledger_account_not_found: 'not_found', // a payment profile's account
  register_company_not_found: 'not_found',
  qr_bill_text: 'validation', // a name or address field that does not fit a Swiss QR-bill
  company_required: 'validation', // a payment profile without company in a workplace without its own
  own_company: 'conflict', // the workplace's own company cannot be deleted
  company_has_documents: 'conflict', // invoices, bills or postings keep the company (issue #4 §1)
  address_in_use: 'conflict',
  payment_profile_in_use: 'conflict', // archive it instead
  register_not_configured: 'unavailable',
  register_unreachable: 'bad_gateway',
});
