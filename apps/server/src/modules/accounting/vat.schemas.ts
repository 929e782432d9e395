/**
 * Request and answer schemas of /api/accounting/vat (issue 13 §3; docs/api.md "VAT return"). The
 * settings body is the domain's `vatSettingsSchema`, shared with the web form.
 */
import { z } from 'zod';
import { SCALAR_ZIFFERN, VAT_BASES, VAT_METHODS, VAT_PERIOD_KINDS, vatSettingsSchema } from '@bilan/domain';
import { ledgerDate, strictObject } from './accounting.schemas.js';

const money = z.string().meta({ description: 'decimal string, 2 decimals (may be negative in a correction)', example: '810.00' });
const accountRef = z.object({ id: z.number().int(), number: z.string(), name: z.string() });

export const vatSettingsData = vatSettingsSchema;

export const vatSettingsAnswer = z.object({
  vatNumber: z.string().describe("'CHE-123.456.789 MWST'"),
  registrationDate: z.string(),
  method: z.enum(VAT_METHODS),
  netTaxRates: z.array(
    z.object({
      ratePercent: z.string().describe('approved net tax rate in percent for supplies from 2024-01-01'),
      accountFrom: z.string().nullable(),
      accountTo: z.string().nullable(),
      previousRatePercent: z.string().nullable().describe('the rate approved for supplies up to 2023-12-31 when it differed (321/331); null: the same'),
    }),
  ),
  period: z.enum(VAT_PERIOD_KINDS),
  basis: z.enum(VAT_BASES),
  settlementAccount: z
    .object({ id: z.number().int().nullable().describe('null: the default 2209, created on the first filing'), number: z.string(), name: z.string(), isDefault: z.boolean() })
    .describe('the ledger account the settlement entry of a filed return credits (payable) or debits (credit)'),
  updatedAt: z.string(),
  updatedBy: z.string().nullable(),
});

export const submissionType = z.union([z.literal(1), z.literal(2), z.literal(3)], { error: 'type must be 1 (original), 2 (correction) or 3 (yearly reconciliation)' });

/** A return: its period and type (1 original, default; 2 correction; 3 yearly reconciliation). */
export const vatReturnRequest = strictObject({ dateFrom: ledgerDate, dateTo: ledgerDate, type: submissionType.optional() });

export const vatTaxLineSchema = z.object({
  ziffer: z.string().describe('302/303/312/313/342/343/382/383 …, 322/332 for the net tax rate method'),
  kind: z.enum(['supply', 'acquisition', 'net']),
  ratePercent: z.string().describe("the rate in percent, '8.1'"),
  base: money.describe('turnover: net of tax (effective method), including tax (net tax rate method)'),
  tax: money,
});

export const vatFiguresSchema = z.object({
  method: z.enum(VAT_METHODS),
  figures: z.record(z.enum(SCALAR_ZIFFERN), money).describe('every single-amount figure of the form: 200 … 299, 399, 400 … 479, 470, 500, 510, 900, 910'),
  taxLines: z.array(vatTaxLineSchema).describe('section II: one row per figure and rate'),
});

export const vatReturnSummarySchema = z.object({
  id: z.number().int(),
  dateFrom: z.string(),
  dateTo: z.string(),
  typeOfSubmission: z.number().int(),
  method: z.enum(VAT_METHODS),
  basis: z.enum(VAT_BASES),
  payable: money.describe('500 − 510: paid to the ESTV when positive'),
  lockDate: z.string(),
  settlementEntry: z.object({ id: z.number().int() }).nullable(),
  filedAt: z.string(),
  filedBy: z.object({ id: z.string() }).nullable(),
});

export const vatReconciliationSchema = z.object({
  accounts: z.array(
    z.object({
      account: accountRef,
      movement: money.describe('credit − debit in the period, settlement entries left out'),
      inReturn: money.describe('what the return accounts for on the account'),
      uncoded: money.describe('postings without a VAT code'),
      notCounted: money.describe('coded postings of the period the return does not count: documents not (yet) paid in the period, less those paid in it (received consideration); input tax (net tax rate method)'),
      difference: money.describe('movement − inReturn'),
    }),
  ),
  uncodedPostings: z.array(z.object({ entry: z.object({ id: z.number().int(), dateLedger: z.string(), description: z.string() }), account: accountRef, amount: money })),
  isBalanced: z.boolean(),
});

export const vatReturnAnswer = z.object({
  dateFrom: z.string(),
  dateTo: z.string(),
  label: z.string().describe("'Q1 2024', 'H2 2024', '03.2024', '2024'"),
  typeOfSubmission: z.number().int(),
  method: z.enum(VAT_METHODS),
  basis: z.enum(VAT_BASES),
  vatNumber: z.string(),
  figures: vatFiguresSchema.describe('what the return reports: the books (type 1), the books minus the filed returns (2, 3)'),
  books: vatFiguresSchema,
  filed: vatFiguresSchema.nullable(),
  settlement: z.object({
    accounts: z.array(z.object({ account: accountRef, amount: money.describe('credit balance moved: the settlement debits it when positive') })),
    settlementAccount: vatSettingsAnswer.shape.settlementAccount,
    payable: money,
  }),
  reconciliation: vatReconciliationSchema,
  returns: z.array(vatReturnSummarySchema),
  status: z.enum(['open', 'filed']),
});

export const vatPeriodSchema = z.object({
  dateFrom: z.string(),
  dateTo: z.string(),
  label: z.string(),
  status: z.enum(['open', 'filed']),
  returns: z.array(vatReturnSummarySchema),
});

export const vatPeriodListAnswer = z.object({
  year: z.number().int(),
  years: z.array(z.number().int()),
  periods: z.array(vatPeriodSchema),
  yearly: vatPeriodSchema.nullable().describe('the calendar year, for its yearly reconciliation (type 3)'),
});

export const vatDrillRequest = strictObject({
  dateFrom: ledgerDate,
  dateTo: ledgerDate,
  ziffer: z.string().regex(/^\d{3}$/, { error: 'a figure of the form, e.g. 200 or 303' }),
  ratePercent: z.string().regex(/^\d{1,3}(\.\d{1,3})?$/, { error: "a rate in percent, e.g. '8.1'" }).optional(),
});

export const vatDrillAnswer = z.object({
  ziffer: z.string(),
  ratePercent: z.string().nullable(),
  column: z.enum(['base', 'tax', 'both']).describe('which column of the rows makes the figure (both: a tax row, turnover and tax)'),
  total: z.object({ base: money, tax: money }),
  data: z.array(
    z.object({
      entry: z.object({ id: z.number().int(), dateLedger: z.string(), description: z.string() }),
      countedOn: z.string().describe('the date it counts on: the ledger date, or the payment date (received consideration)'),
      account: accountRef,
      vatCode: z.string(),
      role: z.string().describe('base, tax or deduction'),
      ratePercent: z.string(),
      base: money.describe('what the posting adds to the turnover column'),
      tax: money.describe('what the posting adds to the tax column'),
      payment: z.object({ entry: z.object({ id: z.number().int() }), share: z.string().describe('share of the document paid, 0–1') }).nullable(),
    }),
  ),
});


export const vatLang = z.enum(['de', 'fr', 'it', 'en'], { error: 'lang must be de, fr, it or en' });
