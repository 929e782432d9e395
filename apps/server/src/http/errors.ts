/**
 * Typed application errors (STYLE.md #8) and their one mapping to HTTP (STYLE.md #9). The body is
 * always `{ error, fields?, code }` (DESIGN.md "Errors"); 5xx details are logged, never sent.
 *
 * Two levels of code: `ErrorCode` is the HTTP kind (it decides the status); each module declares
 * its own codes in `<module>.errors.ts` with `moduleErrors`, and the body's `code` carries that
 * module code (or the kind when the error has none) so clients branch on it, not on the message.
 */
export type ErrorCode =
  | 'validation' // 400: bad input, `fields` names each field
  | 'unauthenticated' // 401
  | 'forbidden' // 403
  | 'not_found' // 404, also for rows of another instance
  | 'conflict' // 409: state does not allow it (lock date, status, duplicates)
  | 'too_many_requests' // 429
  | 'bad_gateway' // 502: an outside service (company register) failed
  | 'unavailable'; // 503: an optional outside service is not configured

const STATUS: Record<ErrorCode, number> = {
  validation: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_many_requests: 429,
  bad_gateway: 502,
  unavailable: 503,
};

export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.statusCode = STATUS[code];
  }

  /** The body's `code`: a module code given in `extra.code` (moduleErrors puts it there), else the kind. */
  get bodyCode(): string {
    const code = this.extra?.code;
    return typeof code === 'string' ? code : this.code;
  }
}

/**
 * Declares a module's error codes, each with its HTTP kind (an exhaustive record, so a new code
 * must say its status), and returns the module's constructor: `companyError('company_not_found',
 * 'company x not found')` → a 404 whose body has `code: 'company_not_found'`. A `code` in `extra`
 * wins, so one-off codes (`already_done`) use the same mechanism.
 */
export function moduleErrors<C extends string>(kinds: Readonly<Record<C, ErrorCode>>) {
  return (code: C, message: string, fields?: Record<string, string>, extra?: Record<string, unknown>): AppError =>
    new AppError(kinds[code], message, fields, { code, ...extra });
}

export const badRequest = (message: string, fields?: Record<string, string>) => new AppError('validation', message, fields);
/** A 400 for one field: `fieldError('iban', 'The IBAN is wrongly formatted')`. */
export const fieldError = (field: string, message: string) => new AppError('validation', message, { [field]: message });
export const notFound = (what: string) => new AppError('not_found', `${what} not found`);
export const conflict = (message: string, fields?: Record<string, string>) => new AppError('conflict', message, fields);
export const unauthenticated = (message = 'Authentication required') => new AppError('unauthenticated', message);
export const forbidden = (message: string) => new AppError('forbidden', message);
/**
 * 409 for a state change that has already happened (issue 11 §1), e.g. a parallel duplicate
 * request: the body carries `code: 'already_done'` so a client can treat it as success. The message
 * names the document and its current state ("invoice 00042 is already paid").
 */
export const alreadyDone = (message: string, fields?: Record<string, string>) => new AppError('conflict', message, fields, { code: 'already_done' });

/** SQLSTATEs raised by our own triggers (migrations/0001_foundation.sql). */
export const SQLSTATE_UNBALANCED_ENTRY = 'BIL01';
export const SQLSTATE_LOCKED_PERIOD = 'BIL02';
/** A change of an entry posted by a document outside its document (migrations/0014_document_postings.sql). */
export const SQLSTATE_DOCUMENT_POSTING = 'BIL03';

interface PgError {
  code?: string;
  message?: string;
  constraint?: string;
}

const isPgError = (error: unknown): error is PgError =>
  typeof error === 'object' && error !== null && typeof (error as PgError).code === 'string' && /^[0-9A-Z]{5}$/.test((error as PgError).code!);

/**
 * Maps database refusals that bad input can cause to 4xx, so a request never answers 500 for bad
 * input even when only the database caught it. Returns undefined for real server faults.
 */
export function fromDatabaseError(error: unknown): AppError | undefined {
  if (!isPgError(error)) return undefined;
  switch (error.code) {
    case SQLSTATE_UNBALANCED_ENTRY:
      return new AppError('validation', error.message ?? 'journal entry does not balance', { entryAccounts: error.message ?? '' }, { code: 'entry_unbalanced' });
    case SQLSTATE_LOCKED_PERIOD:
      return new AppError('conflict', error.message ?? 'the period is locked', { dateLedger: error.message ?? '' }, { code: 'period_locked' });
    case SQLSTATE_DOCUMENT_POSTING:
      return new AppError('conflict', error.message ?? 'the entry was posted by a document', undefined, { code: 'document_posting' });
    case '23505': // unique_violation
      return new AppError('conflict', `already exists (${error.constraint ?? 'unique'})`);
    case '23503': // foreign_key_violation
      return new AppError('conflict', `still referenced or refers to a missing row (${error.constraint ?? 'foreign key'})`);
    // Two transactions that locked the same rows in another order, or a serializable transaction
    // that lost: nothing was written, the same request may well succeed again (issue 11 §1).
    case '40P01': // deadlock_detected
    case '40001': // serialization_failure
      return new AppError('conflict', 'another change to the same records ran at the same time; nothing was saved, please retry', undefined, { code: 'retry' });
    case '23514': // check_violation
    case '22001': // string_data_right_truncation
    case '22003': // numeric_value_out_of_range
    case '22007': // invalid_datetime_format
    case '22008': // datetime_field_overflow
    case '22P02': // invalid_text_representation
    case '22021': // character_not_in_repertoire (e.g. a NUL byte in text)
    case '22P05': // untranslatable_character
      return new AppError('validation', `invalid value: ${error.message ?? error.code}`);
    default:
      return undefined;
  }
}

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
