/**
 * Errors of the accounting module (STYLE.md #8): one code union, mapped to the HTTP error kinds in
 * one exhaustive switch. Services throw these; the central handler (app.ts) sends them as
 * `{ error, fields }`.
 */
import { AppError, fromDatabaseError, type ErrorCode } from '../../http/errors.js';

export type AccountingErrorCode =
  | 'invalid_input' // a field breaks a business rule the schema cannot express
  | 'entry_unbalanced' // debit and credit of a journal entry differ
  | 'import_invalid' // a CSV file has bad rows or unknown account numbers
  | 'ledger_account_not_found'
  | 'account_group_not_found'
  | 'journal_entry_not_found'
  | 'journal_line_not_found'
  | 'instance_not_found'
  | 'ledger_account_has_postings'
  | 'number_taken' // ledger account or group number already used in the instance
  | 'period_locked' // on or before the lock date (the database refuses it too, BIL02)
  | 'document_posting'; // the entry belongs to a document (invoice, bill, …): change the document (BIL03)

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
      return 'not_found';
    case 'ledger_account_has_postings':
    case 'number_taken':
    case 'period_locked':
    case 'document_posting':
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
    super(httpCode(accountingCode), message, fields, extra);
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

/**
 * Runs `fn` (typically a whole `db.withInstance` call, so commit-time trigger errors are included)
 * and moves the fields of its errors under `prefix`: business rules then name the same body paths
 * as schema validation ('data.entryAccounts', 'data.dateLedger'). Other errors pass unchanged.
 */
export async function fieldsUnder<T>(prefix: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    const appError = error instanceof AppError ? error : fromDatabaseError(error);
    if (!appError?.fields) throw error;
    const fields = Object.fromEntries(Object.entries(appError.fields).map(([key, message]) => [`${prefix}.${key}`, message]));
    const [firstKey] = Object.keys(appError.fields);
    // A message that starts with its field path ("entryAccounts.0.amount: …") gets the full path too.
    const message = firstKey && appError.message.startsWith(`${firstKey}: `) ? `${prefix}.${appError.message}` : appError.message;
    throw new AppError(appError.code, message, fields, appError.extra);
  }
}
