/**
 * Request and response schemas of /api/accounting (docs/api.md "Accounting"). The routes validate
 * with them and the OpenAPI document is generated from them, so they are the exact contract.
 */
import { z } from 'zod';
import {
  AccountFunctionType,
  AccountType,
  journalEntrySchema,
  ledgerAccountSchema,
  ruleError,
  strictObject,
  validationMessages,
  zCurrencyCode,
  zDate,
  zId,
  VAT_CODE_KINDS,
  VAT_ENTRIES,
  VAT_RATE_TYPES,
  VAT_ROLES,
  vatCodePatchSchema,
  vatCodeSchema,
  zVatCode,
  type AccountFunctionTypeId,
  type AccountTypeId,
} from '@bilan/domain';

/**
 * Building blocks come from @bilan/domain so the web forms and these routes share one rule and one
 * message per field (STYLE.md #3): strict objects ('this key cannot be included'), ids, dates,
 * amounts, currency codes, and the ledger account and journal entry bodies.
 */
export { strictObject } from '@bilan/domain';

export const id = zId;
export const idRef = strictObject({ id: zId });
export const ledgerDate = zDate.meta({ format: 'date', example: '2024-03-31' });
export const currencyCode = zCurrencyCode;

/** AccountType id (spec §3): assets 1, liability 2, expenses 3, revenue 4, equity 5. */
export const accountTypeId = z.literal(Object.values(AccountType) as [AccountTypeId, ...AccountTypeId[]], {
  error: ruleError(validationMessages.accountTypeUnknown),
});
/** AccountFunctionType id (spec §3): bankAccount 1, vat 2, salesRevenue 3, payable 4, receivable 5. */
export const functionTypeId = z.literal(Object.values(AccountFunctionType) as [AccountFunctionTypeId, ...AccountFunctionTypeId[]], {
  error: ruleError(validationMessages.functionTypeUnknown),
});

/** Account group number: 1 to 3 digits (class, group, sub-group of the Swiss SME chart). */
export const groupNumber = z.string().regex(/^[0-9]{1,3}$/, { error: 'group number must have 1 to 3 digits' });

const money = z.string().meta({ description: 'decimal string, 2 decimals', example: '1994.75' });

// ------------------------------------------------------------------------------------------------
// Answers
// ------------------------------------------------------------------------------------------------

// Shared by every module's routes; re-exported so accounting's own routes keep one import.
import { errorSchema, errorsWithNotFound } from '../../http/schemas.js';
export { errorSchema, okSchema, errors, errorsWithNotFound, errorsWithConflict, pageAnswerFields, pageFields } from '../../http/schemas.js';

export const ledgerAccountAnswer = z.object({
  id: z.number().int(),
  number: z.string(),
  name: z.string(),
  currency: currencyCode,
  type: z.object({ id: z.number().int() }),
  functionType: z.object({ id: z.number().int() }).nullable(),
  balance: money.describe('debit minus credit of all postings, in the instance currency'),
  hasPostings: z.boolean(),
});

export const journalLineAnswer = z.object({
  id: z.number().int(),
  account: z.object({ id: z.number().int(), number: z.string(), name: z.string() }),
  amount: money.describe('absolute amount in the instance currency'),
  direction: z.union([z.literal(1), z.literal(-1)]),
  originalAmount: z.string(),
  exchangeRate: z.string(),
  currency: currencyCode,
  description: z.string().nullable(),
  vat: z
    .object({
      code: z.string(),
      role: z.enum(VAT_ROLES).describe('base: the entered account net of tax; tax: the VAT account; deduction: the input-tax half of an acquisition tax'),
      percent: z.string().describe('the rate applied, percent ("8.1")'),
      base: money.describe('the base, signed for the return (positive in the code’s normal direction: sales credit, input debit)'),
      amount: money.describe('the tax, signed like base'),
    })
    .nullable()
    .describe('the VAT of the posting (decision 019); null without a VAT code'),
});

export const journalEntryAnswer = z.object({
  id: z.number().int(),
  dateLedger: z.string(),
  description: z.string(),
  source: z.string(),
  entryAccounts: z.array(journalLineAnswer),
  debitTotal: money,
});

/** The document that posted an entry (issue 11 §2); see document-posting.ts. */
export const postingDocumentSchema = z.object({
  type: z.string().describe("'invoice', 'bill', 'expense', 'bank transaction', or the entry's source"),
  reference: z.string().describe('human reference, e.g. the invoice number 00042'),
  uuid: z.string().nullable(),
  link: z.string().nullable().describe("the document's page in the web app"),
});

/** entry/detail: the entry and, for a document posting, its document (null for manual and imported entries). */
export const journalEntryDetailAnswer = journalEntryAnswer.extend({ document: postingDocumentSchema.nullable() });

/** 409 of the journal routes: `code: 'document_posting'` and `document` when the entry belongs to a document. */
// `code` stays a string (errorSchema): every error carries its module's code (period_locked, …), and
// a code an enum did not list would fail the answer's serialization (a 500).
export const entryConflictSchema = errorSchema.extend({ document: postingDocumentSchema.optional() });
export const errorsWithEntryConflict = { ...errorsWithNotFound, 409: entryConflictSchema } as const;

export const accountGroupSchema = z.object({ id: z.number().int(), number: z.string(), name: z.string() });

export const trialBalanceSchema = z.object({
  dateFrom: z.string().nullable(),
  date: z.string(),
  accounts: z.array(
    z.object({
      id: z.number().int(),
      number: z.string(),
      name: z.string(),
      currency: currencyCode,
      type: z.object({ id: z.number().int() }),
      openingBalance: money,
      debit: money,
      credit: money,
      balance: money,
    }),
  ),
  totals: z.object({ openingBalance: money, debit: money, credit: money, balance: money }),
});

export const balancesAtDatesSchema = z.object({
  endDates: z.array(z.string()),
  accounts: z.array(z.object({ id: z.number().int(), number: z.string(), name: z.string(), balances: z.array(money) })),
});

export const dashboardSchema = z.object({
  year: z.number().int().describe('the fiscal year, named by the calendar year it starts in'),
  label: z.string().describe('"2025", or "2025/26" for a fiscal year from July 2025 to June 2026'),
  endDates: z.array(z.string()),
  accounts: z.array(
    z.object({ id: z.number().int(), number: z.string(), name: z.string(), currency: currencyCode, balances: z.array(money) }),
  ),
});

const nativeAmount = z.string().meta({ description: "decimal string in the account's currency, 2 to 10 decimals", example: '10000.00' });

/** balance/snapshot: spec §3 "Account balance snapshot", field names as the spec writes them (balance.service.ts AccountSnapshot). */
export const accountSnapshotSchema = z.object({
  account_id: z.number().int(),
  account_name: z.string(),
  account_number: z.string(),
  account_currency_id: z.number().int().describe('Currency id of spec §3: CHF 1, EUR 2, USD 3, …'),
  date_snapshot: z.string(),
  sum_base: money.describe("balance (debit − credit) in the books' currency over every posting up to the date"),
  sum_base_trade: money.describe("part of sum_base from postings in a currency other than the account's"),
  sum_native: nativeAmount.describe(
    "balance in the account's currency: original amounts of the postings in that currency; on an account kept in the books' currency the base amounts",
  ),
  sum_native_trade: nativeAmount.describe("part of sum_native from postings in a currency other than the account's (0 on a foreign-currency account)"),
  sum_native_net: nativeAmount.describe('sum_native − sum_native_trade: the balance from postings in the account\'s own currency'),
});

export const balanceCheckSchema = z.object({
  ok: z.boolean(),
  checks: z.array(z.object({ name: z.string(), ok: z.boolean(), detail: z.string() })),
});

/** Accounting checks (checks.service.ts; issue 12 §2): one row per check, the worst status overall. */
const checkStatus = z.enum(['passed', 'warning', 'failed']);
export const checksReportSchema = z.object({
  dateFrom: z.string().meta({ format: 'date' }),
  dateTo: z.string().meta({ format: 'date' }),
  status: checkStatus.describe('the worst status of all checks'),
  checks: z.array(
    z.object({
      key: z.string().describe("stable key, e.g. 'receivables'"),
      name: z.string().describe('what is checked, a short sentence'),
      status: checkStatus,
      detail: z.string().describe('what was found, naming accounts and amounts'),
      items: z
        .array(
          z.object({
            label: z.string(),
            link: z.string().nullable().describe('web path of the page to fix it on'),
            amount: money.nullable().describe('instance currency, signed as the label says'),
          }),
        )
        .describe('at most 50, the offending ones; empty when passed'),
    }),
  ),
});

export const accountPostingSchema = z.object({
  id: z.number().int(),
  entry: z.object({ id: z.number().int(), dateLedger: z.string(), description: z.string() }),
  amount: money,
  direction: z.union([z.literal(1), z.literal(-1)]),
  debit: money,
  credit: money,
  balance: money.describe('running balance of the account after this posting'),
});

// ------------------------------------------------------------------------------------------------
// Requests
// ------------------------------------------------------------------------------------------------

/** account/insert `data` (domain schema: type and functionType are plain ids; absent type → by first digit). */
export const ledgerAccountData = ledgerAccountSchema;
/** account/update `data`: any subset of the insert fields; functionType null clears it. */
export const ledgerAccountPatch = ledgerAccountSchema.partial();
/** entry/insert and entry/update `data` (domain schema: ≥ 2 lines, amounts > 0, debit = credit). */
export const journalEntryData = journalEntrySchema;

// ------------------------------------------------------------------------------------------------
// VAT codes (migration 0023, decision 019)
// ------------------------------------------------------------------------------------------------

export const vatCodeKey = zVatCode;
/** vat-code/insert `data` and vat-code/update `data` (domain schemas, shared with the VAT codes page). */
export const vatCodeData = vatCodeSchema;
export const vatCodePatch = vatCodePatchSchema;

export const vatCodeAnswer = z.object({
  code: z.string(),
  name: z.string(),
  kind: z.enum(VAT_CODE_KINDS),
  rateType: z.enum(VAT_RATE_TYPES).describe('the percentage follows the supply date (8.1 % standard from 2024, 7.7 % 2018–2023, …)'),
  accountNumber: z.string().nullable().describe('the account the tax goes to; null for zero-rate codes'),
  deductionAccountNumber: z.string().nullable().describe('acquisition tax: the input tax account of the deduction'),
  defaultEntry: z.enum(VAT_ENTRIES),
  zifferBase: z.string().nullable().describe('Ziffer of the base on the 2024 form (303 means 302 for 2018–2023 supplies)'),
  zifferTax: z.string().nullable(),
  zifferDeduction: z.string().nullable(),
  isActive: z.boolean(),
  hasPostings: z.boolean().describe('postings carry the code: it can be deactivated, not deleted'),
});
