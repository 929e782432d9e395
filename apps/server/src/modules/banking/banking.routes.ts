/**
 * /api/banking (spec §7.1 "Banking"): the payment-file call `POST /banking/{token}` with
 * `{ uuid, creditors[{ name, iban, bic, reference, amount }], debtor{ bic, iban, name } }` answering
 * the XML text, and the bank-file imports under /banking/integrations.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { strictObject, zAmount, zDate, zId, zRequiredText, zUuid } from '@bilan/domain';
import { errors, errorsWithConflict } from '../../http/schemas.js';
import { buildPain001, Pain001Error, type Pain001Payment } from '../../lib/pain001.js';
import { auth } from '../../http/access.js';
import { importBankFile, type InvoicePort } from './bank-import.service.js';
import { requirePort } from '../../lib/ports.js';
import { bookBankTransaction, matchBankTransaction, reconciliation } from './reconcile.service.js';
import { BULK_BODY_LIMIT } from '../../http/body-limits.js';
import { bankingError } from './banking.errors.js';

const tags = ['banking'];

/** The formats `{token}` may name; both mean pain.001.001.09.ch.03 (Swiss Payment Standards 2025). */
export const PAIN001_TOKENS = ['pain001', 'pain.001.001.09'] as const;

const address = strictObject({
  street: z.string().max(70).nullish(),
  buildingNumber: z.string().max(16).nullish(),
  postCode: z.string().max(16).nullish(),
  town: zRequiredText,
  country: z.string().regex(/^[A-Z]{2}$/, { error: 'country must be an ISO 3166 alpha-2 code' }),
});

export const pain001Body = strictObject({
  uuid: zUuid.describe('message id (MsgId, hyphens dropped)'),
  executionDate: zDate.optional().describe('requested execution date YYYY-MM-DD; default today (UTC)'),
  creditors: z
    .array(
      strictObject({
        name: zRequiredText,
        iban: z.string().max(42),
        bic: z.string().max(11).nullish(),
        reference: z.string().max(40).nullish().describe('QR reference (with a QR-IBAN) or creditor reference RF…'),
        amount: zAmount(2),
        currency: z.enum(['CHF', 'EUR']).default('CHF'),
        message: z.string().max(140).nullish(),
        endToEndId: z.string().max(35).nullish(),
        address: address.nullish(),
      }),
    )
    .min(1)
    .max(10_000),
  debtor: strictObject({ bic: z.string().max(11).nullish(), iban: z.string().max(42), name: zRequiredText }),
});

export type Pain001Body = z.infer<typeof pain001Body>;

/** Maps a generator error (`payments.N.creditor.iban`) to the request's field (`creditors.N.iban`). */
export function pain001FieldError(error: Pain001Error, creditorsPath = 'creditors'): Error {
  const match = /^payments\.(\d+)\.(.+)$/.exec(error.field);
  let field = error.field;
  if (match) {
    const [, index, rest] = match;
    field = rest!.startsWith('debtor.') ? rest! : `${creditorsPath}.${index}.${rest!.replace(/^creditor\./, '')}`;
  }
  const message = error.message.slice(error.field.length + 2);
  return bankingError('pain001_rule', `${field}: ${message}`, { [field]: message });
}

/** Builds the file of a pain.001 request body (pure); 400 naming the field when a payment breaks an SPS rule. */
export function pain001FromBody(body: Pain001Body, now = new Date()): string {
  const executionDate = body.executionDate ?? now.toISOString().slice(0, 10);
  const payments: Pain001Payment[] = body.creditors.map((creditor, index) => ({
    endToEndId: creditor.endToEndId ?? `${body.uuid.replace(/-/g, '').slice(0, 24)}-${index + 1}`,
    executionDate,
    debtor: { name: body.debtor.name, iban: body.debtor.iban, bic: body.debtor.bic || null },
    creditor: { name: creditor.name, iban: creditor.iban, bic: creditor.bic || null, address: creditor.address ?? null },
    amount: creditor.amount,
    currency: creditor.currency,
    reference: creditor.reference ?? null,
    message: creditor.message ?? null,
  }));
  try {
    return buildPain001({ messageId: body.uuid.replace(/-/g, ''), createdAt: now, initiatingParty: body.debtor.name, payments }).xml;
  } catch (error) {
    if (error instanceof Pain001Error) throw pain001FieldError(error);
    throw error;
  }
}

/** What the banking routes need from the modules above banking (modules/wiring/wiring.ts). */
export interface BankingRouteOptions {
  /** Bank credits → sent invoices (automatic and manual matches, suggestions). */
  invoicePort: InvoicePort;
}

/** Bank files, imports and reconciliation under /api; throws at start-up without its ports. */
export const bankingRoutes: FastifyPluginAsyncZod<BankingRouteOptions> = async (app, options) => {
  const invoicePort = requirePort(options, 'invoicePort', 'bankingRoutes');
  app.post(
    '/banking/:token',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          'Credit transfer file for the bank: ISO 20022 pain.001.001.09, Swiss Payment Standards variant ' +
          '(pain.001.001.09.ch.03), as `application/xml` text. `{token}` names the format: `pain001` or ' +
          '`pain.001.001.09`. One payment information block per execution date and debtor account, one ' +
          'transaction per creditor. Payment type per creditor (SPS IG): QR-IBAN + QR reference (QRR), ' +
          'IBAN + creditor reference (SCOR), CH/LI IBAN without reference, SEPA (EUR to a SEPA-country ' +
          'IBAN). Amounts in `currency` (CHF default), 2 decimals. 400 names the breaking field ' +
          '(`creditors.N.reference`…). Nothing is stored.',
        params: z.object({ token: z.enum(PAIN001_TOKENS) }),
        body: pain001Body,
        response: { 200: z.string().describe('the XML document'), ...errors },
      },
    },
    async (request, reply) => {
      const xml = pain001FromBody(request.body);
      return reply.type('application/xml; charset=utf-8').send(xml);
    },
  );

  // Bank files arrive as XML text (encapsulated: only this plugin's routes parse XML).
  app.addContentTypeParser(['application/xml', 'text/xml'], { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.post(
    '/banking/integrations/transactions',
    {
      config: { access: 'write' },
      bodyLimit: BULK_BODY_LIMIT,
      schema: {
        tags,
        description:
          'Imports a bank file sent as the body (`application/xml`, `text/xml` or `text/plain`), in one transaction: ' +
          'camt.053 / camt.054 (.001.04, .001.08) store each booked entry (or transaction detail) on the bank ledger account with ' +
          'the IBAN of the file (or `?account=id`); a re-import adds nothing (unique bank reference per account) and books nothing twice. ' +
          'Matching and booking at the booking date: money out by end-to-end id (a bill of a transaction group), else by amount and ' +
          'currency plus creditor IBAN or name to exactly one approved bill or bill of an initiated group (debit its liability / ' +
          'credit bank; a group is paid when all its bills are); money in by QR or creditor reference, else by amount and debtor name ' +
          '(case, accents, legal form ignored) to exactly one sent invoice paid to this account (invoice → paid). A booking the ledger ' +
          'refuses (e.g. date on or before the lock date) or several candidates leave the transaction unmatched with `reason`; the ' +
          'rest of the file still imports. pain.002 (.001.03, .001.10) sets the group bank status (pending 1, paid 2, pain002Accp 3, ' +
          'pain002Rjctd 4, pain002Part 5) and each bill accepted/rejected with the reason code, at the most specific level the bank ' +
          'reports (TxSts, else the block\'s PmtInfSts — found by the execution date in OrgnlPmtInfId — else GrpSts; PART means per ' +
          'transaction); a rejected bill is reopened (approved, out of the group) and its payment posting reversed at the payment\'s ' +
          'date (first open day when locked); a group whose bills are all rejected is denied, even a paid one. Answers `{ kind, file, ' +
          'duplicateFile, imported, duplicates, matched, transactions: [{ id, bookingDate, direction, amount, currency, matched, payable, ' +
          'invoice, reason }] }` (camt) or `{ kind, file, duplicateFile, transactionGroup, accepted, rejected, reopened }` (pain.002). 400 on `file`.',
        querystring: strictObject({ account: z.coerce.number().int().min(1).optional() }),
        body: z.string().min(1, { error: 'the bank file is empty' }),
        response: { 200: z.looseObject({ kind: z.string() }), ...errors },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => importBankFile(tx, instanceId, userId, request.body, invoicePort, request.query.account));
    },
  );

  const suggestion = z.object({
    kind: z.enum(['invoice', 'bill']),
    uuid: z.string(),
    id: z.number().int(),
    label: z.string(),
    date: z.string(),
    amount: z.string(),
    currency: z.string(),
  });
  const reconcileAnswer = z.object({
    account: z.object({ id: z.number().int(), number: z.string(), name: z.string() }),
    statement: z.object({ balance: z.string(), date: z.string().nullable() }).nullable().describe('the last camt.053 closing booked balance (CLBD)'),
    ledgerBalance: z.string().describe('debit − credit of the account at the statement date (overall without a statement)'),
    difference: z.string().nullable().describe('statement balance − ledger balance'),
    unmatched: z.array(
      z.object({
        id: z.number().int(),
        bookingDate: z.string(),
        direction: z.number().int().describe('1 money in, -1 money out'),
        amount: z.string(),
        currency: z.string(),
        reference: z.string().nullable(),
        endToEndId: z.string().nullable(),
        counterparty: z.string().nullable(),
        counterpartyIban: z.string().nullable(),
        description: z.string().nullable(),
        reason: z.string().nullable().describe('why the automatic match did not book it (locked period, several candidates…)'),
        suggestions: z.array(suggestion).describe('open invoices (money in) or bills (money out) of the same amount and currency, for manual matching'),
      }),
    ),
  });
  const RECONCILE =
    'Reconciliation of bank ledger account `account.id`: the last camt.053 closing balance (CLBD) and its date, the ledger ' +
    'balance at that date, their difference, and the imported bank transactions neither matched nor booked, each with the ' +
    'reason the automatic match left it (`reason`) and the open invoices or bills of the same amount (`suggestions`).';

  app.get(
    '/banking/integrations/reconcile',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: `${RECONCILE} Read-only (any member). 404 when the account is not one of the instance's.`,
        querystring: strictObject({ account: z.coerce.number().int().min(1) }),
        response: { 200: reconcileAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => reconciliation(tx, instanceId, request.query.account, invoicePort));
    },
  );

  app.post(
    '/banking/integrations/reconcile',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          `${RECONCILE} With \`bankTransaction.id\` and \`counterAccount.id\` it first books that transaction at its booking date ` +
          '(money in: debit bank / credit counter account; money out the other way; instance currency only). 404 unknown ids, ' +
          '409 already booked or locked period. Writers only (a viewer reads with GET).',
        body: strictObject({ account: strictObject({ id: zId }), bankTransaction: strictObject({ id: zId }).optional(), counterAccount: strictObject({ id: zId }).optional() }),
        response: { 200: reconcileAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      const { account, bankTransaction, counterAccount } = request.body;
      return app.db.withInstance(instanceId, async (tx) => {
        if (bankTransaction) {
          if (!counterAccount) throw bankingError('counter_account_required', 'counterAccount.id: This field is required', { 'counterAccount.id': 'This field is required' });
          await bookBankTransaction(tx, instanceId, userId, bankTransaction.id, counterAccount.id);
        }
        return reconciliation(tx, instanceId, account.id, invoicePort);
      });
    },
  );

  app.post(
    '/banking/integrations/reconcile/match',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          'Manual match: books bank transaction `bankTransaction.id` as the payment of the chosen open document, exactly as the ' +
          'automatic match of a statement import does, at the booking date. Money in + `invoice.uuid`: a sent invoice paid to this ' +
          'bank account, of the same amount (invoice → paid 3: debit bank / credit receivable 1100, bankRef = the bank reference). ' +
          'Money out + `payable.uuid`: an approved bill or one in a transaction group, same amount and currency (bill → paid 4: debit ' +
          'its liability 2000/2250 / credit this bank account; its group is paid once all its bills are). A document in another ' +
          "currency may be matched to a transaction in the books' currency within 25 % of its booked amount: the transaction's " +
          'amount is booked and the realized exchange difference goes to 6942/6952 (docs/decisions/012). Give exactly one of ' +
          '`invoice` and `payable`. Answers the reconciliation of the transaction\'s account. 400 naming the field (both or none ' +
          'given, wrong direction); 404 unknown transaction or document; 409 already booked/matched, document not open, amount or ' +
          'currency differ (converted: more than 25 % apart), invoice paid to another account, or locked period. Nothing is written on error.',
        body: strictObject({
          bankTransaction: strictObject({ id: zId }),
          invoice: strictObject({ uuid: zUuid }).optional(),
          payable: strictObject({ uuid: zUuid }).optional(),
        }),
        response: { 200: reconcileAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      const { bankTransaction, invoice, payable } = request.body;
      if ((invoice === undefined) === (payable === undefined)) {
        const message = 'give exactly one of invoice.uuid and payable.uuid';
        throw bankingError('match_target', message, { 'invoice.uuid': message, 'payable.uuid': message });
      }
      return app.db.withInstance(instanceId, async (tx) => {
        await matchBankTransaction(tx, instanceId, userId, bankTransaction.id, invoice ? { invoiceUuid: invoice.uuid } : { payableUuid: payable!.uuid }, invoicePort);
        const [row] = await tx.query<{ account_id: number }>('SELECT account_id FROM bank_transaction WHERE instance_id = $1 AND id = $2', [instanceId, bankTransaction.id]);
        return reconciliation(tx, instanceId, row!.account_id, invoicePort);
      });
    },
  );
};
