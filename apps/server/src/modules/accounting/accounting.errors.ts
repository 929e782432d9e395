/**
 * Errors of the accounting module (STYLE.md #8): one code union, mapped to the HTTP error kinds in
 * one exhaustive switch. Services throw these; the central handler (app.ts) sends them as
 * `{ error, fields, code }` with `code` the AccountingErrorCode.
 */
import { AppError, type ErrorCode } from '../../http/errors.js';

export type AccountingErrorCode =
  | 'invalid_input' // a field breaks a business rule the schema cannot express
  | 'entry_unbalanced' // debit and credit of a journal entry differ
  | 'import_invalid' // a CSV file has bad rows or unknown account numbers
  | 'ledger_account_not_found'
  | 'account_group_not_found'
  | 'journal_entry_not_found'
  | 'journal_line_not_found'
  | 'instance_not_found'
  | 'accounting_lock_not_found'
  | 'ledger_account_has_postings'
  | 'number_taken' // ledger account or group number already used in the instance
  | 'control_account_missing' // the chart has no receivable, payables or bank account to post to
  | 'period_locked' // on or before the lock date (the database refuses it too, BIL02)
  | 'document_posting' // the entry belongs to a document (invoice, bill, …): change the document (BIL03)
  // Year-end closing (issue 12 §3, closing.service.ts):
  | 'fiscal_year_not_ended' // a fiscal year is closed after its last day
  | 'earlier_year_open' // an earlier fiscal year with postings is not closed yet
  | 'later_year_closed' // reopening: a later fiscal year is closed
  | 'fiscal_year_open' // reopening a year that is not closed
  | 'fiscal_year_closed' // the fiscal year start cannot change while a closed year exists
  | 'checks_failed' // failed checks not acknowledged with a note
  | 'lock_closes_fiscal_year' // the lock belongs to a closed year: only reopening removes it
  // VAT codes (issue 13 §1, vat-code.service.ts):
  | 'vat_code_not_found'
  | 'vat_code_taken' // a VAT code with that text exists in the instance
  | 'vat_code_in_use' // postings carry the code: deactivate it instead of deleting
  | 'vat_code_missing' // a document posts with a VAT code the instance does not have
  | 'vat_settings_missing' // the VAT return needs the instance's VAT registration first
  | 'vat_return_not_filed' // a correction or yearly reconciliation needs the filed original returns
  | 'vat_return_not_found';

function httpCode(code: AccountingErrorCode): ErrorCode {
  switch (code) {
    case 'invalid_input':
    case 'entry_unbalanced':
    case 'import_invalid':
      return 'validation';
    case 'ledger_account_not_found':
    case 'account_group_not_found':
    case 'journal_entry_not_found':
    case 'journal_line_not_found':
    case 'instance_not_found':
    case 'accounting_lock_not_found':
    case 'vat_return_not_found':
    case 'vat_code_not_found':
      return 'not_found';
    case 'ledger_account_has_postings':
    case 'number_taken':
    case 'control_account_missing':
    case 'period_locked':
    case 'document_posting':
    case 'fiscal_year_not_ended':
    case 'earlier_year_open':
    case 'later_year_closed':
    case 'fiscal_year_open':
    case 'fiscal_year_closed':
    case 'checks_failed':
    case 'lock_closes_fiscal_year':
    case 'vat_settings_missing':
    case 'vat_return_not_filed':
    case 'vat_code_taken':
    case 'vat_code_in_use':
    case 'vat_code_missing':
      return 'conflict';
  }
}

export class AccountingError extends AppError {
  constructor(
    readonly accountingCode: AccountingErrorCode,
    message: string,
    fields?: Record<string, string>,
    extra?: Record<string, unknown>,
  ) {
    super(httpCode(accountingCode), message, fields, { code: accountingCode, ...extra });
  }
}

/** 400 naming one field (paths relative to the request's `data`, e.g. `entryAccounts.0.amount`). */
export const invalidField = (field: string, message: string) => new AccountingError('invalid_input', message, { [field]: message });

/** 404 for an id that does not exist in the caller's instance (other instances' rows look the same). */
export const notFoundError = (
  code: Extract<AccountingErrorCode, `${string}_not_found`>,
  what: string,
  id: number | string,
) => new AccountingError(code, `${what} ${id} not found`);

/** 409 on or before the lock date (spec §2.2 "Lock"), named on `dateLedger` like the database mapping. */
export const periodLocked = (date: string, lockDate: string) => {
  const message = `the date ${date} is on or before the lock date ${lockDate}`;
  return new AccountingError('period_locked', message, { dateLedger: message });
};

// Shared by every module's routes; re-exported so accounting's own routes keep one import.
export { fieldsUnder } from '../../http/errors.js';
