/** Trial balance, month-end balances and ledger checks under /api/accounting (spec §7.1 "Balances"). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auth } from '../../http/access.js';
import { accountSnapshotSchema, balanceCheckSchema, balancesAtDatesSchema, errors, id, ledgerDate, strictObject, trialBalanceSchema } from './accounting.schemas.js';
import { invalidField } from './accounting.errors.js';
import { accountSnapshots, balancesAtDates, checkLedger, todayInSwitzerland, trialBalance } from './balance.service.js';

const tags = ['accounting'];

/** balance/get (trial balance), balance/get/multi (month-end balances), balance/snapshot, GET and POST balance/check. */
export const balanceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/balance/get',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          'Trial balance as of `date` (inclusive, default today in Switzerland): per account with postings, the debit and credit ' +
          'turnover and the balance at `date`. With `dateFrom` (on or before `date`, 400 otherwise) the turnover covers ' +
          '`dateFrom`…`date` and `openingBalance` is the balance before `dateFrom`; without it, turnover since the first posting and ' +
          'openingBalance 0.00. Amounts in the instance currency, 2 decimals, debit positive.',
        body: strictObject({ date: ledgerDate.optional(), dateFrom: ledgerDate.optional() }).optional(),
        response: { 200: trialBalanceSchema, ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const date = request.body?.date ?? todayInSwitzerland();
      const dateFrom = request.body?.dateFrom ?? null;
      if (dateFrom !== null && dateFrom > date) throw invalidField('dateFrom', `must be on or before the date ${date}`);
      return app.db.withInstance(instanceId, (tx) => trialBalance(tx, instanceId, date, dateFrom));
    },
  );

  app.post(
    '/balance/get/multi',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: 'Balance (debit − credit) of each account with postings at each of 1–24 end dates, in the order given.',
        body: strictObject({ endDates: z.array(ledgerDate).min(1, 'at least one date').max(24, 'at most 24 dates') }),
        response: { 200: balancesAtDatesSchema, ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const result = await app.db.withInstance(instanceId, (tx) => balancesAtDates(tx, instanceId, request.body.endDates));
      return {
        endDates: result.endDates,
        accounts: result.accounts.map(({ id, number, name, balances }) => ({ id, number, name, balances })),
      };
    },
  );

  app.post(
    '/balance/snapshot',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          'Account balance snapshot (spec §3) at `date` (default today in Switzerland): per account with postings on or before it — or ' +
          'only the `accounts` given — its balance in the books\' currency (sum_base) and in its own currency (sum_native), each with the ' +
          'part from postings in another currency than the account\'s (…_trade) and sum_native_net = sum_native − sum_native_trade. ' +
          'Sorted by account number. 400 `accounts.N` for an id that is not a ledger account of the instance.',
        body: strictObject({
          date: ledgerDate.optional(),
          accounts: z.array(id).min(1, 'at least one account').max(500, 'at most 500 accounts').optional(),
        }).optional(),
        response: { 200: z.object({ data: z.array(accountSnapshotSchema) }), ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const date = request.body?.date ?? todayInSwitzerland();
      const accountIds = request.body?.accounts ?? null;
      return { data: await app.db.withInstance(instanceId, (tx) => accountSnapshots(tx, instanceId, date, accountIds)) };
    },
  );

  const check = {
    config: { access: 'read' as const },
    schema: {
      tags,
      description: 'Integrity checks: every entry balances with two or more postings, month balances equal postings, debit total = credit total.',
      response: { 200: balanceCheckSchema, ...errors },
    },
  };
  app.get('/balance/check', check, async (request) => {
    const { instanceId } = auth(request);
    return app.db.withInstance(instanceId, (tx) => checkLedger(tx, instanceId));
  });
  app.post('/balance/check', { ...check, schema: { ...check.schema, body: strictObject({}).optional() } }, async (request) => {
    const { instanceId } = auth(request);
    return app.db.withInstance(instanceId, (tx) => checkLedger(tx, instanceId));
  });
};
