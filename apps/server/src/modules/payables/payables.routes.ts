/** /api/payable/* (spec §2.2 /bill/*, §3 Payable, §7.1 Payables; shapes in docs/api.md "Payables"). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  companyInsertSchema,
  isValidIban,
  payableDataSchema,
  payableEmployeeSchema,
  strictObject,
  validationMessages,
  zAmount,
  zDate,
  zId,
  zUuid,
  type PayableDataOutput,
  type PayableStatusId,
} from '@bilan/domain';
import { auth } from '../../http/access.js';
import { payableError } from './payables.errors.js';
import { fieldsUnder } from '../../http/errors.js';
import { errors, errorsWithConflict, errorsWithNotFound, okSchema, pageAnswerFields, pageFields, pageQueryFields } from '../../http/schemas.js';
import { linkNext } from '../../http/next-link.js';
import { DEFAULT_PAGE_SIZE } from '../../db/paging.js';
import {
  changePayableStatus,
  deletePayable,
  getPayable,
  insertPayable,
  listPayables,
  updatePayable,
  type PayableAnswer,
  type PayableInput,
} from './payables.service.js';
import { streamOutflowsCsv } from './outflows.js';
import { listCreditors, listEmployees } from './creditors.js';
import { attachFileToPayable } from './inbox.service.js';
import { matchOrCreateSupplier, type SupplierMatch } from './supplier-match.service.js';
import { payableHistory } from './payable-history.service.js';
import { payTokenOf, paymentsOfPayables, recordPayablePayment, reversePayablePayment } from './payments.service.js';
import { fileAnswer } from './inbox.schemas.js';

const tags = ['payables'];

export const LIFECYCLE =
  'Status (PayableStatus): pending 1 (draft: editable, deletable) → approved 2 (booked at the bill date: debit the expense ' +
  'account (net) and input VAT (vatAmount) on 1170 for a class-4 expense account (material, services) or 1171 for investments ' +
  '(class 1) and other operating expenses (classes 5–8), credit (gross) payables 2000 for a bill or the staff account 2250 for an ' +
  'expense (BillType 1), in the instance currency) → in a transaction group 3 → paid 4 (payment booked when the group is paid or ' +
  'a statement pays it: debit the same liability / credit the bank account). approved → paid 4 also through /payable/pay (direct ' +
  'debit, card, cash, staff expense; no IBAN needed). pending or approved → cancelled 5 (an approved bill gets a reversing entry); ' +
  'approved → pending reverses the booking. Postings respect the lock date (409, nothing changes).';

/** `data` of a bill: the domain's schema, the one the web's bill form validates with (STYLE.md #3). */
type PayableData = PayableDataOutput;

/**
 * The supplier named by a QR-bill, matched or created with the bill (`/payable/insert`): the
 * company form's rules for name, UID and address, plus the IBAN or QR-IBAN to pay to.
 */
const supplierData = companyInsertSchema.extend({
  iban: z
    .string({ error: validationMessages.ibanMustNotBeEmpty })
    .trim()
    .min(1, { error: validationMessages.ibanMustNotBeEmpty })
    .refine(isValidIban, { error: validationMessages.ibanWronglyFormatted }),
});

/** How `supplier` (QR-bill) or `employee` (staff expense) was matched or created with the document. */
const partyMatch = z.object({
  company: z.object({ uuid: z.string(), name: z.string() }),
  paymentProfile: z.object({ id: z.number().int(), iban: z.string(), type: z.number().int() }),
  matchedBy: z.enum(['iban', 'uid', 'name', 'created']),
  profileCreated: z.boolean(),
});

/**
 * A staff expense's `employee { name, iban }` instead of `data.company`/`data.companyFinance`
 * (issue 16 §4): the person is matched as the QR-bill's supplier is — an active IBAN profile with
 * this IBAN, else a company of that name (a new IBAN profile on the staff account 2250), else created
 * with that profile — in the document's transaction. 400 `employee` for a supplier bill (type 0) or
 * beside `data.company`/`data.companyFinance`.
 */
async function withEmployee(
  tx: Parameters<typeof matchOrCreateSupplier>[0],
  instanceId: string,
  input: PayableInput,
  employee: z.output<typeof payableEmployeeSchema> | undefined,
  data: { company?: unknown; companyFinance?: unknown },
): Promise<SupplierMatch | undefined> {
  if (!employee) return undefined;
  const fields: Record<string, string> = {};
  if (input.type !== 1) fields.employee = 'an employee is named for staff expenses (type 1) only; a supplier bill names its supplier';
  if (data.company) fields['data.company.uuid'] = 'give either data.company or employee';
  if (data.companyFinance) fields['data.companyFinance.id'] = 'give either data.companyFinance or employee';
  const [first] = Object.entries(fields);
  if (first) throw payableError('invalid_payable', `${first[0]}: ${first[1]}`, fields);
  const match = await fieldsUnder('employee', () => matchOrCreateSupplier(tx, instanceId, employee, 'expenses'));
  input.companyUuid = match.company.uuid;
  input.paymentProfileId = match.paymentProfile.id;
  return match;
}

const statusId = z.union([1, 2, 3, 4, 5].map((n) => z.literal(n)) as [z.ZodLiteral<1>, ...z.ZodLiteral<number>[]]);

/** A bill as every payables route answers it; transaction groups list their bills in it too. */
const paymentAnswer = z.object({
  uuid: z.string(),
  date: z.string(),
  amount: z.string().describe('what left the bank for the bill'),
  fee: z.string().describe('what the bank charged on top (6940)'),
  writeOff: z.string(),
  writeOffKind: z.enum(['discount', 'difference']).nullable(),
  bankAccount: z.object({ id: z.number().int(), number: z.string(), name: z.string() }),
  entryId: z.number().int().nullable(),
  writeOffEntryId: z.number().int().nullable(),
  reversed: z.object({ at: z.string(), date: z.string(), entryId: z.number().int().nullable(), writeOffEntryId: z.number().int().nullable() }).nullable(),
  createdAt: z.string(),
});

export const payableAnswer = z.object({
  id: z.number().int(),
  uuid: z.string(),
  type: z.number().int(),
  isExpense: z.boolean(),
  date: z.string(),
  dueDate: z.string().nullable(),
  amount: z.string(),
  vatAmount: z.string(),
  vatRate: z.string().nullable().describe('fraction, e.g. 0.081; null when only the VAT amount was entered'),
  currency: z.string(),
  exchangeRate: z.string(),
  company: z.object({ uuid: z.string(), name: z.string() }).nullable(),
  companyFinance: z.object({ id: z.number().int(), iban: z.string().nullable(), bic: z.string().nullable(), type: z.number().int() }).nullable(),
  expenseAccount: z.object({ id: z.number().int(), number: z.string(), name: z.string() }).nullable(),
  referenceNumber: z.string().nullable(),
  message: z.string().nullable(),
  description: z.string(),
  status: z.number().int(),
  statusName: z.string(),
  transactionGroup: z.object({ id: z.number().int(), status: z.number().int() }).nullable(),
  executionDate: z.string().nullable().describe('requested execution date while in a transaction group'),
  bankTxStatus: z.string().nullable(),
  bankReason: z.string().nullable(),
  bookingEntry: z.object({ id: z.number().int() }).nullable(),
  paymentEntry: z.object({ id: z.number().int() }).nullable(),
  liabilityAccount: z.object({ id: z.number().int(), number: z.string() }).nullable().describe('the account the booking credited (2000, or 2250 for expenses)'),
  openAmount: z.string().describe("amount less payments and write-offs not reversed, in the bill's currency; 0.00 when paid or cancelled"),
  payments: z.array(paymentAnswer).optional().describe('payments, the reversed ones with `reversed` (detail only)'),
  payToken: z.string().optional().describe('one-time confirmation token for /payable/pay (detail only)'),
});

export const filtersSchema = strictObject({
  status: z.union([statusId, z.array(statusId)]).optional(),
  filterStatus: z.boolean().optional().describe('true: open bills only (pending, approved, in a group)'),
  company: strictObject({ uuid: zUuid }).optional(),
  dateFrom: zDate.optional(),
  dateTo: zDate.optional(),
  isExpense: z.boolean().optional(),
  transactionGroup: strictObject({ id: zId }).optional(),
  text: z.string().max(200).optional(),
});

function toInput(data: PayableData): PayableInput {
  return {
    type: data.type ?? (data.isExpense ? 1 : 0),
    companyUuid: data.company?.uuid ?? null,
    paymentProfileId: data.companyFinance?.id ?? null,
    date: data.date,
    dueDate: data.dueDate ?? null,
    amount: data.amount,
    vatAmount: data.vatAmount ?? null,
    vatRate: data.vatRate ?? null,
    currency: data.currency ?? null,
    exchangeRate: data.exchangeRate ?? null,
    expenseAccountId: data.expenseAccount?.id ?? null,
    referenceNumber: data.referenceNumber ?? null,
    message: data.message ?? null,
    description: data.description ?? '',
  };
}

/** The current bill as update input, so an update may send only the fields it changes. */
function fromAnswer(bill: PayableAnswer): PayableData {
  return {
    type: bill.type as 0 | 1,
    company: bill.company ? { uuid: bill.company.uuid } : null,
    companyFinance: bill.companyFinance ? { id: bill.companyFinance.id } : null,
    date: bill.date,
    dueDate: bill.dueDate,
    amount: bill.amount,
    vatAmount: bill.vatAmount,
    vatRate: bill.vatRate as PayableData['vatRate'],
    currency: bill.currency as PayableData['currency'],
    exchangeRate: bill.exchangeRate,
    expenseAccount: bill.expenseAccount ? { id: bill.expenseAccount.id } : null,
    referenceNumber: bill.referenceNumber,
    message: bill.message,
    description: bill.description,
  };
}

export const payableRoutes: FastifyPluginAsyncZod = async (app) => {
  const listSchema = {
    tags,
    description:
      `Bills and expenses, newest first. ${LIFECYCLE} With \`Accept: text/csv\` (or \`?format=csv\` on GET) the answer is the ` +
      'outflows report ExportOutflows.csv, streamed: id, date, amount, company name or -, isExpense, status name, transaction-group status name or -.',
    response: { 200: z.object({ data: z.array(payableAnswer), ...pageAnswerFields }), ...errors },
  };

  app.get(
    '/payable/list',
    {
      config: { access: 'read' },
      schema: {
        ...listSchema,
        description: `${listSchema.description} As JSON a page at a time (pageSize ≤ 500, default 50): the next page by \`cursor\` = the answer's \`nextCursor\`, also given as \`Link: <…>; rel="next"\`; the CSV holds every bill.`,
        querystring: strictObject({ format: z.enum(['json', 'csv']).optional(), ...pageQueryFields }),
      },
    },
    async (request, reply) => {
      const { instanceId } = auth(request);
      if (request.query.format === 'csv' || request.headers.accept?.includes('text/csv')) {
        return streamOutflowsCsv(app.db, instanceId, reply);
      }
      const { page, pageSize, cursor } = request.query;
      const answer = await app.db.withInstance(instanceId, (tx) => listPayables(tx, instanceId, {}, { page, pageSize, cursor }));
      linkNext(request, reply, answer.nextCursor);
      return answer;
    },
  );

  app.post(
    '/payable/list',
    {
      config: { access: 'read' },
      schema: { ...listSchema, body: strictObject({ filters: filtersSchema.optional(), ...pageFields }).optional() },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const filters = request.body?.filters ?? {};
      return app.db.withInstance(instanceId, (tx) =>
        listPayables(
          tx,
          instanceId,
          {
            status: filters.status,
            filterStatus: filters.filterStatus,
            companyUuid: filters.company?.uuid,
            dateFrom: filters.dateFrom,
            dateTo: filters.dateTo,
            isExpense: filters.isExpense,
            transactionGroupId: filters.transactionGroup?.id,
            text: filters.text,
          },
          { page: request.body?.page ?? 1, pageSize: request.body?.pageSize ?? DEFAULT_PAGE_SIZE, cursor: request.body?.cursor },
        ),
      );
    },
  );

  app.post(
    '/payable/detail',
    {
      config: { access: 'read' },
      schema: { tags, description: 'One bill by numeric `id` (or `uuid`); 404 unknown or of another instance.', body: z.union([strictObject({ id: zId }), strictObject({ uuid: zUuid })]), response: { 200: payableAnswer, ...errorsWithNotFound } },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, async (tx) => {
        const bill = await getPayable(tx, instanceId, request.body);
        const payments = (await paymentsOfPayables(tx, instanceId, [bill.id])).get(bill.id) ?? [];
        return { ...bill, payments, payToken: payTokenOf(payments.length) };
      });
    },
  );

  app.post(
    '/payable/history',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          "A bill's history for its detail page: `events` every status it had (oldest first, with the group and entries linked at " +
          'that moment), `entries` the journal entries that booked it, paid it or reversed either (`role` booking | payment | ' +
          'reversal, `reverses { id }`), `files` its vouchers. 404 unknown or of another instance.',
        body: strictObject({ uuid: zUuid }),
        response: {
          200: z.object({
            events: z.array(
              z.object({
                at: z.string(),
                fromStatus: z.number().int().nullable(),
                status: z.number().int(),
                statusName: z.string(),
                transactionGroup: z.object({ id: z.number().int() }).nullable(),
                bookingEntry: z.object({ id: z.number().int() }).nullable(),
                paymentEntry: z.object({ id: z.number().int() }).nullable(),
              }),
            ),
            entries: z.array(
              z.object({
                id: z.number().int(),
                dateLedger: z.string(),
                description: z.string(),
                source: z.string(),
                role: z.enum(['booking', 'payment', 'reversal']),
                reverses: z.object({ id: z.number().int() }).nullable(),
                entryAccounts: z.array(
                  z.object({ account: z.object({ id: z.number().int(), number: z.string(), name: z.string() }), amount: z.string(), direction: z.number().int() }),
                ),
              }),
            ),
            files: z.array(fileAnswer),
          }),
          ...errorsWithNotFound,
        },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => payableHistory(tx, instanceId, request.body.uuid));
    },
  );

  app.post(
    '/payable/insert',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          `Creates a pending bill or expense. ${LIFECYCLE} ` +
          'Confirming a QR-bill is one call, one transaction: `supplier { name, uid?, address?, iban }` instead of ' +
          '`data.company`/`data.companyFinance` matches the supplier by an active payment profile with that IBAN/QR-IBAN, then ' +
          'by UID, then by name (trimmed, case-insensitive), else creates the company with its address; a missing profile is added ' +
          '(QR bill type for a QR-IBAN, else IBAN, on the payables account). `file { uuid }` makes an inbox file the bill\'s ' +
          'voucher (its pending mail becomes processed; 409 `file.uuid` when the file is another bill\'s voucher). A failure ' +
          'anywhere writes nothing. The answer adds `supplier { company, paymentProfile, matchedBy (iban|uid|name|created), profileCreated }`. ' +
          'A staff expense (type 1, issue 16 §4) is owed to an employee: `data.company` (a person on file) or `employee { name, iban }` ' +
          '(matched the same way, else created with an IBAN profile on the staff account 2250; the answer adds `employee` like ' +
          '`supplier`), and needs `data.description` (what was bought: its journal text reads \'Expense 3 · Anna Muster · Train ' +
          "ticket Bern'; 400 `data.description` when empty). A receipt is `file` as for bills.",
        body: strictObject({
          data: payableDataSchema,
          supplier: supplierData.optional(),
          employee: payableEmployeeSchema.optional().describe('a staff expense\'s new employee (name, IBAN to refund to), matched or created'),
          file: strictObject({ uuid: zUuid }).optional().describe('an inbox file (uploaded with /file/upload) that becomes the voucher or receipt'),
        }),
        response: {
          200: payableAnswer.extend({ supplier: partyMatch.optional(), employee: partyMatch.optional() }),
          ...errorsWithConflict,
        },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const { data, supplier, employee, file } = request.body;
      const input = toInput(data);
      if (supplier) {
        const fields: Record<string, string> = {};
        if (input.type !== 0) fields['data.type'] = 'a supplier is given for supplier bills (type 0) only';
        if (data.company) fields['data.company.uuid'] = 'give either data.company or supplier';
        if (data.companyFinance) fields['data.companyFinance.id'] = 'give either data.companyFinance or supplier';
        const [first] = Object.entries(fields);
        if (first) throw payableError('invalid_payable', `${first[0]}: ${first[1]}`, fields);
      }
      return app.db.withInstance(instanceId, async (tx) => {
        const match = supplier ? await fieldsUnder('supplier', () => matchOrCreateSupplier(tx, instanceId, supplier)) : undefined;
        if (match) {
          input.companyUuid = match.company.uuid;
          input.paymentProfileId = match.paymentProfile.id;
        }
        const staff = await withEmployee(tx, instanceId, input, employee, data);
        const bill = await fieldsUnder('data', () => insertPayable(tx, instanceId, input));
        if (file) await attachFileToPayable(tx, instanceId, file.uuid, bill.id, 'file.uuid');
        return { ...bill, ...(match ? { supplier: match } : {}), ...(staff ? { employee: staff } : {}) };
      });
    },
  );

  app.post(
    '/payable/insert-multiple',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description: 'Creates several pending bills, all or nothing: a bad row answers 400 naming `data.N.field` and nothing is written.',
        body: strictObject({ data: z.array(payableDataSchema).min(1).max(1000) }),
        response: { 200: z.object({ data: z.array(payableAnswer) }), ...errorsWithNotFound },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, async (tx) => {
        const data = [];
        for (const [index, row] of request.body.data.entries()) {
          data.push(await fieldsUnder(`data.${index}`, () => insertPayable(tx, instanceId, toInput(row))));
        }
        return { data };
      });
    },
  );

  app.post(
    '/payable/update',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          `Changes a bill. Fields other than \`status\` only while pending (409 otherwise); given fields replace, others stay. ` +
          '`employee { name, iban }` names a staff expense\'s employee as in /payable/insert (instead of data.company); `file { uuid }` ' +
          'makes an inbox file a voucher (receipt) of the bill in the same transaction (409 `file.uuid` when another bill\'s). ' +
          `\`status\` changes the lifecycle (approve 2, back to pending 1, cancel 5; \`date\` is the reversal date, default today). ${LIFECYCLE}`,
        body: strictObject({
          uuid: zUuid,
          data: payableDataSchema.partial().extend({ status: z.union([z.literal(1), z.literal(2), z.literal(5)]).optional(), statusDate: zDate.optional() }),
          employee: payableEmployeeSchema.optional(),
          file: strictObject({ uuid: zUuid }).optional(),
        }),
        response: { 200: payableAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      const { uuid, data, employee, file } = request.body;
      const { status, statusDate, ...fields } = data;
      return app.db.withInstance(instanceId, async (tx) => {
        let bill = await fieldsUnder('data', () => getPayable(tx, instanceId, { uuid }, true));
        if (Object.keys(fields).length || employee) {
          const merged = { ...fromAnswer(bill), ...fields } as PayableData;
          // A bill with a VAT rate gets its VAT derived again when its amount or rate changes.
          if ((fields.amount !== undefined || fields.vatRate !== undefined) && fields.vatAmount === undefined && merged.vatRate) delete merged.vatAmount;
          if (fields.isExpense !== undefined && fields.type === undefined) merged.type = fields.isExpense ? 1 : 0;
          const input = toInput(merged);
          // Only pending bills change: refuse before matching or creating an employee for nothing.
          if (employee && bill.status !== 1) throw payableError('payable_not_pending', `only a pending bill can be changed (status ${bill.statusName})`, { 'data.status': 'not pending' });
          await withEmployee(tx, instanceId, input, employee, { company: fields.company, companyFinance: fields.companyFinance });
          bill = await fieldsUnder('data', () => updatePayable(tx, instanceId, uuid, input));
        }
        if (file) await attachFileToPayable(tx, instanceId, file.uuid, bill.id, 'file.uuid');
        if (status !== undefined) bill = await fieldsUnder('data', () => changePayableStatus(tx, instanceId, userId, uuid, status as PayableStatusId, statusDate));
        return bill;
      });
    },
  );

  app.post(
    '/payable/delete',
    {
      config: { access: 'write' },
      schema: { tags, description: 'Deletes a pending bill; 409 once approved (cancel it instead).', body: strictObject({ uuid: zUuid }), response: { 200: okSchema, ...errorsWithConflict } },
    },
    async (request) => {
      const { instanceId } = auth(request);
      await app.db.withInstance(instanceId, (tx) => deletePayable(tx, instanceId, request.body.uuid));
      return { ok: true as const };
    },
  );

  app.post(
    '/payable/pay',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          'Pays an approved bill outside a payment batch, in full or in part (spec §7.1 `/payable/pay {uuid, token}`, issue 14 §3): ' +
          'direct debit (LSV), card, cash or a staff expense refunded by hand — no supplier IBAN needed. Posts at `date` (default ' +
          'today): debit the liability the bill was booked on (payables 2000, staff 2250) `amount` (default the open amount) and 6940 ' +
          '`fee` (charged by the bank on top) / credit `account` (default the first bank account; an asset or liability account). ' +
          'With `writeOff` the rest of the open amount is written off in a second entry: `discount` (4900 with the input tax ' +
          'reduced by the bill\'s code) or `difference` (6953), only within the payment tolerance. Paid 4 once nothing is open, else ' +
          'approved with `openAmount`. A bill in another currency may be paid in parts (`amount` in its currency, `amountBase` what ' +
          'left the bank in the books\' currency: exchange difference on 6942/6952; the last part clears the liability to the cent), ' +
          'without fee or write-off. `token` (the detail\'s `payToken`) is a one-time confirmation token: the same token answers the bill it paid and ' +
          'posts nothing (parallel calls included); without a token a call on a paid bill is a 409. 400 `amount` (above the open ' +
          'amount: no overpayment is booked; beyond the tolerance), `fee`, `account.id`, `date`; 404 unknown bill; 409 when the bill ' +
          'is not approved (pending, in a transaction group, paid, cancelled) or `date` is on or before the lock date.',
        body: strictObject({
          uuid: zUuid,
          token: z.string().min(1).max(200).nullish().describe('one-time confirmation token (the detail\'s payToken, or a client-generated uuid)'),
          account: strictObject({ id: zId }).nullish().describe('the bank, cash or card ledger account the money left; default the first bank account'),
          date: zDate.nullish().describe('payment date YYYY-MM-DD (the posting date); default today'),
          amount: zAmount(2).nullish().describe("what the bill is paid, in its currency; default the open amount"),
          fee: zAmount(2).nullish().describe('bank charge on top, booked to 6940'),
          writeOff: z.enum(['discount', 'difference'], { error: 'writeOff must be discount or difference' }).nullish(),
          amountBase: zAmount(2)
            .nullish()
            .describe(
              "a bill in another currency: what left the account in the books' currency, 2 decimals; the difference to amount × " +
                'exchangeRate is booked as realized exchange difference (loss debit 6942, gain credit 6952). Default: amount × exchangeRate.',
            ),
        }),
        response: { 200: payableAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      const { uuid, token, account, date, amount, fee, writeOff, amountBase } = request.body;
      return app.db.withInstance(instanceId, async (tx) => {
        const { bill } = await recordPayablePayment(tx, instanceId, userId, uuid, { accountId: account?.id, date, token, amount, fee, writeOff, amountBase });
        return { ...bill, payments: (await paymentsOfPayables(tx, instanceId, [bill.id])).get(bill.id) ?? [] };
      });
    },
  );

  app.post(
    '/payable/payment/reverse',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          'Reverses one payment (`uuid` of the payment) of a bill or expense: counter-entries of its payment and write-off entries at ' +
          '`date` (default today; on or after the payment, else 400 `date`), the payment kept and marked reversed; a paid bill is ' +
          'approved (open) again and leaves its transaction group. 404 unknown payment; 409 already reversed, lock date.',
        body: strictObject({ uuid: zUuid, date: zDate.nullish() }),
        response: { 200: payableAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      return app.db.withInstance(instanceId, async (tx) => {
        const bill = await reversePayablePayment(tx, instanceId, userId, request.body.uuid, request.body.date);
        return { ...bill, payments: (await paymentsOfPayables(tx, instanceId, [bill.id])).get(bill.id) ?? [] };
      });
    },
  );

  const creditorRow = z.object({
    company: z.object({ uuid: z.string(), name: z.string() }).nullable().describe('the supplier or employee; null when the documents name nobody'),
    currency: z.string(),
    openAmount: z.string(),
    openAmountBase: z.string().describe("in the instance currency, at the documents' exchange rates"),
    bills: z.number().int().describe('open documents (bills or expenses)'),
    overdue: z.number().int(),
    nextDueDate: z.string().nullable(),
  });
  const owedAccount = z.object({ id: z.number().int(), number: z.string(), name: z.string(), balance: z.string().describe('credit balance (owed)') });

  app.get(
    '/payable/creditors',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          "What is owed (the palette's 'Creditors'), open documents approved or in a transaction group (pending drafts are not " +
          'booked): `data` supplier bills booked on the payables account per supplier and currency — open amount in the bill ' +
          'currency and in the instance currency, bill count, overdue count, next due date (due date, else bill date); `total` ' +
          '(instance currency) equals `payablesAccount.balance`, the credit balance of 2000, when only bills post there. `staff` ' +
          'the same for staff expenses (salary claims included) booked on the staff account 2250, per employee (issue 16 §4): ' +
          '`staff.total` equals `staff.account.balance` when only expenses post there. A chart without 2250 books expenses on ' +
          '2000: they are then listed in `data` and `staff.data` is empty.',
        response: {
          200: z.object({
            data: z.array(creditorRow),
            total: z.string(),
            payablesAccount: owedAccount,
            staff: z.object({ data: z.array(creditorRow), total: z.string(), account: owedAccount }),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => listCreditors(tx, instanceId));
    },
  );

  app.get(
    '/payable/employees',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          "The people staff expenses were owed to (issue 16 §4; the expense form's 'Employee'), by name: each company (person) " +
          "named by a staff expense or salary claim, the active IBAN profile of their latest expense (`paymentProfile`, null when " +
          'it is archived or none), the number of their expenses and the date of the latest.',
        response: {
          200: z.object({
            data: z.array(
              z.object({
                company: z.object({ uuid: z.string(), name: z.string() }),
                paymentProfile: z.object({ id: z.number().int(), iban: z.string() }).nullable(),
                expenses: z.number().int(),
                lastDate: z.string(),
              }),
            ),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return { data: await app.db.withInstance(instanceId, (tx) => listEmployees(tx, instanceId)) };
    },
  );
};

