/** /api/transaction-group* (spec §2.2, §3 Transaction group, §4, §7.1; shapes in docs/api.md "Transaction groups"). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { strictObject, zDate, zId, zUuid } from '@bilan/domain';
import { auth } from '../../http/access.js';
import { errors, errorsWithConflict, errorsWithNotFound, okSchema } from '../../http/schemas.js';
import { payableAnswer } from './payables.routes.js';
import {
  changeGroupStatus,
  deleteGroup,
  getGroup,
  groupPain001,
  insertGroup,
  listDebtorAccounts,
  listGroups,
  listGroupsWithPayables,
  payGroup,
} from './transaction-groups.service.js';

const tags = ['transaction groups'];

const RULES =
  'Status (TransactionGroupStatus): pending 1 → initiated 4 (file sent to the bank) → paid 2 (each bill\'s payment booked: debit ' +
  'payables 2000 / credit the group\'s bank account at `date`, default the execution date; bills → paid 4); pending or initiated → ' +
  'denied 3 (bills back to approved 2, out of the group). paid and denied are final (409). bankStatus (Bank payment status): pending 1, ' +
  'paid 2, pain002Accp 3, pain002Rjctd 4, pain002Part 5, set by pain.002 imports.';

const groupAnswer = z.object({
  id: z.number().int(),
  uuid: z.string(),
  status: z.number().int(),
  statusName: z.string(),
  bankStatus: z.number().int(),
  bankStatusName: z.string(),
  executionDate: z.string().describe('the earliest requested execution date of its bills'),
  executionDates: z.array(z.string()).describe('every requested execution date of its bills, ascending (one PmtInf block each)'),
  paidDate: z.string().nullable(),
  count: z.number().int(),
  total: z.string().describe('sum of the bills in the instance currency'),
  debtor: z.object({
    account: z.object({ id: z.number().int(), number: z.string(), name: z.string() }),
    iban: z.string(),
    bic: z.string().nullable(),
    company: z.object({ name: z.string() }),
  }),
  createdAt: z.string(),
});
const groupWithPayables = groupAnswer.extend({
  Payable: z.array(payableAnswer),
  payToken: z.string().optional().describe('one-time confirmation token for /transaction-group/pay (detail only)'),
});

export const transactionGroupRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/transaction-group/insert',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          'Creates a pending group from approved bills (each with an IBAN payment profile); they move to status 3. The paying account ' +
          '(`debtor.account.id`) is one of the own company\'s bank payment profiles (GET /transaction-group/debtor-accounts), default ' +
          'the first. Each bill gets `payable.executionDates[N]` (same order as `uuids`), else `executionDate`, else today; the ' +
          `pain.001 has one payment information block per date. 400 \`payable.uuids.N\`, \`payable.executionDates\`, \`debtor.account.id\`. ${RULES}`,
        body: strictObject({
          payable: strictObject({
            uuids: z.array(zUuid).min(1).max(10_000),
            executionDates: z.array(zDate.nullable()).max(10_000).optional().describe('requested execution date per bill, same order as uuids; null: executionDate'),
          }),
          debtor: strictObject({ account: strictObject({ id: zId }) }).optional().describe("the paying bank ledger account; default the own company's first"),
          executionDate: zDate.optional().describe('requested execution date of the bills without their own; default today'),
        }),
        response: { 200: groupWithPayables, ...errorsWithNotFound },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const { payable, debtor, executionDate } = request.body;
      return app.db.withInstance(instanceId, (tx) =>
        insertGroup(tx, instanceId, { payableUuids: payable.uuids, executionDates: payable.executionDates, debtorAccountId: debtor?.account.id, executionDate }),
      );
    },
  );

  app.get(
    '/transaction-group/debtor-accounts',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          "The bank accounts a group can pay from: the own company's active IBAN / QR-bill payment profiles with a ledger account " +
          '(Settings → Payment Configuration), first = default.',
        response: {
          200: z.object({
            data: z.array(
              z.object({
                account: z.object({ id: z.number().int(), number: z.string(), name: z.string() }),
                paymentProfile: z.object({ id: z.number().int() }),
                iban: z.string(),
                bic: z.string().nullable(),
                name: z.string(),
              }),
            ),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return { data: await app.db.withInstance(instanceId, (tx) => listDebtorAccounts(tx, instanceId)) };
    },
  );

  app.get(
    '/transaction-group/list',
    { config: { access: 'read' }, schema: { tags, description: `Groups, newest first. ${RULES}`, response: { 200: z.object({ data: z.array(groupAnswer), total: z.number().int() }), ...errors } } },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => listGroups(tx, instanceId));
    },
  );

  app.get(
    '/transaction-group/list-w-accounts',
    {
      config: { access: 'read' },
      schema: { tags, description: 'Groups with their bills (`Payable`, each with its payment profile and expense account).', response: { 200: z.object({ data: z.array(groupWithPayables), total: z.number().int() }), ...errors } },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => listGroupsWithPayables(tx, instanceId));
    },
  );

  app.post(
    '/transaction-group/detail',
    { config: { access: 'read' }, schema: { tags, description: 'One group with its bills; 404 unknown or of another instance.', body: strictObject({ id: zId }), response: { 200: groupWithPayables, ...errorsWithNotFound } } },
    async (request) => {
      const { instanceId } = auth(request);
      // The one-time confirmation token for /transaction-group/pay: a group is paid once, so one token per group.
      return app.db.withInstance(instanceId, async (tx) => {
        const group = await getGroup(tx, instanceId, request.body.id);
        return { ...group, payToken: `pay-${group.uuid}` };
      });
    },
  );

  app.post(
    '/transaction-group/pay',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          'Pays the group (spec §7.1 `/transaction-group/pay {id, token}`): pending or initiated → paid 2, each bill\'s payment booked ' +
          '(debit payables 2000 / credit the group\'s bank account at `date`, default the execution date; bills → paid 4). `token` is ' +
          'the one-time confirmation token of the detail (`payToken`): the same token answers the paid group again and books nothing ' +
          '(parallel calls included). 404 unknown group; 409 denied, or paid with another token (`already_done`), lock date.',
        body: strictObject({ id: zId, token: z.string().min(1).max(200), date: zDate.nullish() }),
        response: { 200: groupWithPayables, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      const { id, token, date } = request.body;
      return app.db.withInstance(instanceId, (tx) => payGroup(tx, instanceId, userId, id, token, date));
    },
  );

  app.post(
    '/transaction-group/status/change',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description: `Changes the status. ${RULES}`,
        body: strictObject({ id: zId, status: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]), date: zDate.optional() }),
        response: { 200: groupWithPayables, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      const { id, status, date } = request.body;
      return app.db.withInstance(instanceId, (tx) => changeGroupStatus(tx, instanceId, userId, id, status, date));
    },
  );

  app.post(
    '/transaction-group/delete',
    { config: { access: 'write' }, schema: { tags, description: 'Deletes a pending group (bills back to approved); 409 otherwise.', body: strictObject({ id: zId }), response: { 200: okSchema, ...errorsWithConflict } } },
    async (request) => {
      const { instanceId } = auth(request);
      await app.db.withInstance(instanceId, (tx) => deleteGroup(tx, instanceId, request.body.id));
      return { ok: true as const };
    },
  );

  app.post(
    '/transaction-group/pain001',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          'The group\'s payment file, pain.001.001.09.ch.03 (see POST /api/banking/{token}), as application/xml with file name TG{id}-pain001.xml. ' +
          'End-to-end id of each transaction = the bill uuid without hyphens. 400 `Payable.N.<field>` for a bill the SPS rules refuse.',
        body: strictObject({ id: zId }),
        response: { 200: z.string(), ...errorsWithConflict },
      },
    },
    async (request, reply) => {
      const { instanceId } = auth(request);
      const xml = await app.db.withInstance(instanceId, (tx) => groupPain001(tx, instanceId, request.body.id));
      return reply
        .type('application/xml; charset=utf-8')
        .header('content-disposition', `attachment; filename="TG${request.body.id}-pain001.xml"`)
        .send(xml);
    },
  );
};
