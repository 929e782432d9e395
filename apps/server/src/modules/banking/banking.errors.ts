/**
 * Error codes of the banking module (STYLE.md #8, http/errors.ts `moduleErrors`): the body's
 * `code` says which refusal it is; `fields` names the request field where there is one. A repeated
 * booking or match answers `already_done` (http/errors.ts `alreadyDone`, issue 11 §1).
 */
import { moduleErrors } from '../../http/errors.js';

export const bankingError = moduleErrors({
  bank_file_invalid: 'validation', // unknown, broken or unplaceable bank file (field `file`)
  ledger_account_unknown: 'validation', // the import's ?account= names no ledger account
  ledger_account_not_found: 'not_found', // reconciliation of an account that is not the instance's
  bank_transaction_not_found: 'not_found',
  foreign_currency: 'validation', // only a transaction in the books' currency is booked against an account
  wrong_direction: 'validation', // money in pays invoices, money out pays bills
  match_target: 'validation', // exactly one of invoice.uuid and payable.uuid
  counter_account_required: 'validation', // booking a transaction needs its counter account
  amount_mismatch: 'conflict', // the chosen bill's amount or currency differ from the transaction's
  bank_file_not_found: 'not_found',
  bank_file_reconciled: 'conflict', // a statement import with reconciled lines is not deleted
  pain001_rule: 'validation', // a payment the Swiss Payment Standards refuse (field named)
  charges_account: 'validation', // the banking settings name no ledger account of the instance
});
