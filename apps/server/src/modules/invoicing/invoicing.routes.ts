/**
 * /api/invoice/* (spec §7.1 "Invoice", §2.2, issue #4 §3–4) and the public share endpoints
 * /api/public/invoice*. Shapes: docs/api.md "Invoices".
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { InvoiceStatus, formatReferenceNumber, invoiceItemSchema, normalizeInvoiceItem, type InvoiceItemWire, invoiceSchema, strictObject, zAmount, zDate, zId, zUuid } from '@bilan/domain';
import type { TransactionOptions } from '../../db/database.js';
import { auth } from '../../http/access.js';
import { errors, errorSchema, errorsWithConflict, errorsWithNotFound, okSchema, pageAnswerFields, pageFields, pageQueryFields } from '../../http/schemas.js';
import { linkNext } from '../../http/next-link.js';
import { fieldsUnder } from '../../http/errors.js';
import { invoicingError } from './invoicing.errors.js';
import { renderInvoicePdf, type PdfLang } from './invoicing.pdf.js';
import {
  addItem,
  changeItem,
  changeStatus,
  deleteInvoice,
  getInvoice,
  importInvoices,
  insertInvoice,
  listDebtors,
  listInvoicePage,
  formOptions,
  invoiceOfEntry,
  ownCompany,
  removeItem,
  resolveShare,
  revokeShare,
  shareInvoice,
  updateInvoice,
  getInvoiceWithPayments,
  recordInvoicePayment,
  reverseInvoicePayment,
  listInvoicePageWithPayments,
  type Invoice,
} from './invoicing.service.js';
import { BULK_BODY_LIMIT } from '../../http/body-limits.js';


const tags = ['invoice'];
const money = z.string();

const totalsSchema = z.object({
  net: money,
  vatRate: z.string(),
  vat: money,
  vatLines: z.array(z.object({ rate: z.string(), base: money, vat: money })),
  gross: money,
  rounding: money,
  total: money,
});
/** An invoice body with its items in the working form (spec §3 item names accepted on the wire). */
function withWorkingItems<T extends { items?: InvoiceItemWire[] | undefined }>(data: T) {
  return { ...data, items: data.items?.map((item) => normalizeInvoiceItem(item)) };
}

/** An item as answered: the working form and spec §3's names (label, quantity, rate) of the same values. */
const itemAnswer = z.object({
  id: z.number().int(),
  name: z.string(),
  amount: z.string(),
  price: z.string(),
  label: z.string(),
  quantity: z.string(),
  rate: z.string(),
  discount: z.string().nullable(),
  discountAbs: z.string().nullable(),
  vat: z.string().nullable(),
  account: z.object({ id: z.number().int(), number: z.string(), name: z.string() }).nullable(),
  currency: z.string(),
  fxRate: z.string(),
  logDateAdded: z.string(),
  total: money,
});
const paymentAnswer = z.object({
  uuid: z.string(),
  date: z.string(),
  amount: money,
  fee: money,
  writeOff: money,
  writeOffKind: z.enum(['discount', 'difference']).nullable(),
  bankAccount: z.object({ id: z.number().int(), number: z.string(), name: z.string() }),
  entryId: z.number().int().nullable(),
  writeOffEntryId: z.number().int().nullable(),
  reversed: z.object({ at: z.string(), date: z.string(), entryId: z.number().int().nullable(), writeOffEntryId: z.number().int().nullable() }).nullable(),
  createdAt: z.string(),
});
const invoiceAnswer = z.object({
  uuid: z.string(),
  id: z.number().int(),
  refNumber: z.string(),
  refNumberInt: z.number().int(),
  paymentReference: z.string(),
  status: z.number().int(),
  statusName: z.string(),
  company: z.object({ uuid: z.string(), name: z.string() }),
  address: z.object({
    id: z.number().int(),
    street: z.string(),
    houseNumber: z.string().nullable(),
    zip: z.string(),
    city: z.string(),
    country: z.object({ id: z.number().int() }),
  }),
  paymentProfile: z.object({ id: z.number().int(), type: z.number().int(), iban: z.string().nullable(), account: z.object({ id: z.number().int() }).nullable() }),
  vat: z.string(),
  currency: z.string(),
  fxRate: z.string(),
  baseCurrency: z.string(),
  totalBase: money,
  dateInvoice: z.string(),
  dateDue: z.string(),
  paymentTermDays: z.number().int(),
  description: z.string(),
  bankRef: z.string().nullable(),
  ledgerDate: z.string().nullable(),
  items: z.array(itemAnswer),
  totals: totalsSchema,
  entries: z.array(z.object({ id: z.number().int(), kind: z.enum(['sent', 'paid', 'denied']) })),
  shared: z.boolean(),
  openAmount: money.optional().describe('total less payments, fees and write-offs not reversed (invoice currency); detail and list-w-amounts'),
  payments: z.array(paymentAnswer).optional().describe('payments, the reversed ones with `reversed` (detail and list-w-amounts)'),
  payToken: z.string().optional().describe('one-time confirmation token for /invoice/payment/insert (detail only)'),
  creditNotes: z
    .array(z.object({ uuid: z.string(), number: z.string(), date: z.string(), total: money, entryId: z.number().int().nullable() }))
    .optional()
    .describe('credit notes of the invoice (decision 027), oldest first (detail and list-w-amounts)'),
  creditToken: z.string().optional().describe('one-time confirmation token for /invoice/credit-note/insert (detail only)'),
});
const listAnswer = z.object({ data: z.array(invoiceAnswer), ...pageAnswerFields });
/** list-w-amounts: `items` is left out with `withItems: false` (decision 042). */
const listWithAmountsAnswer = z.object({
  data: z.array(invoiceAnswer.extend({ items: invoiceAnswer.shape.items.optional().describe('the lines; left out with `withItems: false`') })),
  ...pageAnswerFields,
});

/** Invoice key: the uuid or the numeric id. */
const invoiceKey = z.union([zUuid, zId]);
const statusId = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)], { error: 'status must be 1 (pending), 2 (sent), 3 (paid) or 4 (denied)' });

const filters = strictObject({
  status: statusId.optional(),
  company: strictObject({ uuid: zUuid }).optional(),
  dateFrom: zDate.optional(),
  dateTo: zDate.optional(),
  text: z.string().max(200).optional(),
});

const langSchema = z.enum(['en', 'de', 'fr', 'it']).default('en');

function pdfFileName(invoice: Invoice, onlyReceipt: boolean) {
  return `${formatReferenceNumber(invoice.id)}${onlyReceipt ? '-qr-bill' : ''}.pdf`;
}

/** Invoices: list, CRUD, items, status change, debtors, import, PDF, share links. */
export const invoicingRoutes: FastifyPluginAsyncZod = async (app) => {
  const withTx = <T>(instanceId: string, fn: Parameters<typeof app.db.withInstance<T>>[1], options?: TransactionOptions) =>
    app.db.withInstance(instanceId, fn, options);

  app.get(
    '/invoice/list',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          'Invoices, newest first, with items and totals, a page at a time (pageSize ≤ 500, default 50): the next page by `cursor` = ' +
          'the answer\'s `nextCursor`, also given as `Link: <…>; rel="next"`.',
        querystring: strictObject(pageQueryFields),
        response: { 200: listAnswer, ...errors },
      },
    },
    async (request, reply) => {
      const { instanceId } = auth(request);
      // A statement without optional parameters: planned once per connection (TransactionOptions).
      const page = await withTx(instanceId, (tx) => listInvoicePage(tx, instanceId, {}, request.query), { genericPlans: true });
      linkNext(request, reply, page.nextCursor);
      return page;
    },
  );

  app.get(
    '/invoice/form-options',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          'For the invoice form: own active IBAN/QR bill payment profiles, VAT rates (fractions), the books\' currency and the invoice ' +
          'currencies, revenue ledger accounts and the default revenue account per rate. No customers: the form searches them with ' +
          '`company/list` (`text`), and the chosen one\'s addresses come from `address/list` with `filters.company`.',
        response: {
          200: z.object({
            paymentProfiles: z.array(z.object({ id: z.number().int(), type: z.number().int(), iban: z.string(), qrIban: z.boolean(), account: z.object({ id: z.number().int() }).nullable() })),
            vatRate: z.string().nullable(),
            vatRates: z.array(z.string()),
            currency: z.string(),
            currencies: z.array(z.string()),
            revenueAccounts: z.array(z.object({ id: z.number().int(), number: z.string(), name: z.string() })),
            defaultRevenue: z.array(z.object({ rate: z.string(), number: z.string(), name: z.string() })),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return withTx(instanceId, (tx) => formOptions(tx, instanceId));
    },
  );

  app.post(
    '/invoice/by-entry',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: 'The invoice a journal entry belongs to (sent, paid or denied posting); 404 when none.',
        body: strictObject({ id: zId }),
        response: { 200: z.object({ uuid: z.string(), refNumber: z.string() }), ...errorsWithNotFound },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return withTx(instanceId, (tx) => invoiceOfEntry(tx, instanceId, request.body.id));
    },
  );

  app.post(
    '/invoice/list-w-amounts',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          'Invoices with totals matching `filters` {status, company{uuid}, dateFrom, dateTo (invoice date, inclusive), text (customer, ' +
          'description, BILAN number or payment reference)}. "Open invoices" = status 2 (sent). Paged: page (1-based) or `cursor` (the ' +
          'previous answer\'s `nextCursor`), pageSize ≤ 500; `total` counted up to 10,000. `withItems` (default true): false leaves ' +
          'each invoice\'s `items` (its lines) out, for a list screen: a third of the answer and less work (decision 042).',
        body: strictObject({
          filters: filters.optional(),
          ...pageFields,
          withItems: z.boolean({ error: 'withItems must be true or false' }).optional(),
        }),
        response: { 200: listWithAmountsAnswer, ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const { filters: f = {}, page, pageSize, cursor, withItems = true } = request.body;
      const text = f.text?.trim() || undefined;
      // Each filter given is a condition in the statement's text, so one plan serves any values:
      // planned once per connection instead of each call (TransactionOptions; docs/performance.md,
      // "Generic plans for the invoice lists"). A text search plans for its words (textFilter).
      return withTx(
        instanceId,
        (tx) =>
          listInvoicePageWithPayments(
            tx,
            instanceId,
            { status: f.status, companyUuid: f.company?.uuid, dateFrom: f.dateFrom, dateTo: f.dateTo, text },
            { page, pageSize, cursor },
            withItems,
          ),
        { genericPlans: text === undefined },
      );
    },
  );

  app.post(
    '/invoice/insert',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          'Creates a pending invoice. `data.vat` is a fraction (instance rate or 0.081/0.026/0.038/0; default the instance rate); a line ' +
          'may carry its own `vat` and revenue `account`. `currency` CHF or EUR; an invoice in the other currency than the books needs ' +
          '`fxRate` > 0 (books per 1 unit). `dateDue` defaults to dateInvoice + 30 days. The payment profile must be an active IBAN or ' +
          'QR bill profile of the own company; its QR-IBAN gives a QR reference, an IBAN an RF reference. 400 names every bad field.',
        body: strictObject({ data: invoiceSchema }),
        response: { 200: invoiceAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      return fieldsUnder('data', () => withTx(instanceId, (tx) => insertInvoice(tx, instanceId, userId, withWorkingItems(request.body.data))));
    },
  );

  app.post(
    '/invoice/detail',
    {
      config: { access: 'read' },
      schema: { tags, description: 'One invoice by uuid or id; 404 unknown.', body: strictObject({ id: invoiceKey }), response: { 200: invoiceAnswer, ...errorsWithNotFound } },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return withTx(instanceId, async (tx) => {
        const invoice = await getInvoiceWithPayments(tx, instanceId, (await getInvoice(tx, instanceId, request.body.id)).uuid);
        // The one-time confirmation token of the next payment (payables payTokenOf: the same rule).
        return { ...invoice, payToken: `pay-${invoice.payments.length + 1}`, creditToken: `credit-${invoice.creditNotes.length + 1}` };
      });
    },
  );

  app.post(
    '/invoice/payment/insert',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          'Records a payment of a sent invoice (issue 14 §3, decision 021): debit the bank account `amount` and 6940 `fee` / credit ' +
          'receivable 1100; with `writeOff` the rest of the open amount is written off in a second entry, as `discount` (3800 Skonti ' +
          'with the VAT reduction per rate, code R81/R26/R38 → Ziffer 235) or `difference` (6943), only within the payment tolerance ' +
          '(GET /api/accounting/settings/payment-tolerance). Paid (3) once nothing is open, else it stays sent with `openAmount`. ' +
          'Defaults: amount the open amount less fee, date today, bank account the payment profile\'s. An invoice in another currency ' +
          'may be paid in parts (`amount` in its currency; `amountBase` what reached a bank account in the books\' currency, the exchange ' +
          'difference on 6942/6952; the last part clears the receivable to the cent), without fee or write-off. `token` (the detail\'s `payToken`): the same token answers the same invoice and books ' +
          'nothing. 400 `amount` above the open amount (no overpayment is booked) or beyond the tolerance, `fee`, `date`, ' +
          '`bankAccount.id`; 404; 409 not sent, already paid, lock date.',
        body: strictObject({
          uuid: zUuid,
          amount: zAmount(2).nullish(),
          date: zDate.nullish(),
          bankAccount: strictObject({ id: zId }).nullish(),
          fee: zAmount(2).nullish(),
          writeOff: z.enum(['discount', 'difference'], { error: 'writeOff must be discount or difference' }).nullish(),
          token: z.string().min(1).max(200).nullish(),
          amountBase: zAmount(2).nullish(),
          bankRef: z.string().max(200).nullish(),
        }),
        response: { 200: invoiceAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      const body = request.body;
      return withTx(instanceId, async (tx) => {
        const { invoice } = await recordInvoicePayment(tx, instanceId, userId, body.uuid, {
          amount: body.amount,
          date: body.date,
          bankAccountId: body.bankAccount?.id,
          fee: body.fee,
          writeOff: body.writeOff,
          token: body.token,
          amountBase: body.amountBase,
          bankRef: body.bankRef,
        });
        return invoice;
      });
    },
  );

  app.post(
    '/invoice/payment/reverse',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          'Reverses one payment (`uuid` of the payment) of an invoice: storno entries of its payment and write-off entries at `date` ' +
          '(default today, on or after the payment: 400 `date`), the payment kept and marked reversed; a paid invoice is sent (open) ' +
          'again. 404 unknown payment; 409 already reversed, lock date.',
        body: strictObject({ uuid: zUuid, date: zDate.nullish() }),
        response: { 200: invoiceAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      return withTx(instanceId, (tx) => reverseInvoicePayment(tx, instanceId, userId, request.body.uuid, request.body.date));
    },
  );

  app.post(
    '/invoice/update',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description: 'Changes a pending invoice (409 once sent). `data.items`, when given, replaces all lines.',
        body: strictObject({ id: invoiceKey, data: invoiceSchema.partial() }),
        response: { 200: invoiceAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return fieldsUnder('data', () => withTx(instanceId, (tx) => updateInvoice(tx, instanceId, request.body.id, withWorkingItems(request.body.data))));
    },
  );

  app.post(
    '/invoice/delete',
    {
      config: { access: 'write' },
      schema: { tags, description: 'Deletes a pending invoice; 409 once sent.', body: strictObject({ uuid: zUuid }), response: { 200: okSchema, ...errorsWithConflict } },
    },
    async (request) => {
      const { instanceId } = auth(request);
      await withTx(instanceId, (tx) => deleteInvoice(tx, instanceId, request.body.uuid));
      return { ok: true as const };
    },
  );

  app.post(
    '/invoice/item/insert',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description: 'Adds a line to a pending invoice; answers the invoice.',
        body: strictObject({ data: invoiceItemSchema.extend({ invoice: strictObject({ uuid: zUuid }) }) }),
        response: { 200: invoiceAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const { invoice, ...item } = request.body.data;
      return fieldsUnder('data', () => withTx(instanceId, (tx) => addItem(tx, instanceId, invoice.uuid, normalizeInvoiceItem(item))));
    },
  );

  app.post(
    '/invoice/item/update',
    {
      config: { access: 'write' },
      schema: { tags, description: 'Replaces a line of a pending invoice.', body: strictObject({ id: zId, data: invoiceItemSchema }), response: { 200: invoiceAnswer, ...errorsWithConflict } },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return fieldsUnder('data', () => withTx(instanceId, (tx) => changeItem(tx, instanceId, request.body.id, normalizeInvoiceItem(request.body.data))));
    },
  );

  app.post(
    '/invoice/item/delete',
    {
      config: { access: 'write' },
      schema: { tags, description: 'Removes a line of a pending invoice.', body: strictObject({ id: zId }), response: { 200: invoiceAnswer, ...errorsWithConflict } },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return withTx(instanceId, (tx) => removeItem(tx, instanceId, request.body.id));
    },
  );

  app.post(
    '/invoice/status/change',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          'pending(1) → sent(2) posts debit receivable 1100 / credit revenue per line account (default by VAT rate: 3200 8.1 %, 3201 ' +
          '2.6 %, 3202 3.8 %, 3203 0 %) / credit VAT per rate (2200, 2201, 2202); an EUR invoice posts amount × fxRate with ' +
          'originalAmount and exchangeRate. sent → paid(3) posts debit the payment profile ledger account / credit receivable; sent → ' +
          'denied(4) reverses the sent posting; both dated on or after the sent date (400 `ledgerDate`). Others: 409. `ledgerDate` ' +
          'defaults to today; 409 on or before the lock date.',
        body: strictObject({
          uuid: zUuid,
          status: statusId,
          bankRef: z.string().max(200).nullable().optional(),
          ledgerDate: zDate.optional(),
          amountBase: zAmount(2)
            .nullish()
            .describe(
              "sent → paid only: what reached the bank in the books' currency, 2 decimals. For an invoice in another currency the " +
                'difference to total × fxRate is booked as realized exchange difference (loss debit 6942, gain credit 6952); for an ' +
                "invoice in the books' currency it must equal the total. Default: total × fxRate.",
            ),
        }),
        response: { 200: invoiceAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      const body = request.body;
      return fieldsUnder('', () =>
        withTx(instanceId, (tx) => changeStatus(tx, instanceId, userId, { uuid: body.uuid, status: body.status, bankRef: body.bankRef, ledgerDate: body.ledgerDate, amountBase: body.amountBase })),
      ).catch((error: unknown) => {
        // fieldsUnder('') prefixes '.', strip it back.
        if (error && typeof error === 'object' && 'fields' in error && error.fields) {
          const e = error as { fields: Record<string, string> };
          e.fields = Object.fromEntries(Object.entries(e.fields).map(([k, v]) => [k.replace(/^\./, ''), v]));
        }
        throw error;
      });
    },
  );

  app.post(
    '/invoice/debtors',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          'Open receivables (status sent) per customer at `date` (default today), in the books\' currency, aged by days overdue ' +
          'counted from the due date: notDue, d0_30, d31_60, d61_90, d90plus; `documents` are the open invoices of the row.',
        body: strictObject({ date: zDate.optional() }).optional(),
        response: {
          200: z.object({
            date: z.string(),
            data: z.array(
              z.object({
                company: z.object({ uuid: z.string(), name: z.string() }),
                invoices: z.number().int(),
                buckets: z.object({ notDue: money, d0_30: money, d31_60: money, d61_90: money, d90plus: money }),
                total: money,
                documents: z.array(
                  z.object({
                    uuid: z.string(),
                    refNumber: z.string(),
                    dateInvoice: z.string(),
                    dateDue: z.string(),
                    daysOverdue: z.number().int(),
                    currency: z.string(),
                    total: money,
                    totalBase: money,
                    openAmount: money,
                    openAmountBase: money,
                    creditNotes: z.array(z.object({ uuid: z.string(), number: z.string(), date: z.string(), total: money, entryId: z.number().int().nullable() })),
                  }),
                ),
              }),
            ),
            currency: z.string(),
            totals: z.object({ notDue: money, d0_30: money, d31_60: money, d61_90: money, d90plus: money, total: money }),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return withTx(instanceId, (tx) => listDebtors(tx, instanceId, request.body?.date));
    },
  );

  app.post(
    '/invoice/import',
    {
      config: { access: 'write' },
      bodyLimit: BULK_BODY_LIMIT,
      schema: {
        tags,
        description:
          'Imports invoices from rows (one per line; rows with the same `invoice` key form one invoice), all or nothing. A row: ' +
          '{invoice, company (name, UID or uuid) | companyUuid, addressId?, paymentProfileId?, dateInvoice, dateDue?, vat?, currency?, ' +
          'fxRate?, description?, name, amount, price, discount?, discountAbs?, account? (revenue account number)}; every field of every ' +
          'row is validated (packages/domain invoiceImportRowSchema). Errors: 400 with `rows: [{row (1-based), field, message}]` ' +
          'naming every problem, and nothing written.',
        // Rows are validated one by one in the service, so every problem is reported against its row.
        body: strictObject({ data: z.array(z.record(z.string(), z.unknown())).min(1, 'array expected').max(10_000) }),
        response: {
          200: z.object({ created: z.number().int(), invoices: z.array(z.object({ uuid: z.string(), id: z.number().int(), total: money })) }),
          ...errors,
          400: errorSchema.extend({
            rows: z.array(z.object({ row: z.number().int(), field: z.string(), message: z.string() })).optional(),
          }),
        },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      const { created } = await withTx(instanceId, (tx) => importInvoices(tx, instanceId, userId, request.body.data));
      return { created: created.length, invoices: created.map((i) => ({ uuid: i.uuid, id: i.id, total: i.totals.total })) };
    },
  );

  app.post(
    '/invoice/pdf',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: 'The invoice PDF (A4 with QR-bill) or, with onlyReceipt, the QR-bill payment part alone. lang en|de|fr|it. Binary application/pdf.',
        body: strictObject({ lang: langSchema, uuid: zUuid, onlyReceipt: z.boolean().default(false) }),
      },
    },
    async (request, reply) => {
      const { instanceId } = auth(request);
      const { lang, uuid, onlyReceipt } = request.body;
      const { invoice, creditor } = await withTx(instanceId, async (tx) => ({ invoice: await getInvoice(tx, instanceId, uuid), creditor: await ownCompany(tx, instanceId) }));
      if (!creditor) throw invoicingError('own_company_missing', 'own company not found');
      const pdf = await renderInvoicePdf(invoice, creditor, lang as PdfLang, onlyReceipt);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${pdfFileName(invoice, onlyReceipt)}"`)
        .send(pdf);
    },
  );

  app.post(
    '/invoice/share',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description: 'Creates a public share link token (base64url of {uuid, key}; earlier keys of the invoice are revoked).',
        body: strictObject({ uuid: zUuid }),
        response: { 200: z.object({ token: z.string() }), ...errorsWithNotFound },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return withTx(instanceId, (tx) => shareInvoice(tx, instanceId, request.body.uuid));
    },
  );

  app.post(
    '/invoice/share/revoke',
    {
      config: { access: 'write' },
      schema: { tags, description: 'Revokes the share link of an invoice.', body: strictObject({ uuid: zUuid }), response: { 200: okSchema, ...errorsWithNotFound } },
    },
    async (request) => {
      const { instanceId } = auth(request);
      await withTx(instanceId, (tx) => revokeShare(tx, instanceId, request.body.uuid));
      return { ok: true as const };
    },
  );

  const publicInvoice = z.object({
    refNumber: z.string(),
    status: z.number().int(),
    dateInvoice: z.string(),
    dateDue: z.string().nullable(),
    description: z.string(),
    currency: z.string(),
    vat: z.string(),
    paymentReference: z.string(),
    creditor: z.object({ name: z.string() }),
    debtor: z.object({ name: z.string() }),
    items: z.array(z.object({ name: z.string(), amount: z.string(), price: z.string(), discount: z.string().nullable(), discountAbs: z.string().nullable(), total: money })),
    totals: totalsSchema,
  });

  async function sharedInvoice(token: string) {
    const share = await app.db.withAuth((tx) => resolveShare(tx, token));
    if (!share) throw invoicingError('share_not_found', 'shared invoice not found');
    return app.db.withInstance(share.instanceId, async (tx) => ({
      invoice: await getInvoice(tx, share.instanceId, share.uuid),
      creditor: await ownCompany(tx, share.instanceId),
    }));
  }

  app.get(
    '/public/invoice',
    {
      config: { access: 'public' },
      schema: {
        tags,
        description: 'The invoice of a share token, without sign-in: only what the invoice itself shows. 404 for an unknown or revoked token.',
        querystring: strictObject({ token: z.string().min(1).max(500) }),
        response: { 200: publicInvoice, 404: errorSchema },
      },
    },
    async (request) => {
      const { invoice, creditor } = await sharedInvoice(request.query.token);
      return {
        refNumber: invoice.refNumber,
        status: invoice.status,
        dateInvoice: invoice.dateInvoice,
        dateDue: invoice.dateDue,
        description: invoice.description,
        currency: invoice.currency,
        vat: invoice.vat,
        paymentReference: invoice.paymentReference,
        creditor: { name: creditor?.name ?? '' },
        debtor: { name: invoice.company.name },
        items: invoice.items.map(({ name, amount, price, discount, discountAbs, total }) => ({ name, amount, price, discount, discountAbs, total })),
        totals: invoice.totals,
      };
    },
  );

  app.get(
    '/public/invoice/pdf',
    {
      config: { access: 'public' },
      schema: { tags, description: 'The PDF of a share token (inline).', querystring: strictObject({ token: z.string().min(1).max(500), lang: langSchema }) },
    },
    async (request, reply) => {
      const { invoice, creditor } = await sharedInvoice(request.query.token);
      if (!creditor) throw invoicingError('share_not_found', 'shared invoice not found');
      const pdf = await renderInvoicePdf(invoice, creditor, request.query.lang as PdfLang, false);
      return reply.header('content-type', 'application/pdf').header('content-disposition', `inline; filename="${pdfFileName(invoice, false)}"`).send(pdf);
    },
  );
};

export { InvoiceStatus };
