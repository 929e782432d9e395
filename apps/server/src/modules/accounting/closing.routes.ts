/**
 * Year-end closing and accounting settings under /api/accounting (issue 12 §3, spec §2.2
 * `/accounting/close`; docs/api.md "Year-end closing"). Every member reads; owner and admin change
 * the settings and close a year; only an owner reopens one.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accountingSettingsPatchSchema, checkAcknowledgementSchema, messageLanguageOf } from '@bilan/domain';
import { auth } from '../../http/access.js';
import { forbidden } from '../../http/errors.js';
import { errorSchema } from '../../http/schemas.js';
import { auditClient } from '../audit/audit.service.js';
import { checksReportSchema, currencyCode, errors, errorsWithConflict, strictObject } from './accounting.schemas.js';
import {
  checksForClosing,
  closeFiscalYear,
  getAccountingSettings,
  listFiscalYears,
  previewClosing,
  reopenFiscalYear,
  updateSettings,
  type ClosingActor,
  type ClosingChecksRunner,
} from './closing.service.js';

const tags = ['accounting'];

const money = z.string().meta({ description: 'decimal string in the books\' currency, 2 decimals', example: '1994.75' });
const date = z.string().meta({ format: 'date' });

const yearField = z
  .number({ error: 'year must be a number such as 2025' })
  .int('year must be an integer')
  .min(1900, 'year must be 1900 or later')
  .max(2299, 'year must be 2299 or earlier')
  .describe('the fiscal year, named by the calendar year in which it starts');

const fiscalYearSchema = z.object({
  year: z.number().int(),
  label: z.string().describe('"2025" for a calendar year, "2025/26" for a fiscal year from July 2025 to June 2026'),
  dateFrom: date,
  dateTo: date,
});

const accountRef = z.object({
  id: z.number().int().nullable().describe('null: the chart\'s 2979, created as an equity account by the first closing'),
  number: z.string(),
  name: z.string(),
});

export const accountingSettingsSchema = z.object({
  fiscalYearStartMonth: z.number().int().min(1).max(12).describe('1 = January (calendar year) … 12 = December'),
  profitLossAccount: accountRef.extend({ isDefault: z.boolean().describe('true when it is the chart\'s 2979, not a chosen account') }),
});

const acknowledgementSchema = z.object({ key: z.string(), name: z.string(), detail: z.string(), note: z.string() });

export const closingSchema = z.object({
  uuid: z.string(),
  fiscalYear: fiscalYearSchema,
  status: z.enum(['closed', 'reopened']),
  result: money.describe('revenue − expenses of the year, positive for a profit'),
  profitLossAccount: accountRef,
  closingEntry: z.object({ id: z.number().int() }).nullable().describe('null when the year had nothing to move'),
  reversalEntry: z.object({ id: z.number().int() }).nullable().describe('the reversal posted by reopening'),
  lockDate: date.describe('the lock the closing set: the last day of the fiscal year'),
  lock: z.object({ uuid: z.string() }).nullable().describe('null once reopened (the lock was removed)'),
  acknowledgements: z.array(acknowledgementSchema).describe('failed checks acknowledged with a note at closing'),
  closedAt: z.string(),
  closedBy: z.object({ id: z.string() }).nullable(),
  reopenedAt: z.string().nullable(),
  reopenedBy: z.object({ id: z.string() }).nullable(),
});

const fiscalYearListSchema = z.object({
  fiscalYearStartMonth: z.number().int(),
  currentYear: z.number().int().describe('the fiscal year that contains today (Switzerland)'),
  years: z.array(
    fiscalYearSchema.extend({
      status: z.enum(['open', 'closed']),
      hasPostings: z.boolean(),
      result: money.describe('revenue − expenses (profit positive): the closing\'s for a closed year, else the postings so far'),
      closing: z
        .object({
          uuid: z.string(),
          closedAt: z.string(),
          closedBy: z.object({ id: z.string() }).nullable(),
          closingEntry: z.object({ id: z.number().int() }).nullable(),
          lockDate: date,
        })
        .nullable(),
    }),
  ),
});

const closingLineSchema = z.object({
  account: accountRef.extend({ type: z.object({ id: z.number().int() }), currency: currencyCode.nullable() }),
  balance: money.describe('the account\'s balance (debit − credit) for the fiscal year before closing'),
  amount: money,
  direction: z.union([z.literal(1), z.literal(-1)]).describe('1 debit, -1 credit'),
});

const openingBalanceSchema = accountRef.extend({
  type: z.object({ id: z.number().int() }),
  currency: currencyCode.nullable(),
  balance: money.describe('debit − credit on the first day of the next year'),
});

const closingPreviewSchema = z.object({
  fiscalYear: fiscalYearSchema,
  status: z.enum(['open', 'closed']),
  blockers: z
    .array(z.object({ code: z.string(), message: z.string() }))
    .describe('why booking would be refused now, the checks aside (fiscal_year_not_ended, earlier_year_open, period_locked)'),
  profitLossAccount: accountRef,
  result: money.describe('revenue − expenses, positive for a profit'),
  revenue: money,
  expenses: money,
  entry: z.object({
    id: z.number().int().nullable().describe('the booked entry of a closed year; null for the proposal'),
    dateLedger: date,
    description: z.string(),
    lines: z.array(closingLineSchema),
  }),
  opening: z.object({
    date: date.describe('first day of the next fiscal year'),
    accounts: z.array(openingBalanceSchema).describe('balances carry forward (cumulative): no opening entry is posted'),
    total: money.describe('0.00 when the books balance and the income accounts are closed'),
  }),
  closing: closingSchema.nullable(),
});

/** The checks report of /api/accounting/checks, for the fiscal year. */
const closingChecksSchema = checksReportSchema.extend({ fiscalYear: fiscalYearSchema });

/** 409 of closing/book: `checks` lists the failed checks without a note (code `checks_failed`). */
const bookConflictSchema = errorSchema.extend({
  checks: z.array(z.object({ key: z.string(), name: z.string(), detail: z.string() })).optional(),
});

export interface ClosingRouteOptions {
  /** Runs the accounting checks for a period (issue 12 §2). */
  checks: ClosingChecksRunner;
}

export const closingRoutes: FastifyPluginAsyncZod<ClosingRouteOptions> = async (app, options) => {
  const actor = (request: Parameters<typeof auth>[0]): ClosingActor => ({ userId: auth(request).userId, ...auditClient(request) });
  const yearBody = strictObject({ year: yearField });

  app.get(
    '/settings',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: 'The accounting settings: the month the fiscal year starts in and the profit-or-loss account of the year-end closing.',
        response: { 200: accountingSettingsSchema, ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => getAccountingSettings(tx, instanceId));
    },
  );

  app.post(
    '/settings/update',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        description:
          'Changes the fiscal year start (1–12) and/or the profit-or-loss account (`null`: the chart\'s 2979). 409 `fiscal_year_closed` ' +
          'for a new start month while a closed fiscal year exists; 400 `profitLossAccount.id` for an unknown or non-equity account. ' +
          'Owner and admin; audited `accounting_settings.updated`.',
        body: accountingSettingsPatchSchema,
        response: { 200: accountingSettingsSchema, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const { fiscalYearStartMonth, profitLossAccount } = request.body;
      const profitLossAccountId = profitLossAccount === undefined ? undefined : (profitLossAccount?.id ?? null);
      return app.db.withInstance(instanceId, (tx) => updateSettings(tx, instanceId, { fiscalYearStartMonth, profitLossAccountId }, actor(request)));
    },
  );

  app.get(
    '/closing/list',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: 'The fiscal years with postings, the current one and any ever closed, the latest first: status open/closed, result, who closed it and when.',
        response: { 200: fiscalYearListSchema, ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => listFiscalYears(tx, instanceId));
    },
  );

  app.post(
    '/closing/preview',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          'The closing of a fiscal year: the closing entry (every revenue and expense account with a balance for the year, moved to the ' +
          'profit-or-loss account; as booked for a closed year), the result, the next year\'s opening balances (cumulative balances: no ' +
          'opening entry) and what stands in the way of booking now (`blockers`).',
        body: yearBody,
        response: { 200: closingPreviewSchema, ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => previewClosing(tx, instanceId, request.body.year));
    },
  );

  app.post(
    '/closing/checks',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: 'Runs the accounting checks for the fiscal year, as closing/book does: a failed check must be resolved or acknowledged with a note.',
        body: yearBody,
        response: { 200: closingChecksSchema, ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => checksForClosing(tx, instanceId, request.body.year, options.checks, messageLanguageOf(request.headers['accept-language'])));
    },
  );

  app.post(
    '/closing/book',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        description:
          'Closes a fiscal year: re-runs the checks (409 `checks_failed` with `checks` while a failed check has no acknowledgement with a ' +
          'note), posts ONE closing entry dated the year\'s last day (source `closing`), locks the books at that day, records the closing; ' +
          'one transaction. 409 `already_done` (closed already, also for parallel repeats), `fiscal_year_not_ended`, `earlier_year_open`, ' +
          '`period_locked` (a lock on or after the year\'s last day). Owner and admin; audited `fiscal_year.closed`.',
        body: strictObject({
          year: yearField,
          acknowledgements: z.array(checkAcknowledgementSchema).max(100).default([]),
        }),
        response: { 200: closingSchema, ...errorsWithConflict, 409: bookConflictSchema },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const { year, acknowledgements } = request.body;
      const language = messageLanguageOf(request.headers['accept-language']);
      return app.db.withInstance(instanceId, (tx) => closeFiscalYear(tx, instanceId, year, acknowledgements, actor(request), options.checks, language));
    },
  );

  app.post(
    '/closing/reopen',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        description:
          'Reopens a closed fiscal year: removes its lock and posts the reversal of the closing entry on the year\'s last day. 409 ' +
          '`fiscal_year_open`, `already_done`, `later_year_closed` (reopen the later year first), `period_locked` (a lock dated after the ' +
          'year: delete it first). Owner only (403 for admins); audited `fiscal_year.reopened`.',
        body: yearBody,
        response: { 200: closingSchema, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId, role } = auth(request);
      if (role !== 'owner') throw forbidden(`Only an owner may reopen a fiscal year (your role: ${role})`);
      return app.db.withInstance(instanceId, (tx) => reopenFiscalYear(tx, instanceId, request.body.year, actor(request)));
    },
  );
};
