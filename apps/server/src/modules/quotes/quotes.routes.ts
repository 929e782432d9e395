/**
 * /api/quote/* (issue 15 §4, decision 031): quotes with an invoice's lines, their status, 'Create
 * invoice' and the PDF. Registered by app.ts under /api. Field names of head and lines are the
 * invoice's (/invoice/insert), with `dateQuote` and `validUntil` for its dates.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { invoiceSchema, normalizeInvoiceItem, strictObject, zDate, zId, zUuid, type InvoiceItemWire } from '@bilan/domain';
import { auth } from '../../http/access.js';
import { fieldsUnder } from '../../http/errors.js';
import { errors, errorsWithConflict, errorsWithNotFound, okSchema, pageAnswerFields, pageFields } from '../../http/schemas.js';
import { DEFAULT_PAGE_SIZE } from '../../db/paging.js';
import {
  QUOTE_STATUSES,
  changeQuoteStatus,
  createInvoiceFromQuote,
  createQuote,
  deleteQuote,
  getQuote,
  listQuotes,
  quotePdf,
  updateQuote,
} from './quotes.service.js';

const tags = ['quote'];
const money = z.string();

/** /quote/insert `data`: the invoice's head and lines, `dateQuote` and `validUntil` (default + 30 days) for its dates. */
const quoteSchema = invoiceSchema.omit({ dateInvoice: true, dateDue: true }).extend({
  dateQuote: zDate,
  validUntil: zDate.nullable().optional(),
});
const quoteStatus = z.enum(QUOTE_STATUSES, { error: 'status must be draft, sent, accepted or declined' });

const quoteAnswer = z.object({
  uuid: z.string(),
  id: z.number().int(),
  number: z.string().describe("'AN-' + the per-instance number padded to 5"),
  status: quoteStatus,
  company: z.object({ uuid: z.string(), name: z.string() }),
  address: z.object({ id: z.number().int(), street: z.string(), houseNumber: z.string().nullable(), zip: z.string(), city: z.string(), country: z.object({ id: z.number().int() }) }),
  paymentProfile: z.object({ id: z.number().int() }),
  vat: z.string(),
  currency: z.string(),
  fxRate: z.string(),
  dateQuote: z.string(),
  validUntil: z.string(),
  description: z.string(),
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
  totals: z.object({
    net: money,
    vatRate: z.string(),
    vat: money,
    vatLines: z.array(z.object({ rate: z.string(), base: money, vat: money })),
    gross: money,
    rounding: money,
    total: money,
  }),
  invoice: z.object({ uuid: z.string(), refNumber: z.string() }).nullable().describe('the invoice the accepted quote became'),
  createdAt: z.string(),
});

/** Lines in the working form (either name of each pair is accepted on the wire, as for invoices). */
function withWorkingItems<T extends { items?: InvoiceItemWire[] | undefined }>(data: T) {
  return { ...data, items: data.items?.map((item) => normalizeInvoiceItem(item)) };
}

export const quoteRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/quote/list',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          'Quotes, newest first, with lines and totals; `status` filters (draft, sent, accepted, declined). Paged by `page` or `cursor` ' +
          '(the previous answer\'s `nextCursor`), pageSize ≤ 500 (default 50); `total` counted up to 10,000.',
        body: strictObject({ status: quoteStatus.optional(), ...pageFields }).optional(),
        response: { 200: z.object({ data: z.array(quoteAnswer), ...pageAnswerFields }), ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const body = request.body;
      return app.db.withInstance(instanceId, (tx) =>
        listQuotes(tx, instanceId, body?.status, { page: body?.page ?? 1, pageSize: body?.pageSize ?? DEFAULT_PAGE_SIZE, cursor: body?.cursor }),
      );
    },
  );

  app.post(
    '/quote/detail',
    {
      config: { access: 'read' },
      schema: { tags, description: 'One quote by uuid or number (id); 404 unknown.', body: strictObject({ id: z.union([zUuid, zId]) }), response: { 200: quoteAnswer, ...errorsWithNotFound } },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => getQuote(tx, instanceId, request.body.id));
    },
  );

  app.post(
    '/quote/insert',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          "Creates a draft quote (AN-…) with the invoice's head and lines (as /invoice/insert `data`) and `dateQuote`, `validUntil` " +
          '(default dateQuote + 30 days, not before it). Checked by the invoice\'s rules: 400 names every bad field under `data`.',
        body: strictObject({ data: quoteSchema }),
        response: { 200: quoteAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      return fieldsUnder('data', () => app.db.withInstance(instanceId, (tx) => createQuote(tx, instanceId, userId, withWorkingItems(request.body.data))));
    },
  );

  app.post(
    '/quote/update',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description: 'Changes a draft quote (409 `quote_not_draft` once sent); `data.items`, when given, replaces all lines. 400 as insert.',
        body: strictObject({ uuid: zUuid, data: quoteSchema.partial() }),
        response: { 200: quoteAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return fieldsUnder('data', () => app.db.withInstance(instanceId, (tx) => updateQuote(tx, instanceId, request.body.uuid, withWorkingItems(request.body.data))));
    },
  );

  app.post(
    '/quote/delete',
    {
      config: { access: 'write' },
      schema: { tags, description: 'Deletes a draft quote; 409 `quote_not_draft` otherwise.', body: strictObject({ uuid: zUuid }), response: { 200: okSchema, ...errorsWithConflict } },
    },
    async (request) => {
      const { instanceId } = auth(request);
      await app.db.withInstance(instanceId, (tx) => deleteQuote(tx, instanceId, request.body.uuid));
      return { ok: true as const };
    },
  );

  app.post(
    '/quote/status/change',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          'draft → sent (needs a line: 400 `items`), sent → accepted or declined. Accepted and declined are final and a sent quote ' +
          'never returns to draft: 409 `status_not_allowed`; the status it has already: 409 `already_done`. Posts nothing.',
        body: strictObject({ uuid: zUuid, status: quoteStatus }),
        response: { 200: quoteAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => changeQuoteStatus(tx, instanceId, request.body.uuid, request.body.status));
    },
  );

  app.post(
    '/quote/invoice',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          "Create invoice: a pending invoice (as /invoice/insert) of the accepted quote's customer, address, payment profile, VAT, " +
          'currency and lines, dated `dateInvoice` (default today), due after 30 days; the quote records it. Once: a repeat or a ' +
          'parallel call is 409 `already_done`; a quote not accepted 409 `quote_not_accepted`. Nothing is posted.',
        body: strictObject({ uuid: zUuid, dateInvoice: zDate.nullish() }),
        response: { 200: z.object({ quote: quoteAnswer, invoice: z.object({ uuid: z.string(), refNumber: z.string() }) }), ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      const { quote, invoice } = await app.db.withInstance(instanceId, (tx) => createInvoiceFromQuote(tx, instanceId, userId, request.body.uuid, request.body.dateInvoice));
      return { quote, invoice: { uuid: invoice.uuid, refNumber: invoice.refNumber } };
    },
  );

  app.post(
    '/quote/pdf',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: "The quote PDF: the invoice's layout titled Offerte / Offre / Offerta / Quote by `lang` (en|de|fr|it), with its validity, no payment part. Binary application/pdf.",
        body: strictObject({ uuid: zUuid, lang: z.enum(['en', 'de', 'fr', 'it']).default('de') }),
      },
    },
    async (request, reply) => {
      const { instanceId } = auth(request);
      const { pdf, filename } = await app.db.withInstance(instanceId, (tx) => quotePdf(tx, instanceId, request.body.uuid, request.body.lang));
      return reply.header('content-type', 'application/pdf').header('content-disposition', `attachment; filename="${filename}"`).send(pdf);
    },
  );
};
