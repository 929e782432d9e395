/**
 * Error codes of the quotes module (STYLE.md #8, http/errors.ts `moduleErrors`). Line and head
 * refusals come from invoicing's checks (`invoice_invalid`, the invoice's rules, decision 031).
 */
import { moduleErrors } from '../../http/errors.js';

export const quoteError = moduleErrors({
  quote_not_found: 'not_found',
  quote_invalid: 'validation', // the quote's own fields beyond the invoice's (validity)
  quote_not_draft: 'conflict', // only a draft quote is changed or deleted
  status_not_allowed: 'conflict', // draft → sent → accepted | declined only; accepted and declined are final
  quote_not_accepted: 'conflict', // only an accepted quote becomes an invoice
});
