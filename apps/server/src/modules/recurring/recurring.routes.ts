/**
 * /api/recurring/* (issue 15 §4, decision 031): recurring-invoice templates. Registered by app.ts
 * under /api with the RecurringInvoices service (whose job handler the runner calls).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { invoiceSchema, normalizeInvoiceItem, strictObject, zDate, zId, zUuid } from '@bilan/domain';
import { auth } from '../../http/access.js';
import { fieldsUnder } from '../../http/errors.js';
import { linkNext } from '../../http/next-link.js';
import { errors, errorsWithConflict, errorsWithNotFound, okSchema, pageAnswerFields, pageQueryFields } from '../../http/schemas.js';
import { INTERVALS, getRecurring, listRecurringPage, recurringOfInvoice, type RecurringInvoices } from './recurring.service.js';

const tags = ['recurring'];
const money = z.string();

const recurringSchema = invoiceSchema.omit({ dateInvoice: true, dateDue: true }).extend({
  interval: z.enum(INTERVALS, { error: 'interval must be monthly, quarterly or yearly' }),
  startDate: zDate,
  endDate: zDate.nullable().optional(),
  paymentTermDays: z.number().int('must be an integer').min(0).max(3650).optional(),
  sendMode: z.enum(['draft', 'send'], { error: 'sendMode must be draft or send' }),
  contactIds: z.array(zId).max(20).optional(),
  active: z.boolean().optional(),
});

const recurringAnswer = z.object({
  uuid: z.string(),
  id: z.number().int(),
  company: z.object({ uuid: z.string(), name: z.string() }),
  address: z.object({ id: z.number().int(), street: z.string(), houseNumber: z.string().nullable(), zip: z.string(), city: z.string(), country: z.object({ id: z.number().int() }) }),
  paymentProfile: z.object({ id: z.number().int() }),
  vat: z.string(),
  currency: z.string(),
  fxRate: z.string(),
  description: z.string(),
  paymentTermDays: z.number().int(),
  interval: z.enum(INTERVALS),
  startDate: z.string(),
  endDate: z.string().nullable(),
  nextDate: z.string(),
  isRunning: z.boolean(),
  sendMode: z.enum(['draft', 'send']),
  contactIds: z.array(z.number().int()),
  active: z.boolean(),
  items: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      amount: z.string(),
      price: z.string(),
      discount: z.string().nullable(),
      discountAbs: z.string().nullable(),
      vat: z.string().nullable(),
      account: z.object({ id: z.number().int(), number: z.string(), name: z.string() }).nullable(),
      total: money,
    }),
  ),
  totals: z.object({ net: money, vatRate: z.string(), vat: money, vatLines: z.array(z.object({ rate: z.string(), base: money, vat: money })), gross: money, rounding: money, total: money }),
  runs: z.array(
    z.object({
      periodDate: z.string(),
      invoice: z.object({ uuid: z.string(), refNumber: z.string(), status: z.number().int() }).nullable(),
      sent: z.boolean(),
      error: z.string().nullable(),
    }),
  ),
});

export const recurringRoutes: FastifyPluginAsyncZod<{ recurring: RecurringInvoices }> = async (app, { recurring }) => {
  const normalized = <T extends { items?: Parameters<typeof normalizeInvoiceItem>[0][] | undefined }>(data: T) => ({ ...data, items: data.items?.map((i) => normalizeInvoiceItem(i)) });

  app.get(
    '/recurring/list',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          'Recurring-invoice templates, newest first, with the invoices they created. Paged by `?page` or `?cursor` (the previous ' +
          "answer's `nextCursor`, also given as `Link: <…>; rel=\"next\"`), `?pageSize` ≤ 500 (default 50); `total` counted up to 10,000.",
        querystring: strictObject(pageQueryFields),
        response: { 200: z.object({ data: z.array(recurringAnswer), ...pageAnswerFields }), ...errors },
      },
    },
    async (request, reply) => {
      const { instanceId } = auth(request);
      const page = await app.db.withInstance(instanceId, (tx) => listRecurringPage(tx, instanceId, request.query));
      linkNext(request, reply, page.nextCursor);
      return page;
    },
  );

  app.post(
    '/recurring/detail',
    { config: { access: 'read' }, schema: { tags, description: 'One template by uuid; 404 unknown.', body: strictObject({ uuid: zUuid }), response: { 200: recurringAnswer, ...errorsWithNotFound } } },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => getRecurring(tx, instanceId, request.body.uuid));
    },
  );

  app.post(
    '/recurring/by-invoice',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: 'The template and period that created an invoice (its link back), or null.',
        body: strictObject({ uuid: zUuid }),
        response: { 200: z.object({ recurring: z.object({ uuid: z.string(), periodDate: z.string() }).nullable() }), ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return { recurring: await app.db.withInstance(instanceId, (tx) => recurringOfInvoice(tx, instanceId, request.body.uuid)) };
    },
  );

  const description =
    "A template: the invoice's head and lines (as /invoice/insert `data`, without dates), `interval` monthly|quarterly|yearly, " +
    '`startDate` (the first invoice date), optional `endDate` (no invoice after it), `paymentTermDays` (default 30), `sendMode` ' +
    "'send' (post and e-mail each invoice to `contactIds`, contacts of the customer, as /invoice/email) or 'draft' (pending). The job " +
    'runner creates the invoice of each period on its date, once, catching up missed periods. 400 names every bad field under `data`.';

  app.post(
    '/recurring/insert',
    { config: { access: 'write' }, schema: { tags, description: `Creates a template. ${description}`, body: strictObject({ data: recurringSchema }), response: { 200: recurringAnswer, ...errorsWithConflict } } },
    async (request) => {
      const { instanceId, userId } = auth(request);
      return fieldsUnder('data', () => app.db.withInstance(instanceId, (tx) => recurring.create(tx, instanceId, userId, normalized(request.body.data))));
    },
  );

  app.post(
    '/recurring/update',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description: `Replaces a template; the periods already created stay, the next date follows the new schedule. ${description}`,
        body: strictObject({ uuid: zUuid, data: recurringSchema }),
        response: { 200: recurringAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return fieldsUnder('data', () => app.db.withInstance(instanceId, (tx) => recurring.update(tx, instanceId, request.body.uuid, normalized(request.body.data))));
    },
  );

  app.post(
    '/recurring/delete',
    { config: { access: 'write' }, schema: { tags, description: 'Deletes a template; the invoices it created stay.', body: strictObject({ uuid: zUuid }), response: { 200: okSchema, ...errorsWithNotFound } } },
    async (request) => {
      const { instanceId } = auth(request);
      await app.db.withInstance(instanceId, (tx) => recurring.remove(tx, instanceId, request.body.uuid));
      return { ok: true as const };
    },
  );
};
