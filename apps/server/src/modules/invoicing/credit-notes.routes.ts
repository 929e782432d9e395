/**
 * /api/invoice/credit-note/* (issue 15 §2, decision 027): create a credit note of a sent invoice,
 * list an invoice's credit notes, one credit note's PDF. Registered by app.ts under /api.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { strictObject, zDate, zId, zUuid } from '@bilan/domain';
import { auth } from '../../http/access.js';
import { errorsWithConflict, errorsWithNotFound, pageAnswerFields, pageFields } from '../../http/schemas.js';
import { renderCreditNotePdf } from './credit-note.pdf.js';
import { createCreditNote, getCreditNote, listCreditNotePage } from './credit-notes.service.js';
import { invoicingError } from './invoicing.errors.js';
import type { PdfLang } from './invoicing.pdf.js';
import { getInvoice, ownCompany } from './invoicing.service.js';

const money = z.string();
export const creditNoteAnswer = z.object({
  uuid: z.string(),
  number: z.string().describe("'GS-' + the per-instance number padded to 6"),
  numberInt: z.number().int(),
  invoice: z.object({ uuid: z.string(), refNumber: z.string() }),
  company: z.object({ uuid: z.string(), name: z.string() }),
  date: z.string(),
  reason: z.string(),
  currency: z.string(),
  totals: z.object({
    net: money,
    vatRate: z.string(),
    vat: money,
    vatLines: z.array(z.object({ rate: z.string(), base: money, vat: money })),
    gross: money,
    rounding: money,
    total: money,
  }),
  entryId: z.number().int().nullable(),
  lines: z.array(z.object({ itemId: z.number().int(), name: z.string(), quantity: z.string().nullable(), amount: money, vat: z.string().nullable() })),
  createdAt: z.string(),
});

export const creditNoteRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['invoice'];

  app.post(
    '/invoice/credit-note/insert',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          'Creates a credit note (GS-…) of a sent invoice (`uuid`), in full (`full: true`) or per line (`lines`: itemId with a ' +
          '`quantity` or a net `amount`), at `date` (default today). Posts debit revenue of the original lines\' accounts and output ' +
          'VAT per rate (reduction code R81/R26/R38 → Ziffer 235 when the instance has one) / credit receivable 1100; the invoice\'s ' +
          'open amount drops by the total, and it is paid (3) once nothing is open. `token` (the detail\'s `creditToken`): the same ' +
          'token answers the same credit note and creates nothing. 400 `lines.N.quantity`/`lines.N.amount` more than left of the line, ' +
          '`lines`/`full` more than the open amount, `lines.N.itemId`, `date`; 404; 409 not sent (pending, paid, denied), lock date.',
        body: strictObject({
          uuid: zUuid,
          date: zDate.nullish(),
          reason: z.string().max(1000).nullish(),
          full: z.boolean().nullish(),
          lines: z
            .array(strictObject({ itemId: zId, quantity: z.string().max(30).nullish(), amount: z.string().max(30).nullish() }))
            .max(500)
            .nullish(),
          token: z.string().min(1).max(200),
        }),
        response: { 200: creditNoteAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      const { uuid, ...input } = request.body;
      return app.db.withInstance(instanceId, async (tx) => (await createCreditNote(tx, instanceId, userId, uuid, input)).creditNote);
    },
  );

  app.post(
    '/invoice/credit-note/list',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          'The credit notes of one invoice (`uuid`), or of every invoice without it, oldest first (date, then number). Paged by `page` or ' +
          "`cursor` (the previous answer's `nextCursor`), pageSize ≤ 500 (default 50); `total` counted up to 10,000. 404 unknown invoice.",
        body: strictObject({ uuid: zUuid.optional(), ...pageFields }),
        response: { 200: z.object({ data: z.array(creditNoteAnswer), ...pageAnswerFields }), ...errorsWithNotFound },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const { uuid, page, pageSize, cursor } = request.body;
      return app.db.withInstance(instanceId, async (tx) => {
        if (uuid) await getInvoice(tx, instanceId, uuid);
        return listCreditNotePage(tx, instanceId, { invoiceUuid: uuid }, { page, pageSize, cursor });
      });
    },
  );

  app.post(
    '/invoice/credit-note/pdf',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: 'The credit note PDF (A4, no payment part). lang en|de|fr|it. Binary application/pdf. 404 unknown credit note.',
        body: strictObject({ uuid: zUuid, lang: z.enum(['en', 'de', 'fr', 'it']).default('en') }),
      },
    },
    async (request, reply) => {
      const { instanceId } = auth(request);
      const { note, invoice, creditor } = await app.db.withInstance(instanceId, async (tx) => {
        const found = await getCreditNote(tx, instanceId, request.body.uuid);
        return { note: found, invoice: await getInvoice(tx, instanceId, found.invoice.uuid), creditor: await ownCompany(tx, instanceId) };
      });
      if (!creditor) throw invoicingError('own_company_missing', 'own company not found');
      const pdf = await renderCreditNotePdf(note, invoice, creditor, request.body.lang as PdfLang);
      return reply.header('content-type', 'application/pdf').header('content-disposition', `attachment; filename="${note.number}.pdf"`).send(pdf);
    },
  );
};
