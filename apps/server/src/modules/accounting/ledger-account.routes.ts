/** Ledger accounts and account groups under /api/accounting (spec §7.1 "Ledger accounts", "Groups"). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { zRequiredText } from '@bilan/domain';
import { auth } from '../../http/access.js';
import { fieldsUnder } from './accounting.errors.js';
import {
  accountGroupSchema,
  accountTypeId,
  dashboardSchema,
  errors,
  errorsWithConflict,
  errorsWithNotFound,
  functionTypeId,
  groupNumber,
  id,
  ledgerAccountData,
  ledgerAccountPatch,
  ledgerAccountAnswer,
  okSchema,
  strictObject,
} from './accounting.schemas.js';
import { accountDashboard, todayInSwitzerland } from './balance.service.js';
import { getAccountingSettings } from './closing.service.js';
import { fiscalYear, fiscalYearNumberOf } from './fiscal-year.js';
import {
  changeLedgerAccount,
  createAccountGroup,
  createLedgerAccount,
  getLedgerAccount,
  listAccountGroups,
  listLedgerAccounts,
  removeLedgerAccount,
} from './ledger-account.service.js';

const tags = ['accounting'];

/** account/list, detail, insert, update, delete, GET account/dashboard, GET group/list, group/insert. */
export const ledgerAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/account/list',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: 'Ledger accounts sorted by number; `text` matches a number prefix or part of the name. Balance = debit − credit of all postings.',
        body: strictObject({
          filters: strictObject({
            text: z.string().max(200).optional(),
            type: accountTypeId.optional(),
            functionType: functionTypeId.optional(),
          }).optional(),
        }).optional(),
        response: { 200: z.object({ data: z.array(ledgerAccountAnswer), total: z.number().int() }), ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const filters = request.body?.filters ?? {};
      const data = await app.db.withInstance(instanceId, (tx) => listLedgerAccounts(tx, instanceId, filters));
      return { data, total: data.length };
    },
  );

  app.post(
    '/account/detail',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: 'One ledger account; 404 for an unknown id or one of another instance.',
        body: strictObject({ id }),
        response: { 200: ledgerAccountAnswer, ...errorsWithNotFound },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => getLedgerAccount(tx, instanceId, request.body.id));
    },
  );

  app.post(
    '/account/insert',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          'Creates a ledger account; `type` and `functionType` are ids (spec §3); type defaults by first digit (1 assets, 2 liability, 3 revenue, else expenses; spec §9); 409 when the number exists.',
        body: strictObject({ data: ledgerAccountData }),
        response: { 200: ledgerAccountAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return fieldsUnder('data', () => app.db.withInstance(instanceId, (tx) => createLedgerAccount(tx, instanceId, request.body.data)));
    },
  );

  app.post(
    '/account/update',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description: 'Changes the given fields of a ledger account (type null: first-digit default; functionType null: none); 404 unknown id, 409 number taken.',
        body: strictObject({ id, data: ledgerAccountPatch }),
        response: { 200: ledgerAccountAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return fieldsUnder('data', () =>
        app.db.withInstance(instanceId, (tx) => changeLedgerAccount(tx, instanceId, request.body.id, request.body.data)),
      );
    },
  );

  app.post(
    '/account/delete',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description: 'Deletes a ledger account without postings; 409 naming the account number when it has postings.',
        body: strictObject({ id }),
        response: { 200: okSchema, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      await app.db.withInstance(instanceId, (tx) => removeLedgerAccount(tx, instanceId, request.body.id));
      return { ok: true as const };
    },
  );

  app.get(
    '/account/dashboard',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          'Account cards: balances at the 12 month-ends of the fiscal year `year` (named by the calendar year it starts in; default the one of today) ' +
          'of accounts non-zero at its end (spec §2.4, §9; issue 12 §3).',
        querystring: z.object({ year: z.coerce.number().int('must be an integer').min(1900).max(2300).optional() }),
        response: { 200: dashboardSchema, ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, async (tx) => {
        const { fiscalYearStartMonth } = await getAccountingSettings(tx, instanceId);
        const year = request.query.year ?? fiscalYearNumberOf(todayInSwitzerland(), fiscalYearStartMonth);
        const { label } = fiscalYear(year, fiscalYearStartMonth);
        return { ...(await accountDashboard(tx, instanceId, year, fiscalYearStartMonth)), label };
      });
    },
  );

  app.get(
    '/group/list',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: 'Account groups (1–3 digit class, group and sub-group numbers of the chart) sorted by number.',
        response: { 200: z.object({ data: z.array(accountGroupSchema), total: z.number().int() }), ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const data = await app.db.withInstance(instanceId, (tx) => listAccountGroups(tx, instanceId));
      return { data, total: data.length };
    },
  );

  app.post(
    '/group/insert',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description: 'Creates an account group (number of 1–3 digits); 409 when the number exists.',
        body: strictObject({ data: strictObject({ number: groupNumber, name: zRequiredText.max(200) }) }),
        response: { 200: accountGroupSchema, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return fieldsUnder('data', () => app.db.withInstance(instanceId, (tx) => createAccountGroup(tx, instanceId, request.body.data)));
    },
  );
};
