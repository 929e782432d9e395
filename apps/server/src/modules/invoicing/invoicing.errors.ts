/**
 * Error codes of the invoicing module (STYLE.md #8, http/errors.ts `moduleErrors`): the body's
 * `code` says which refusal it is; `fields` names the request field where there is one. A repeated
 * status change keeps the shared `already_done` (issue 11 §1, http/errors.ts `alreadyDone`).
 */
import { moduleErrors } from '../../http/errors.js';

export const invoicingError = moduleErrors({
  invoice_not_found: 'not_found',
  invoice_item_not_found: 'not_found',
  entry_not_of_invoice: 'not_found', // the journal entry was not posted by an invoice
  own_company_missing: 'not_found', // the PDF needs the creditor: onboarding's own company
  share_not_found: 'not_found', // unknown, revoked or malformed share token
  invoice_invalid: 'validation', // invoice or line rules beyond the schema, every bad field named
  import_invalid: 'validation', // an import with problems: nothing written, `rows` lists them
  qr_bill_invalid: 'validation', // the QR-bill of the invoice breaks a SIX rule
  invoice_empty: 'validation', // sending an invoice without lines or with a total ≤ 0
  ledger_date_before_sent: 'validation', // paid / denied dated before the invoice was sent
  amount_base_unexpected: 'validation', // the amount received is given only when paying
  payment_invalid: 'validation', // a payment's amount, fee, date or bank account (issue 14 §3)
  payment_not_found: 'not_found', // unknown invoice payment
  credit_note_invalid: 'validation', // a credit note's lines, amounts, quantities or date (issue 15 §2)
  credit_note_not_found: 'not_found', // unknown credit note
  invoice_not_pending: 'conflict', // only pending invoices change (spec §4)
  status_not_allowed: 'conflict', // pending → sent, sent → paid and sent → denied only
  payment_account_missing: 'conflict', // the payment profile has no ledger account
  charge_currency: 'conflict', // a dunning fee or interest on an invoice in a foreign currency (decision 030)
});

/** A 400 of one of the codes above for one request field (as `fieldError`, with the module's code). */
export const invoicingFieldError = (code: Parameters<typeof invoicingError>[0], field: string, message: string) =>
  invoicingError(code, message, { [field]: message });
