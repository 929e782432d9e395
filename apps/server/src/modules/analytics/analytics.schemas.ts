/** Request and answer schemas of the analytics routes (docs/api.md "Analytics"). */
import { z } from 'zod';
import { DATE_YEAR_MAX, DATE_YEAR_MIN, strictObject } from '@bilan/domain';
import { ANALYTICS_KINDS } from './analytics.service.js';

const amount = z.string().meta({ description: "decimal string in the books' currency, 2 decimals", example: '1994.75' });

const YEAR_MESSAGE = 'must be a year (a number such as 2025)';
const inYearRange = (schema: z.ZodNumber) =>
  schema.int('must be an integer').min(DATE_YEAR_MIN, `must be ${DATE_YEAR_MIN} or later`).max(DATE_YEAR_MAX, `must be ${DATE_YEAR_MAX} or earlier`);

const year = inYearRange(z.number({ error: YEAR_MESSAGE }));

export const countsQuerySchema = z.object({
  year: inYearRange(z.coerce.number({ error: YEAR_MESSAGE }))
    .optional()
    .describe('only the documents of this fiscal year (bills by date, invoices by invoice date, groups by execution date, mails by day received)'),
});

export const countsSchema = z.object({
  Mail: z.number().int(),
  Payable: z.number().int(),
  TransactionGroup: z.number().int(),
  Invoice: z.number().int(),
});

export const analyticsParamsSchema = z.object({
  kind: z.enum(ANALYTICS_KINDS, { error: `must be one of ${ANALYTICS_KINDS.join(', ')}` }),
});

export const analyticsBodySchema = strictObject({ year });

export const analyticsSchema = z.object({
  kind: z.enum(ANALYTICS_KINDS),
  year: z.number().int().describe('the fiscal year, named by the calendar year it starts in'),
  label: z.string().describe('"2025", or "2025/26" for a fiscal year from July 2025 to June 2026'),
  dateFrom: z.string().describe('first day of the fiscal year'),
  dateTo: z.string().describe('last day of the fiscal year'),
  total: amount.describe('sum of the rows'),
  rows: z.array(
    z.object({
      id: z.number().int().nullable().describe('ledger account id (by-account kinds)'),
      uuid: z.string().nullable().describe('company uuid (customer or supplier)'),
      number: z.string().nullable().describe('ledger account number (by-account kinds)'),
      name: z.string(),
      label: z.string().describe('the name; "number name" for an account'),
      amount,
      share: z.string().meta({ description: 'percent of the total, 1 decimal', example: '42.5' }),
      documents: z.number().int().nullable().describe('invoices or bills behind the amount (party kinds)'),
      link: z.string().describe('page of the customer, supplier or account in the web app'),
    }),
  ),
});
