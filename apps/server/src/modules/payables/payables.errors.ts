/**
 * Error codes of the payables module (STYLE.md #8, http/errors.ts `moduleErrors`): the body's
 * `code` says which refusal it is; `fields` names the request field where there is one. A repeat
 * of a payment that is booked already answers `already_done` (http/errors.ts `alreadyDone`, issue 11 §1).
 */
import { moduleErrors } from '../../http/errors.js';

export const payableError = moduleErrors({
  payable_not_found: 'not_found',
  transaction_group_not_found: 'not_found',
  file_not_found: 'not_found',
  mail_not_found: 'not_found',
  invalid_payable: 'validation', // a bill's references or amounts (company, profile, account, reference, VAT, currency)
  expense_account_required: 'validation', // no own, learned or chart default expense account to book to
  input_vat_account_missing: 'validation', // the chart lacks 1170/1171 for the bill's VAT
  invalid_payment_account: 'validation', // /payable/pay from an unknown, non-balance-sheet or the liability account
  invalid_payment: 'validation', // a payment's amount, fee, date or account (issue 14 §3)
  payment_not_found: 'not_found', // unknown bill payment
  invalid_transaction_group: 'validation', // bills that cannot be grouped, or no own bank account to pay from
  pain001_refused: 'validation', // a bill the SPS rules of pain.001 refuse
  invalid_file: 'validation', // an upload of an unsupported type, empty, or not an e-mail message
  import_invalid: 'validation', // a receipts CSV with bad rows (`rows` lists them; nothing is imported)
  payable_not_pending: 'conflict', // only a pending bill is changed or deleted
  status_transition: 'conflict', // a bill or group status change the lifecycle does not allow
  payable_not_payable: 'conflict', // pending (approve first), in a group (the group pays it), or cancelled
  transaction_group_not_pending: 'conflict', // only a pending group is deleted
  transaction_group_empty: 'conflict',
  mail_processed: 'conflict', // only a pending mail changes status
  file_attached: 'conflict', // the file is already another bill's voucher
  mail_imported: 'conflict', // the same message was imported before
});
