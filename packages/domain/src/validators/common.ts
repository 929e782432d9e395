/**
 * zod 4 building blocks carrying the spec §5 messages. Type errors (missing value, wrong type) are
 * left to the error map installed by `installZodMessages`, so each block only names its own rule.
 */
import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '../constants.js';
import { currencyCodes, type CurrencyCode } from '../enums.js';
import { amountMessage, amountTooLargeMessage, expectedTypeMessage, validationMessages as m } from '../messages.js';
import { isAmountString, isWithinAmountBound, MAX_AMOUNT } from '../money.js';
import { isValidIsoDate } from './date.js';

type RawIssue = z.core.$ZodRawIssue;
type ErrorMap = z.core.$ZodErrorMap;

/** An absent or null value: `invalid_type` for most schemas, `invalid_value` for enums and literals. */
const isMissing = (issue: RawIssue): boolean =>
  (issue.code === 'invalid_type' || issue.code === 'invalid_value') && (issue.input === undefined || issue.input === null);

/**
 * Error map for `z.config({ customError })` (spec §5): missing or null required value → 'This field
 * is required', non-array where an array is expected → 'array expected', other wrong types →
 * 'expected type <type>'. Anything else falls through to zod's own message.
 */
export const zodCustomError: ErrorMap = (issue) => {
  if (isMissing(issue)) return m.fieldRequired;
  if (issue.code !== 'invalid_type') return undefined;
  if (issue.expected === 'array') return m.arrayExpected;
  return expectedTypeMessage(issue.expected);
};

/** The zod configuration carrying `zodCustomError`, for `z.config(zodMessages)`. */
export const zodMessages: Readonly<z.core.$ZodConfig> = Object.freeze({ customError: zodCustomError });

/** Installs the spec §5 messages for type errors globally; call once at start-up (server and web). */
export function installZodMessages(): void {
  z.config(zodMessages);
}

/**
 * A schema-level error map that gives `message` for rule failures and, when `missing` is set, for a
 * missing value; type errors still fall through to `zodCustomError`.
 */
export function ruleError(message: string, missing?: string): ErrorMap {
  return (issue) => {
    if (isMissing(issue)) return missing;
    return issue.code === 'invalid_type' ? undefined : message;
  };
}

/** Error map that only replaces the missing-value message (spec §5 per-form "required" texts). */
export function missingError(missing: string): ErrorMap {
  return (issue) => (isMissing(issue) ? missing : undefined);
}

/**
 * Object that rejects unknown keys with 'this key cannot be included' (spec §5). zod reports one
 * 'unrecognized_keys' issue listing the keys; `fieldErrors` puts the message on each key's path.
 * `missing` optionally replaces the message for an absent or null object.
 */
export function strictObject<T extends z.core.$ZodLooseShape>(shape: T, missing?: string) {
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code === 'unrecognized_keys') return m.keyNotAllowed;
      return isMissing(issue) ? missing : undefined;
    },
  });
}

/**
 * Flattens zod issues to `{ "a.b.0.c": message }`, first message per path, root issues under '_'
 * (docs/api.md error shape); an unknown key is reported on its own path, as spec §5 forms expect.
 */
export function fieldErrors(error: { readonly issues: readonly z.core.$ZodIssue[] }): Record<string, string> {
  const fields: Record<string, string> = {};
  const put = (path: readonly PropertyKey[], message: string) => {
    const key = path.length === 0 ? '_' : path.map(String).join('.');
    if (!Object.hasOwn(fields, key)) fields[key] = message;
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) put([...issue.path, key], issue.message);
    } else {
      put(issue.path, issue.message);
    }
  }
  return fields;
}

/** Email: no surrounding whitespace, then a valid address (spec §5 "Shared helpers"). */
export const zEmail = z
  .string()
  .refine((value) => value.trim() === value, { error: m.emailWhitespace, abort: true })
  .regex(z.regexes.email, { error: m.emailInvalid });

/** UUID in the RFC 9562 layout (spec §5 'uuid invalid'). */
export const zUuid = z.uuid({ error: ruleError(m.uuidInvalid) });

/**
 * Password of at least 9 characters (spec §9 "Password minimum 9"). The message says 8: spec §5
 * records the disagreement and keeps both, so clients matching the text keep working.
 */
export const zPassword = z.string().min(PASSWORD_MIN_LENGTH, { error: m.passwordTooShort });

/** Non-negative safe integer (spec §5 'must be an integer', 'negative numbers are not accepted'). */
export const zInteger = z
  .number()
  .int({ error: m.mustBeInteger })
  .min(0, { error: m.negativeNotAccepted });

/** Row id: integer above 0 (spec §5 'id must be greater than 0'); `missing` replaces the absent-value text. */
export function zIdWith(missing?: string) {
  return z
    .number(missing === undefined ? undefined : { error: missingError(missing) })
    .int({ error: m.mustBeInteger })
    .min(0, { error: m.negativeNotAccepted })
    .positive({ error: m.idMustBePositive });
}

/** Row id: integer above 0 (spec §5). A negative id reports 'negative numbers are not accepted' first. */
export const zId = zIdWith();

/** Ledger date 'YYYY-MM-DD', year 1900–2300, real day (spec §5, §9); message `DATE_INVALID_MESSAGE`. */
export const zDate = z.string().refine(isValidIsoDate, { error: m.dateInvalid });

/** The same shape as money.ts `isAmountString`, so OpenAPI shows the pattern the server enforces. */
const amountPattern = (maxDecimals: number): RegExp =>
  new RegExp(maxDecimals > 0 ? `^-?\\d{1,18}(\\.\\d{1,${maxDecimals}})?$` : '^-?\\d{1,18}$');

/**
 * Exact amount as a decimal string with at most `maxDecimals` fraction digits (money.ts
 * `isAmountString`; DESIGN.md "money": never a JSON number). Accepts negatives. At most MAX_AMOUNT
 * either way, the one input bound that keeps every sum within the database's columns.
 */
export function zAmount(maxDecimals = 2) {
  if (!Number.isInteger(maxDecimals) || maxDecimals < 0 || maxDecimals > 12) {
    throw new RangeError(`maxDecimals ${maxDecimals} must be an integer from 0 to 12`);
  }
  const message = amountMessage(maxDecimals);
  // An empty field is a missing amount, not a badly written one: the form says so (spec §5).
  return z
    .string({ error: missingError(m.fieldRequired) })
    .min(1, { error: m.fieldRequired, abort: true })
    .regex(amountPattern(maxDecimals), { error: message })
    .refine((value) => !isAmountString(value, maxDecimals) || isWithinAmountBound(value), { error: amountTooLargeMessage(MAX_AMOUNT) });
}

/** Required text: missing, empty or blank gives 'This field must be given' (spec §5); trimmed. */
export const zRequiredText = z
  .string({ error: missingError(m.fieldMustBeGiven) })
  .trim()
  .min(1, { error: m.fieldMustBeGiven });

/** Currency code of spec §3 ('CHF', 'EUR', …); `missing` replaces the absent-value text. */
export function zCurrencyCodeWith(missing?: string) {
  return z.enum(currencyCodes as [CurrencyCode, ...CurrencyCode[]], {
    error: (issue) => {
      // A form's empty select sends '', which means "not chosen" rather than an unknown code.
      if (isMissing(issue) || issue.input === '') return missing ?? (issue.input === '' ? m.currencyUnknown : undefined);
      return m.currencyUnknown;
    },
  });
}

/** Currency code of spec §3 ('CHF', 'EUR', …), 'currency unknown' otherwise. */
export const zCurrencyCode = zCurrencyCodeWith();

/**
 * `when` condition for a cross-field refinement: run it even if other fields failed (so a form
 * shows every error at once), but only when the value is an object and the fields it reads parsed.
 */
export function whenFieldsValid(...keys: readonly string[]) {
  return (payload: z.core.ParsePayload): boolean =>
    typeof payload.value === 'object' &&
    payload.value !== null &&
    !payload.issues.some((issue) => issue.path !== undefined && keys.includes(String(issue.path[0])));
}
