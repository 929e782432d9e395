/**
 * /api/banking (spec §7.1 "Banking"): the payment-file call `POST /banking/{token}` with
 * `{ uuid, creditors[{ name, iban, bic, reference, amount }], debtor{ bic, iban, name } }` answering
 * the XML text, and the bank-file imports under /banking/integrations.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageLanguageOf, strictObject, zAmount, zDate, zId, zRequiredText, zUuid } from '@bilan/domain';
import { errors, errorsWithConflict } from '../../http/schemas.js';
import { buildPain001, Pain001Error, type Pain001Payment } from '../../lib/pain001.js';
import { auth } from '../../http/access.js';
import { translateServerMessage } from '../../http/message-catalog.js';
import { chargesAccountId, importBankFile, type InvoicePort } from './bank-import.service.js';
import { listLedgerAccounts } from '../accounting/accounting.service.js';
import { requirePort } from '../../lib/ports.js';
import { bookBankTransaction, matchBankTransaction, reconciliation } from './reconcile.service.js';
import { BULK_BODY_LIMIT } from '../../http/body-limits.js';
import { bankingError } from './banking.errors.js';
import { auditClient, recordAudit, type BankAuditEvent } from '../audit/audit.service.js';
import { deleteBankFile, ignoreLine, matchLinesToPostings, openPostingsOf, reconciliationSummary, unignoreLine, unmatchLine } from './reconcile-actions.js';
import { addDays } from './matching.service.js';
import type { FastifyRequest } from 'fastify';
import type { Tx } from '../../db/database.js';

const audit = (tx: Tx, request: FastifyRequest, instanceId: string, userId: string | null, event: BankAuditEvent, detail: Record<string, unknown>) =>
  recordAudit(tx, { event, userId, instanceId, ...auditClient(request), detail });

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
      const result = await app.db.withInstance(instanceId, (tx) =>
        importBankFile(tx, instanceId, userId, request.body, invoicePort, request.query.account, (detail) => request.log.warn({ detail }, 'bank file refused')),
      );
      // The reasons are stored in English (the contract); the client reads them in its language.
      const language = messageLanguageOf(request.headers['accept-language']);
      if (language === 'en' || !('transactions' in result)) return result;
      return { ...result, transactions: result.transactions.map((t) => ({ ...t, reason: t.reason === null ? null : translateServerMessage(t.reason, language) })) };
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
    summary: z.object({
      date: z.string(),
      statement: z
        .object({ fileId: z.number().int(), messageId: z.string(), iban: z.string().nullable(), openingBalance: z.string().nullable(), closingBalance: z.string(), closingDate: z.string().nullable() })
        .nullable(),
      statementBalance: z.string().nullable(),
      ledgerBalance: z.string(),
      reconciled: z.string(),
      unreconciled: z.string(),
      ignored: z.string(),
      difference: z.string().nullable(),
      gap: z.string().nullable(),
    }).describe("at `date`: the last camt.053 closing balance, the ledger balance, the statement lines' reconciled, open and ignored sums (money in positive), their difference (0.00 when done) and the gap to the previous statement"),
    openPostings: z.array(
      z.object({ lineId: z.number().int(), entryId: z.number().int(), dateLedger: z.string(), direction: z.number().int(), amount: z.string(), source: z.string(), description: z.string() }),
    ).describe('postings on the account not reconciled yet, from 40 days before the oldest open line to the summary date (at most 500): what open lines can be matched to'),
    ignored: z.array(z.object({ id: z.number().int(), bookingDate: z.string(), direction: z.number().int(), amount: z.string(), currency: z.string(), counterparty: z.string().nullable(), reason: z.string() })),
    reconciledLines: z
      .array(
        z.object({
          id: z.number().int(),
          bookingDate: z.string(),
          direction: z.number().int(),
          amount: z.string(),
          currency: z.string(),
          counterparty: z.string().nullable(),
          kind: z.string().describe("'payment' or 'charges'"),
          statement: z.boolean().describe('a statement line (camt.052/053), not a camt.054 notification'),
          entryId: z.number().int().nullable().describe('the journal entry the line booked itself; null: matched to postings already in the books'),
          postings: z.number().int().describe('postings the reconciliation claims'),
        }),
      )
      .describe('the 100 latest reconciled lines, to unmatch'),
    files: z
      .array(
        z.object({
          id: z.number().int(),
          kind: z.string(),
          messageId: z.string(),
          importedAt: z.string(),
          closingDate: z.string().nullable(),
          closingBalance: z.string().nullable(),
          lines: z.number().int(),
          reconciled: z.number().int().describe('lines reconciled: the import can be deleted only at 0'),
        }),
      )
      .describe('the 50 latest bank files imported on this account'),
  });
  /** The reconciliation of `accountId` with the summary at `date` (default today); its texts in the request's language. */
  const answer = async (tx: Tx, instanceId: string, accountId: number, request: FastifyRequest, date?: string) => {
    const base = await reconciliation(tx, instanceId, accountId, invoicePort, messageLanguageOf(request.headers['accept-language']));
    const at = date ?? new Date().toISOString().slice(0, 10);
    const summary = await reconciliationSummary(tx, instanceId, accountId, at);
    const oldest = base.unmatched[0]?.bookingDate ?? at;
    const openPostings = (await openPostingsOf(tx, instanceId, accountId, addDays(oldest < at ? oldest : at, -40), addDays(at, 5))).map((p) => ({
      lineId: p.lineId, entryId: p.entryId, dateLedger: p.dateLedger, direction: p.direction, amount: p.amount, source: p.source, description: p.description,
    }));
    const ignored = await tx.query<{ id: number; booking_date: string; direction: number; amount: string; currency: string; counterparty: string | null; ignored_reason: string }>(
      `SELECT id, booking_date::text AS booking_date, direction, amount::text AS amount, currency, counterparty, ignored_reason FROM bank_transaction
        WHERE instance_id = $1 AND account_id = $2 AND ignored_reason IS NOT NULL ORDER BY booking_date, id LIMIT 500`,
      [instanceId, accountId],
    );
    const reconciledLines = await tx.query<{ id: number; booking_date: string; direction: number; amount: string; currency: string; counterparty: string | null; kind: string; statement: boolean; entry_id: number | null; postings: number }>(
      `SELECT t.id, t.booking_date::text AS booking_date, t.direction, t.amount::text AS amount, t.currency, t.counterparty, t.kind, t.statement, t.entry_id,
              (SELECT count(*)::integer FROM bank_match_posting m WHERE m.instance_id = t.instance_id AND m.match_id = t.match_id) AS postings
         FROM bank_transaction t WHERE t.instance_id = $1 AND t.account_id = $2 AND t.match_id IS NOT NULL ORDER BY t.booking_date DESC, t.id DESC LIMIT 100`,
      [instanceId, accountId],
    );
    const files = await tx.query<{ id: number; kind: string; message_id: string; imported_at: string; closing_date: string | null; closing_balance: string | null; lines: number; reconciled: number }>(
      `SELECT f.id, f.kind, f.message_id, to_char(f.imported_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS imported_at, f.closing_date::text AS closing_date,
              f.closing_balance::text AS closing_balance, count(t.id)::integer AS lines, count(t.match_id)::integer AS reconciled
         FROM bank_file f LEFT JOIN bank_transaction t ON t.instance_id = f.instance_id AND t.bank_file_id = f.id
        WHERE f.instance_id = $1 AND (f.account_id = $2 OR f.id IN (SELECT DISTINCT bank_file_id FROM bank_transaction WHERE instance_id = $1 AND account_id = $2))
        GROUP BY f.instance_id, f.id ORDER BY f.imported_at DESC, f.id DESC LIMIT 50`,
      [instanceId, accountId],
    );
    return {
      ...base,
      summary,
      reconciledLines: reconciledLines.map((r) => ({
        id: r.id, bookingDate: r.booking_date, direction: r.direction, amount: r.amount, currency: r.currency, counterparty: r.counterparty,
        kind: r.kind, statement: r.statement, entryId: r.entry_id, postings: r.postings,
      })),
      files: files.map((f) => ({
        id: f.id, kind: f.kind, messageId: f.message_id, importedAt: f.imported_at, closingDate: f.closing_date,
        closingBalance: f.closing_balance === null ? null : f.closing_balance, lines: f.lines, reconciled: f.reconciled,
      })),
      openPostings,
      ignored: ignored.map((r) => ({ id: r.id, bookingDate: r.booking_date, direction: r.direction, amount: r.amount, currency: r.currency, counterparty: r.counterparty, reason: r.ignored_reason })),
    };
  };
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
        querystring: strictObject({ account: z.coerce.number().int().min(1), date: zDate.optional().describe('summary date YYYY-MM-DD, default today') }),
        response: { 200: reconcileAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => answer(tx, instanceId, request.query.account, request, request.query.date));
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
          const entryId = await bookBankTransaction(tx, instanceId, userId, bankTransaction.id, counterAccount.id);
          await audit(tx, request, instanceId, userId, 'bank_line.booked', { bankTransaction: bankTransaction.id, counterAccount: counterAccount.id, entry: entryId });
        }
        return answer(tx, instanceId, account.id, request);
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
        const entryId = await matchBankTransaction(tx, instanceId, userId, bankTransaction.id, invoice ? { invoiceUuid: invoice.uuid } : { payableUuid: payable!.uuid }, invoicePort);
        await audit(tx, request, instanceId, userId, 'bank_line.matched', { bankTransactions: [bankTransaction.id], invoice: invoice?.uuid, payable: payable?.uuid, entry: entryId });
        const [row] = await tx.query<{ account_id: number }>('SELECT account_id FROM bank_transaction WHERE instance_id = $1 AND id = $2', [instanceId, bankTransaction.id]);
        return answer(tx, instanceId, row!.account_id, request);
      });
    },
  );

  const lineIds = z.array(strictObject({ id: zId })).min(1).max(500);
  app.post(
    '/banking/integrations/reconcile/postings',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          'Manual match to the books (issue 14 §1): reconciles open bank lines `bankTransactions` (one bank account) with postings ' +
          '`postings` (journal line ids on that account, from `openPostings`) already in the books — one-to-one, one-to-many ' +
          '(a batch debit against several bill payments) or many-to-one — whose sums agree (money in = debit). Books nothing; ' +
          'audited. 400 naming `postings` (not on the account, sums differ) or `bankTransactions` (different accounts); 404 ' +
          'unknown line; 409 a line reconciled or ignored already, or a posting reconciled already. Answers the reconciliation.',
        body: strictObject({ bankTransactions: lineIds, postings: z.array(strictObject({ id: zId })).min(1).max(500) }),
        response: { 200: reconcileAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      const { bankTransactions, postings } = request.body;
      return app.db.withInstance(instanceId, async (tx) => {
        const accountId = await matchLinesToPostings(tx, instanceId, bankTransactions.map((l) => l.id), postings.map((p) => p.id));
        await audit(tx, request, instanceId, userId, 'bank_line.matched', { bankTransactions: bankTransactions.map((l) => l.id), postings: postings.map((p) => p.id) });
        return answer(tx, instanceId, accountId, request);
      });
    },
  );

  const oneLine = strictObject({ bankTransaction: strictObject({ id: zId }) });
  app.post(
    '/banking/integrations/reconcile/unmatch',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          'Unmatches bank line `bankTransaction.id` and the lines reconciled with it: postings already in the books are released; ' +
          'what the match booked is reversed (storno) at its date or the first open day — a paid invoice goes back to sent, a paid ' +
          'bill back to approved, charges or a counter-account booking get their reversal entry. Audited. 404 unknown; 409 not ' +
          'reconciled or a locked period. Answers the reconciliation.',
        body: oneLine,
        response: { 200: reconcileAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      return app.db.withInstance(instanceId, async (tx) => {
        const done = await unmatchLine(tx, instanceId, userId, request.body.bankTransaction.id, invoicePort);
        await audit(tx, request, instanceId, userId, 'bank_line.unmatched', { bankTransaction: request.body.bankTransaction.id, reversals: done.reversals });
        return answer(tx, instanceId, done.accountId, request);
      });
    },
  );

  app.post(
    '/banking/integrations/reconcile/ignore',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          'Ignores open bank line `bankTransaction.id` with `reason` (e.g. booked in another ledger): it no longer counts as ' +
          'unreconciled. Audited. 400 `reason` empty; 404 unknown; 409 reconciled or ignored already. Answers the reconciliation.',
        body: strictObject({ bankTransaction: strictObject({ id: zId }), reason: zRequiredText.pipe(z.string().max(500)) }),
        response: { 200: reconcileAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      return app.db.withInstance(instanceId, async (tx) => {
        const accountId = await ignoreLine(tx, instanceId, request.body.bankTransaction.id, request.body.reason);
        await audit(tx, request, instanceId, userId, 'bank_line.ignored', { bankTransaction: request.body.bankTransaction.id, reason: request.body.reason });
        return answer(tx, instanceId, accountId, request);
      });
    },
  );

  app.post(
    '/banking/integrations/reconcile/unignore',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description: 'Takes ignored bank line `bankTransaction.id` back to open. Audited (with the reason it had). 404 unknown; 409 not ignored. Answers the reconciliation.',
        body: oneLine,
        response: { 200: reconcileAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      return app.db.withInstance(instanceId, async (tx) => {
        const done = await unignoreLine(tx, instanceId, request.body.bankTransaction.id);
        await audit(tx, request, instanceId, userId, 'bank_line.unignored', { bankTransaction: request.body.bankTransaction.id, reason: done.reason });
        return answer(tx, instanceId, done.accountId, request);
      });
    },
  );

  app.post(
    '/banking/integrations/file/delete',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          'Deletes imported bank file `id` (a statement imported on the wrong account, a test file) with its lines, while none of ' +
          'them is reconciled (issue 14 §2). Audited. 404 unknown; 409 some lines reconciled (unmatch them first). Answers what was deleted.',
        body: strictObject({ id: zId }),
        response: { 200: z.object({ id: z.number().int(), kind: z.string(), messageId: z.string(), lines: z.number().int() }), ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      return app.db.withInstance(instanceId, async (tx) => {
        const deleted = await deleteBankFile(tx, instanceId, request.body.id);
        await audit(tx, request, instanceId, userId, 'bank_file.deleted', deleted);
        return deleted;
      });
    },
  );
  const bankSettings = z.object({
    chargesAccount: z.object({ id: z.number().int(), number: z.string(), name: z.string() }).describe('the ledger account bank charges are booked to (default 6940 Bankspesen)'),
  });
  /** The banking settings as answered; resolving the charges account creates 6940 when no account is chosen and it is missing. */
  const settingsOf = async (tx: Tx, instanceId: string) => {
    const id = await chargesAccountId(tx, instanceId);
    const [account] = await listLedgerAccounts(tx, instanceId, { ids: [id] });
    return { chargesAccount: { id, number: account!.number, name: account!.name } };
  };
  app.get(
    '/banking/settings',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description: 'Banking settings (issue 14 §3): the ledger account bank charges (camt `Chrgs`, entry minus its transactions) are booked to; default 6940 Bankspesen, created when missing.',
        response: { 200: bankSettings, ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => settingsOf(tx, instanceId));
    },
  );

  app.post(
    '/banking/settings/update',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        description:
          'Sets the ledger account bank charges are booked to (`chargesAccount.id`, one of the instance\'s accounts). Charges booked before keep their account. ' +
          'Audited. Owner and admin. 400 naming `chargesAccount.id` when the account is unknown. Answers the settings.',
        body: strictObject({ chargesAccount: strictObject({ id: zId }) }),
        response: { 200: bankSettings, ...errors },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      const id = request.body.chargesAccount.id;
      return app.db.withInstance(instanceId, async (tx) => {
        const [account] = await listLedgerAccounts(tx, instanceId, { ids: [id] });
        if (!account) throw bankingError('charges_account', `chargesAccount.id: ledger account ${id} not found`, { 'chargesAccount.id': `ledger account ${id} not found` });
        await tx.query(
          `INSERT INTO bank_settings (instance_id, charges_account_id) VALUES ($1, $2)
           ON CONFLICT (instance_id) DO UPDATE SET charges_account_id = EXCLUDED.charges_account_id, updated_at = now()`,
          [instanceId, id],
        );
        await audit(tx, request, instanceId, userId, 'bank_settings.updated', { chargesAccount: id });
        return settingsOf(tx, instanceId);
      });
    },
  );
};
