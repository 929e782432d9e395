/**
 * Payments of sales invoices (issue 14 §3, decision 021): part payments, the rest written off as
 * cash discount (Skonto) or small difference within the instance's tolerance, fees the payer's bank
 * deducted, and the reversal of one payment. Each payment is its own balanced entry (source
 * 'invoice', the invoice's uuid); a write-off is a second entry, coded when it corrects VAT, so the
 * received-consideration return counts the payment as money received and the discount as a
 * correction of the booking (accounting vat-return.sql.ts). The invoice is paid (3) when its open
 * amount is 0, sent (2) while anything is open.
 */
import { InvoiceStatus, formatReferenceNumber, toBaseAmount, toFixedAmount, toMoney, type Money } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import type { PageRequest } from '../../db/paging.js';
import { alreadyDone } from '../../http/errors.js';
import {
  WRITE_OFF_ACCOUNTS,
  booksCurrency,
  chartAccountId,
  checkWriteOffTolerance,
  controlAccount,
  getJournalEntry,
  listLedgerAccounts,
  postJournalEntry,
  postingVatInput,
  settlementPostings,
  todayInSwitzerland,
  writeOffPostings,
  type PostingInput,
} from '../accounting/accounting.service.js';
import { CHARGE_COLUMNS, chargesOfInvoices, toCharge, type ChargeRow, type InvoiceCharge } from './charges.service.js';
import { getInvoice, itemsOf, listInvoicePageWith, loadRow, toInvoice, totalsToStore, trimZeros, type Invoice, type TotalsLine } from './documents.service.js';
import { storeInvoiceTotals, type InvoiceFilter, type InvoiceRecord } from './invoicing.sql.js';
import { invoicingError, invoicingFieldError } from './invoicing.errors.js';

export type WriteOffKind = 'discount' | 'difference';

/** One payment of an invoice, as the detail shows it (amounts in the invoice's currency). */
export interface InvoicePayment {
  uuid: string;
  date: string;
  /** What reached the bank. */
  amount: string;
  /** What the payer's bank deducted (booked to 6940 Bankspesen). */
  fee: string;
  /** What was written off with this payment, and how. */
  writeOff: string;
  writeOffKind: WriteOffKind | null;
  bankAccount: { id: number; number: string; name: string };
  entryId: number | null;
  writeOffEntryId: number | null;
  reversed: { at: string; date: string; entryId: number | null; writeOffEntryId: number | null } | null;
  createdAt: string;
}

export interface InvoicePaymentInput {
  /** What reached the bank, ≥ 0, 2 decimals; default the open amount less `fee`. */
  amount?: string | null | undefined;
  /** Payment date YYYY-MM-DD; default today (Switzerland). */
  date?: string | null | undefined;
  /** The bank account (ledger account) the money reached; default the payment profile's account. */
  bankAccountId?: number | null | undefined;
  /** Fee deducted by the payer's bank, ≥ 0; default 0. */
  fee?: string | null | undefined;
  /** Write the rest off (within the tolerance) as cash discount or small difference. */
  writeOff?: WriteOffKind | null | undefined;
  /** One-time confirmation token: the same token on the same invoice books nothing twice. */
  token?: string | null | undefined;
  /** Invoice in another currency, paid in full: what reached the bank in the books' currency. */
  amountBase?: string | null | undefined;
  bankRef?: string | null | undefined;
  /** Request field of `date` for a 400 (status/change calls it `ledgerDate`). */
  dateField?: string | undefined;
}

type PaymentRow = {
  uuid: string;
  invoice_uuid: string;
  date_paid: string;
  amount: string;
  fee: string;
  write_off: string;
  write_off_kind: WriteOffKind | null;
  bank_account_id: number;
  entry_id: number | null;
  write_off_entry_id: number | null;
  token: string | null;
  created_at: string;
  reversed_at: string | null;
  reversal_date: string | null;
  reversal_entry_id: number | null;
  reversal_write_off_entry_id: number | null;
};

const PAYMENT_COLUMNS = `uuid, invoice_uuid, date_paid::text AS date_paid, amount::text AS amount, fee::text AS fee, write_off::text AS write_off,
  write_off_kind, bank_account_id, entry_id, write_off_entry_id, token, created_at::text AS created_at, reversed_at::text AS reversed_at,
  reversal_date::text AS reversal_date, reversal_entry_id, reversal_write_off_entry_id`;

async function selectPayments(tx: Tx, instanceId: string, invoiceUuids: readonly string[]): Promise<PaymentRow[]> {
  if (invoiceUuids.length === 0) return [];
  return tx.query<PaymentRow>(
    `SELECT ${PAYMENT_COLUMNS} FROM invoice_payment WHERE instance_id = $1 AND invoice_uuid = ANY($2::uuid[]) ORDER BY date_paid, id`,
    [instanceId, invoiceUuids],
  );
}

/** What a payment settles of the open amount: money, fee and write-off. */
const settles = (row: Pick<PaymentRow, 'amount' | 'fee' | 'write_off'>) => toMoney(row.amount).plus(toMoney(row.fee)).plus(toMoney(row.write_off));

/** A payment row with its bank account's number and name (through accounting's published view, decision 037). */
type PaymentWithAccountRow = PaymentRow & { bank_account_number: string | null; bank_account_name: string | null };

function toPayment(row: PaymentWithAccountRow): InvoicePayment {
  return {
    uuid: row.uuid,
    date: row.date_paid,
    amount: toFixedAmount(row.amount),
    fee: toFixedAmount(row.fee),
    writeOff: toFixedAmount(row.write_off),
    writeOffKind: row.write_off_kind,
    bankAccount: { id: row.bank_account_id, number: row.bank_account_number ?? '', name: row.bank_account_name ?? '' },
    entryId: row.entry_id,
    writeOffEntryId: row.write_off_entry_id,
    reversed:
      row.reversed_at === null
        ? null
        : { at: new Date(row.reversed_at).toISOString(), date: row.reversal_date!, entryId: row.reversal_entry_id, writeOffEntryId: row.reversal_write_off_entry_id },
    createdAt: new Date(row.created_at).toISOString(),
  };
}

// Payments `p` with their bank account's number and name. OFFSET 0 keeps the account a probe per
// payment, which the planner memoizes (an invoice list's payments share a few bank accounts); as
// two scalar subqueries it scanned the chart twice per payment (0.3 ms of a page of 50).
const PAYMENTS_WITH_ACCOUNTS = `invoice_payment p LEFT JOIN LATERAL (SELECT h.number AS bank_account_number, h.name AS bank_account_name
    FROM ledger_account_head h WHERE h.instance_id = p.instance_id AND h.id = p.bank_account_id OFFSET 0) ba ON true`;
const BANK_ACCOUNT_COLUMNS = 'ba.bank_account_number, ba.bank_account_name';

/** Payments of the invoices (reversed ones included, flagged), by invoice uuid, with their bank accounts. */
export async function paymentsOfInvoices(tx: Tx, instanceId: string, invoiceUuids: readonly string[]): Promise<Map<string, InvoicePayment[]>> {
  if (invoiceUuids.length === 0) return new Map();
  const rows = await tx.query<PaymentWithAccountRow>(
    `SELECT ${PAYMENT_COLUMNS}, ${BANK_ACCOUNT_COLUMNS} FROM ${PAYMENTS_WITH_ACCOUNTS}
      WHERE p.instance_id = $1 AND p.invoice_uuid = ANY($2::uuid[]) ORDER BY p.date_paid, p.id`,
    [instanceId, invoiceUuids],
  );
  return byInvoice(rows, toPayment);
}

/** `rows` converted and grouped by their invoice, in their order. */
function byInvoice<R extends { invoice_uuid: string }, T>(rows: readonly R[], convert: (row: R) => T): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const list = out.get(row.invoice_uuid);
    if (list) list.push(convert(row));
    else out.set(row.invoice_uuid, [convert(row)]);
  }
  return out;
}

/** A credit note as the open amount needs it (issue 15 §2, decision 027): its date and total (invoice currency). */
export interface CreditedAmount {
  uuid: string;
  number: string;
  date: string;
  total: string;
  /** The credit note's journal entry. */
  entryId: number | null;
}

/** `GS-` + the credit note's per-instance number padded to 6 (decision 027). */
export const formatCreditNoteNumber = (number: number) => `GS-${String(number).padStart(6, '0')}`;

/** The credit notes of the invoices (date, total), by invoice uuid, oldest first. */
export async function creditNotesOfInvoices(tx: Tx, instanceId: string, invoiceUuids: readonly string[]): Promise<Map<string, CreditedAmount[]>> {
  if (invoiceUuids.length === 0) return new Map();
  const rows = await tx.query<CreditNoteRow>(
    `SELECT ${CREDIT_NOTE_COLUMNS} FROM credit_note WHERE instance_id = $1 AND invoice_uuid = ANY($2::uuid[]) ORDER BY date_credit, number`,
    [instanceId, invoiceUuids],
  );
  return byInvoice(rows, toCreditedAmount);
}

type CreditNoteRow = { uuid: string; invoice_uuid: string; number: number; date_credit: string; total: string; entry_id: number | null };
const CREDIT_NOTE_COLUMNS = 'uuid, invoice_uuid, number, date_credit::text AS date_credit, total::text AS total, entry_id';
const toCreditedAmount = (row: CreditNoteRow): CreditedAmount => ({
  uuid: row.uuid,
  number: formatCreditNoteNumber(row.number),
  date: row.date_credit,
  total: toFixedAmount(row.total),
  entryId: row.entry_id,
});

/** What settles or adds to invoices' open amounts, as the JSON arrays of `settlementColumns`. */
type SettlementsRow = { payments: PaymentWithAccountRow[] | null; credits: CreditNoteRow[] | null; charges: ChargeRow[] | null };

/**
 * Three output columns (`payments`, `credits`, `charges`): what settles or adds to the open amounts
 * of the invoices whose uuid satisfies `invoices` (SQL over `invoice_uuid`, `$1` the instance): their
 * payments (with the bank accounts, through accounting's published view), credit notes and charges,
 * each kind one JSON array with every decimal and time as text, in the order of the separate reads
 * above.
 */
const settlementColumns = (invoices: string) =>
  `(SELECT json_agg(x ORDER BY x.date_paid, x.id) FROM (SELECT ${PAYMENT_COLUMNS}, id, ${BANK_ACCOUNT_COLUMNS}
      FROM ${PAYMENTS_WITH_ACCOUNTS} WHERE p.instance_id = $1 AND ${invoices}) x) AS payments,
   (SELECT json_agg(x ORDER BY x.date_credit, x.number) FROM (SELECT ${CREDIT_NOTE_COLUMNS}
      FROM credit_note WHERE instance_id = $1 AND ${invoices}) x) AS credits,
   (SELECT json_agg(x ORDER BY x.date_charge, x.id) FROM (SELECT ${CHARGE_COLUMNS}
      FROM invoice_charge WHERE instance_id = $1 AND ${invoices}) x) AS charges`;

/** `rows` of `settlementColumns` converted and grouped by invoice uuid. */
function settlementsByInvoice(rows: readonly SettlementsRow[]) {
  return {
    payments: byInvoice(rows.flatMap((row) => row.payments ?? []), toPayment),
    credits: byInvoice(rows.flatMap((row) => row.credits ?? []), toCreditedAmount),
    charges: byInvoice(rows.flatMap((row) => row.charges ?? []), toCharge),
  };
}

/**
 * What settles or adds to the invoices' open amounts (`settlementColumns`), in one statement
 * (decision 037), by invoice uuid: one row, each kind read for all the invoices at once (= ANY); per
 * invoice (150 subqueries for a page of 50) the statement took 0.73 ms in bench:lists.
 */
async function settlementsOfInvoices(tx: Tx, instanceId: string, invoiceUuids: readonly string[]) {
  const rows = invoiceUuids.length ? await tx.query<SettlementsRow>(`SELECT ${settlementColumns('invoice_uuid = ANY($2::uuid[])')}`, [instanceId, invoiceUuids]) : [];
  return settlementsByInvoice(rows);
}

/**
 * Open amount of an invoice in its currency: total + its charges (dunning fees and interest,
 * decision 030) − what its payments (not reversed) settled − its credit notes (decision 027); the
 * total for a pending invoice, 0 for a denied one.
 */
export function openAmountOf(
  invoice: Pick<Invoice, 'status' | 'totals'>,
  payments: readonly InvoicePayment[],
  credits: readonly CreditedAmount[] = [],
  charges: readonly Pick<InvoiceCharge, 'amount'>[] = [],
): string {
  if (invoice.status === InvoiceStatus.denied) return '0.00';
  const settled = payments.filter((p) => p.reversed === null).reduce((sum, p) => sum.plus(toMoney(p.amount)).plus(toMoney(p.fee)).plus(toMoney(p.writeOff)), toMoney(0));
  const credited = credits.reduce((sum, c) => sum.plus(toMoney(c.total)), toMoney(0));
  const charged = charges.reduce((sum, c) => sum.plus(toMoney(c.amount)), toMoney(0));
  return openOf(invoice.totals.total, { charged, settled, credited });
}

/** total + charged − settled − credited, invoice currency, 2 decimals. */
function openOf(total: string, sums: { charged: Money | string; settled: Money | string; credited: Money | string }): string {
  return toFixedAmount(toMoney(total).plus(sums.charged).minus(sums.settled).minus(sums.credited));
}

/**
 * What is open of an invoice in the books' currency (issue 14 §3), from `open` in its currency: the
 * booked receivable (`totalBase`) while nothing changed the total, else `open` × its exchange rate.
 */
export function openInBooks(invoice: { totals: { total: string }; totalBase: string; fxRate: string }, open: string | undefined): string {
  return open === undefined || open === invoice.totals.total ? invoice.totalBase : toFixedAmount(toMoney(open).times(invoice.fxRate));
}

/**
 * What is open of the sent invoices of `companyUuids`, in the books' currency, 2 decimals (the
 * company list's receivable column, issue 18 §2), as rows to be summed per company: as
 * `openAmountOf` then `openInBooks`, in one statement for the page's companies. Invoices with
 * stored totals (migration 0052) are summed per company in SQL: the booked receivable while no
 * payment, credit note or charge moved the open amount, else (total + moved) × the exchange rate,
 * half-up to the cent (PostgreSQL's round, as toFixedAmount). The others come with their lines, are
 * computed here and get their totals stored.
 */
export async function openReceivablesOfCompanies(tx: Tx, instanceId: string, companyUuids: readonly string[]): Promise<{ companyUuid: string; amount: string }[]> {
  if (companyUuids.length === 0) return [];
  type Unstored = Pick<InvoiceRecord, 'uuid' | 'vat_rate' | 'currency_id' | 'fx_rate' | 'date_invoice' | 'row_version'> & {
    lines: TotalsLine[] | null;
    moved: string;
  };
  const rows = await tx.query<{ company_uuid: string; stored: string | null; unstored: Unstored[] | null }>(
    `SELECT i.company_uuid,
            sum(CASE WHEN m.moved = 0 THEN (i.totals->>'totalBase')::numeric
                     ELSE round(((i.totals->>'total')::numeric + m.moved) * i.fx_rate, 2) END)
              FILTER (WHERE i.totals->>'format' = '1')::text AS stored,
            json_agg(json_build_object(
                       'uuid', i.uuid, 'row_version', i.xmin::text, 'vat_rate', i.vat_rate::text, 'currency_id', i.currency_id,
                       'fx_rate', i.fx_rate::text, 'date_invoice', i.date_invoice, 'moved', m.moved::text,
                       'lines', (SELECT json_agg(json_build_object('id', it.id, 'quantity', it.quantity::text, 'price', it.price::text,
                                                                  'discount', it.discount::text, 'discount_abs', it.discount_abs::text,
                                                                  'vat_rate', it.vat_rate::text) ORDER BY it.id)
                                   FROM invoice_item it WHERE it.instance_id = $1 AND it.invoice_uuid = i.uuid)))
              FILTER (WHERE i.totals->>'format' IS DISTINCT FROM '1') AS unstored
       FROM invoice i
      CROSS JOIN LATERAL (
             SELECT COALESCE((SELECT sum(ch.amount) FROM invoice_charge ch WHERE ch.instance_id = $1 AND ch.invoice_uuid = i.uuid), 0)
                  - COALESCE((SELECT sum(p.amount + p.fee + p.write_off) FROM invoice_payment p
                               WHERE p.instance_id = $1 AND p.invoice_uuid = i.uuid AND p.reversed_at IS NULL), 0)
                  - COALESCE((SELECT sum(c.total) FROM credit_note c WHERE c.instance_id = $1 AND c.invoice_uuid = i.uuid), 0) AS moved) m
      WHERE i.instance_id = $1 AND i.status_id = ${InvoiceStatus.sent} AND i.company_uuid = ANY($2::uuid[])
      GROUP BY i.company_uuid`,
    [instanceId, companyUuids],
  );
  const computed: Parameters<typeof storeInvoiceTotals>[2][number][] = [];
  const amounts = rows.flatMap((row) => {
    const own = (row.unstored ?? []).map((invoice) => {
      const totals = totalsToStore(invoice, invoice.lines ?? []);
      computed.push({ uuid: invoice.uuid, version: invoice.row_version, totals });
      const open = toFixedAmount(toMoney(totals.total).plus(invoice.moved));
      return { companyUuid: row.company_uuid, amount: openInBooks({ totals, totalBase: totals.totalBase, fxRate: trimZeros(invoice.fx_rate) }, open) };
    });
    return row.stored === null ? own : [{ companyUuid: row.company_uuid, amount: toFixedAmount(row.stored) }, ...own];
  });
  await storeInvoiceTotals(tx, instanceId, computed);
  return amounts;
}

/** Open amounts (invoice currency) of the invoices, by uuid: one query for the list. */
export async function openInvoiceAmounts(tx: Tx, instanceId: string, invoices: readonly Pick<Invoice, 'uuid' | 'status' | 'totals'>[]): Promise<Map<string, string>> {
  const { payments, credits, charges } = await settlementsOfInvoices(tx, instanceId, invoices.map((invoice) => invoice.uuid));
  return new Map(
    invoices.map((invoice) => [invoice.uuid, openAmountOf(invoice, payments.get(invoice.uuid) ?? [], credits.get(invoice.uuid) ?? [], charges.get(invoice.uuid) ?? [])]),
  );
}

/** The invoice's detail with its payments, credit notes and open amount. */
export type InvoiceWithPayments = Invoice & { openAmount: string; payments: InvoicePayment[]; creditNotes: CreditedAmount[] };

export async function withPayments(tx: Tx, instanceId: string, invoices: readonly Invoice[]): Promise<InvoiceWithPayments[]> {
  return joinSettlements(invoices, await settlementsOfInvoices(tx, instanceId, invoices.map((invoice) => invoice.uuid)));
}

function joinSettlements(invoices: readonly Invoice[], { payments, credits, charges }: ReturnType<typeof settlementsByInvoice>): InvoiceWithPayments[] {
  return invoices.map((invoice) => {
    const own = payments.get(invoice.uuid) ?? [];
    const notes = credits.get(invoice.uuid) ?? [];
    return { ...invoice, payments: own, creditNotes: notes, openAmount: openAmountOf(invoice, own, notes, charges.get(invoice.uuid) ?? []) };
  });
}

/** A listed invoice: as its detail, without `items` when the list was asked without lines. */
export type ListedInvoice = Omit<InvoiceWithPayments, 'items'> & { items?: InvoiceWithPayments['items'] };

/**
 * One page of invoices (documents.service `listInvoicePage`) with their payments, credit notes and
 * open amounts, read in the page's own statement: one round trip for the list's page, where
 * `withPayments` after the page took a second one. `withItems` false: each invoice without `items`;
 * the lines are then read only for invoices whose totals are not stored (decision 042).
 */
export async function listInvoicePageWithPayments(
  tx: Tx,
  instanceId: string,
  filter: InvoiceFilter,
  page: PageRequest,
  withItems = true,
): Promise<{ data: ListedInvoice[]; total: number; totalCapped: boolean; nextCursor: string | null }> {
  const { data, ...rest } = await listInvoicePageWith<SettlementsRow>(
    tx,
    instanceId,
    filter,
    page,
    settlementColumns('invoice_uuid = page.uuid'),
    withItems ? 'all' : 'for-totals',
  );
  const settlements = settlementsByInvoice(data.map(({ extra }) => extra));
  const invoices = joinSettlements(data.map(({ invoice }) => invoice), settlements);
  return { data: withItems ? invoices : invoices.map(({ items: _items, ...invoice }) => invoice), ...rest };
}

export async function getInvoiceWithPayments(tx: Tx, instanceId: string, uuid: string): Promise<InvoiceWithPayments> {
  return (await withPayments(tx, instanceId, [await getInvoice(tx, instanceId, uuid)]))[0]!;
}

/** 400 on `field` unless `value` is a non-negative amount of at most 2 decimals. */
function nonNegative(value: string | null | undefined, field: string): ReturnType<typeof toMoney> {
  if (value == null) return toMoney(0);
  if (!/^\d{1,18}(\.\d{1,2})?$/.test(value)) throw invoicingFieldError('payment_invalid', field, 'must be an amount of 0 or more with at most 2 decimals');
  return toMoney(value);
}

/**
 * Records a payment of a sent invoice (issue 14 §3) in the caller's transaction:
 * - payment entry at `date`: debit the bank account `amount` (and 6940 Bankspesen `fee`), credit
 *   receivable 1100 `amount + fee`;
 * - with `writeOff`, the rest of the open amount in a second entry (`writeOffPostings`: discount on
 *   3800 with the VAT reduction per rate, or difference on 6943), only within the tolerance (400
 *   `amount` beyond it);
 * - the invoice becomes paid (3) when nothing is open; its ledger date is the payment's.
 * An invoice in another currency may be paid in parts: each part settles its share of the
 * receivable at the booked rate, with its own exchange difference against `amountBase` (what reached
 * a bank account in the books' currency; decision 012), and the last part clears the rest to the
 * cent; no fee or write-off on it (400 `fee` / `writeOff`).
 * 400: `amount` above the open amount or 0 without write-off, `fee`, `date` before the invoice was
 * sent, `bankAccount.id` not a balance-sheet account. 409: not sent (pending, denied), already paid
 * (`already_done`), lock date. The invoice row is locked first; the same `token` answers the payment
 * it booked and books nothing (parallel calls included).
 */
export async function recordInvoicePayment(
  tx: Tx,
  instanceId: string,
  userId: string | null,
  uuid: string,
  input: InvoicePaymentInput,
): Promise<{ invoice: InvoiceWithPayments; payment: InvoicePayment; repeated: boolean }> {
  const row = await loadRow(tx, instanceId, uuid, true);
  const ref = formatReferenceNumber(row.id);
  if (input.token) {
    const [done] = await tx.query<{ uuid: string }>('SELECT uuid FROM invoice_payment WHERE instance_id = $1 AND invoice_uuid = $2 AND token = $3', [
      instanceId,
      row.uuid,
      input.token,
    ]);
    if (done) {
      const invoice = await getInvoiceWithPayments(tx, instanceId, row.uuid);
      return { invoice, payment: invoice.payments.find((p) => p.uuid === done.uuid)!, repeated: true };
    }
  }
  if (row.status_id === InvoiceStatus.paid) throw alreadyDone(`invoice ${ref} is already paid`, { status: 'already paid' });
  if (row.status_id !== InvoiceStatus.sent) {
    throw invoicingError('status_not_allowed', `invoice ${ref} is ${row.status_id === InvoiceStatus.pending ? 'pending: send it first' : 'denied'}`, {
      status: `not allowed from ${row.status_id === InvoiceStatus.pending ? 'pending' : 'denied'}`,
    });
  }
  const invoice = toInvoice(row, await itemsOf(tx, instanceId, [row.uuid]));
  const previous = (await selectPayments(tx, instanceId, [row.uuid])).filter((p) => p.reversed_at === null);
  const creditNotes = (await creditNotesOfInvoices(tx, instanceId, [row.uuid])).get(row.uuid) ?? [];
  const credited = creditNotes.reduce((sum, c) => sum.plus(toMoney(c.total)), toMoney(0));
  // Dunning fees and interest charged on the invoice are paid with it (decision 030).
  const charged = ((await chargesOfInvoices(tx, instanceId, [row.uuid])).get(row.uuid) ?? []).reduce((sum, c) => sum.plus(toMoney(c.amount)), toMoney(0));
  const open = toMoney(invoice.totals.total)
    .plus(charged)
    .minus(previous.reduce((sum, p) => sum.plus(settles(p)), toMoney(0)))
    .minus(credited);
  const date = input.date ?? todayInSwitzerland();
  const dateField = input.dateField ?? 'date';
  if (row.sent_entry_id !== null) {
    const sent = await getJournalEntry(tx, instanceId, row.sent_entry_id);
    if (date < sent.dateLedger) {
      throw invoicingFieldError('ledger_date_before_sent', dateField, `the ${dateField === 'date' ? 'payment' : 'ledger'} date must be on or after the date the invoice was sent (${sent.dateLedger})`);
    }
  }
  const fee = nonNegative(input.fee, 'fee');
  const amount = input.amount == null ? open.minus(fee) : nonNegative(input.amount, 'amount');
  if (amount.isNegative()) throw invoicingFieldError('payment_invalid', 'fee', `the fee is more than the open amount ${toFixedAmount(open)}`);
  const covered = amount.plus(fee);
  if (covered.gt(open)) {
    throw invoicingFieldError(
      'payment_invalid',
      'amount',
      `${toFixedAmount(covered)} is more than the open amount ${toFixedAmount(open)} ${invoice.currency} of invoice ${ref}: an overpayment is not booked`,
    );
  }
  const rest = open.minus(covered);
  if (!input.writeOff && covered.isZero()) throw invoicingFieldError('payment_invalid', 'amount', 'must be greater than 0');
  if (input.writeOff && rest.isZero() && covered.isZero()) throw invoicingFieldError('payment_invalid', 'amount', 'must be greater than 0');

  const bankAccountId = input.bankAccountId ?? row.profile_account_id;
  if (bankAccountId == null) throw invoicingError('payment_account_missing', 'the payment profile has no ledger account to book the payment on');
  const [bank] = await listLedgerAccounts(tx, instanceId, { ids: [bankAccountId] });
  const receivable = await controlAccount(tx, instanceId, 'receivable');
  if (!bank || (bank.type.id !== 1 && bank.type.id !== 2) || bank.id === receivable) {
    throw invoicingFieldError('payment_invalid', 'bankAccount.id', bank ? 'book the payment on a bank or cash account (an asset account)' : `ledger account ${bankAccountId} not found`);
  }
  const foreign = invoice.currency !== invoice.baseCurrency;
  if (foreign && !fee.isZero()) {
    throw invoicingFieldError('payment_invalid', 'fee', `fees deducted by the payer are booked on invoices in ${invoice.baseCurrency}; on an invoice in ${invoice.currency} give what reached the bank as amountBase`);
  }
  if (foreign && input.writeOff && !rest.isZero()) {
    throw invoicingFieldError('payment_invalid', 'writeOff', `cash discounts and small differences are written off on invoices in ${invoice.baseCurrency}; an invoice in ${invoice.currency} is paid in parts until nothing is open`);
  }
  if (!foreign && input.amountBase != null && !toMoney(input.amountBase).eq(covered)) {
    throw invoicingFieldError(
      'payment_invalid',
      'amountBase',
      `the document is in ${invoice.baseCurrency}, the currency of the books: it is settled for its amount ${toFixedAmount(covered)}`,
    );
  }
  if (input.writeOff && !rest.isZero()) await checkWriteOffTolerance(tx, instanceId, toFixedAmount(rest), invoice.totals.total, 'amount');
  if (!input.writeOff && rest.gt(0) && input.amount == null) throw invoicingFieldError('payment_invalid', 'amount', 'must be given');

  const partial = !rest.isZero() && !input.writeOff;
  const description = `${partial ? 'Part payment' : 'Payment'} ${ref} ${row.company_name}${input.bankRef ? ` (${input.bankRef})` : ''}`.slice(0, 500);
  let entryId: number | null = null;
  if (!covered.isZero()) {
    let lines: PostingInput[];
    if (foreign) {
      lines = await settlementPostings(tx, instanceId, {
        kind: 'receivable',
        documentAccountId: receivable,
        bankAccountId: bank.id,
        currency: invoice.currency,
        originalAmount: toFixedAmount(covered),
        bookedRate: invoice.fxRate,
        base: invoice.baseCurrency,
        settledBase: input.amountBase,
        // Paid in parts: the last one clears what is left of the receivable in the books' currency.
        bookedBase:
          rest.isZero() && (previous.length > 0 || credited.gt(0))
            ? toFixedAmount(
                toMoney(toBaseAmount(invoice.totals.total, invoice.fxRate))
                  .minus(previous.reduce((sum, p) => sum.plus(toMoney(toBaseAmount(toFixedAmount(settles(p)), invoice.fxRate))), toMoney(0)))
                  .minus(creditNotes.reduce((sum, c) => sum.plus(toMoney(toBaseAmount(c.total, invoice.fxRate))), toMoney(0))),
              )
            : null,
        field: 'amountBase',
      });
    } else {
      lines = [];
      if (!amount.isZero()) lines.push({ accountId: bank.id, direction: 1, amount: toFixedAmount(amount) });
      if (!fee.isZero()) {
        const charges = await chartAccountId(tx, instanceId, WRITE_OFF_ACCOUNTS.bankCharges, invoice.baseCurrency);
        lines.push({ accountId: charges, direction: 1, amount: toFixedAmount(fee), description: 'Fee deducted by the payer' });
      }
      lines.push({ accountId: receivable, direction: -1, amount: toFixedAmount(covered) });
    }
    entryId = await postJournalEntry(tx, instanceId, userId, { dateLedger: date, description, source: 'invoice', sourceRef: row.uuid, lines });
  }
  let writeOffEntryId: number | null = null;
  const writeOff = input.writeOff && !rest.isZero() ? rest : toMoney(0);
  if (!writeOff.isZero()) {
    const label = input.writeOff === 'discount' ? 'Cash discount' : 'Small difference';
    writeOffEntryId = await postJournalEntry(tx, instanceId, userId, {
      dateLedger: date,
      description: `${label} ${ref} ${row.company_name}`.slice(0, 500),
      source: 'invoice',
      sourceRef: row.uuid,
      lines: await writeOffPostings(tx, instanceId, {
        kind: 'receivable',
        type: input.writeOff!,
        documentAccountId: receivable,
        bookingEntryId: row.sent_entry_id,
        amount: toFixedAmount(writeOff),
        base: invoice.baseCurrency,
        description: label,
      }),
    });
  }
  const [inserted] = await tx.query<{ uuid: string }>(
    `INSERT INTO invoice_payment (instance_id, invoice_uuid, date_paid, amount, fee, write_off, write_off_kind, bank_account_id, entry_id, write_off_entry_id, token, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING uuid`,
    [
      instanceId,
      row.uuid,
      date,
      toFixedAmount(amount),
      toFixedAmount(fee),
      toFixedAmount(writeOff),
      writeOff.isZero() ? null : input.writeOff,
      bank.id,
      entryId,
      writeOffEntryId,
      input.token || null,
      userId,
    ],
  );
  if (open.minus(covered).minus(writeOff).isZero()) {
    await tx.query(
      'UPDATE invoice SET status_id = 3, paid_entry_id = $3, ledger_date = $4, bank_ref = COALESCE($5, bank_ref) WHERE instance_id = $1 AND uuid = $2 AND status_id = 2',
      [instanceId, row.uuid, entryId ?? writeOffEntryId, date, input.bankRef?.trim() || null],
    );
  } else if (input.bankRef?.trim()) {
    await tx.query('UPDATE invoice SET bank_ref = $3 WHERE instance_id = $1 AND uuid = $2', [instanceId, row.uuid, input.bankRef.trim()]);
  }
  const answer = await getInvoiceWithPayments(tx, instanceId, row.uuid);
  return { invoice: answer, payment: answer.payments.find((p) => p.uuid === inserted!.uuid)!, repeated: false };
}

/** The counter-entry of an invoice's payment entry, with the invoice's uuid as its source (the return keeps it with the invoice). */
async function counterEntry(tx: Tx, instanceId: string, userId: string | null, entryId: number, date: string, invoiceUuid: string, why: string): Promise<number> {
  const entry = await getJournalEntry(tx, instanceId, entryId);
  const base = await booksCurrency(tx, instanceId);
  return postJournalEntry(tx, instanceId, userId, {
    dateLedger: date,
    description: `${why}: reversal of entry ${entryId}`.slice(0, 500),
    source: 'invoice',
    sourceRef: invoiceUuid,
    lines: entry.entryAccounts.map((line): PostingInput => {
      const direction = (line.direction === 1 ? -1 : 1) as 1 | -1;
      const vat = postingVatInput(line);
      return line.currency !== base
        ? { accountId: line.account.id, direction, currency: line.currency, originalAmount: line.originalAmount, exchangeRate: line.exchangeRate, description: line.description, vat }
        : { accountId: line.account.id, direction, amount: line.amount, description: line.description, vat };
    }),
  });
}

/**
 * Reverses one payment of an invoice (issue 14 §3): a storno entry of its payment entry and of its
 * write-off entry at `date` (default today; 400 `date` before the payment), nothing deleted; the
 * payment is kept, marked reversed; a paid invoice goes back to sent. 404 unknown payment; 409
 * `already_done` when it is reversed already (parallel calls reverse once: the invoice row, then
 * the payment row, are locked first); 409 on or before the lock date.
 */
export async function reverseInvoicePayment(
  tx: Tx,
  instanceId: string,
  userId: string | null,
  paymentUuid: string,
  date?: string | null,
): Promise<InvoiceWithPayments> {
  const [head] = await tx.query<{ invoice_uuid: string }>('SELECT invoice_uuid FROM invoice_payment WHERE instance_id = $1 AND uuid = $2', [instanceId, paymentUuid]);
  if (!head) throw invoicingError('payment_not_found', `payment ${paymentUuid} not found`, { uuid: 'not found' });
  const row = await loadRow(tx, instanceId, head.invoice_uuid, true);
  const [payment] = await tx.query<PaymentRow>(`SELECT ${PAYMENT_COLUMNS} FROM invoice_payment WHERE instance_id = $1 AND uuid = $2 FOR UPDATE`, [instanceId, paymentUuid]);
  if (payment!.reversed_at !== null) throw alreadyDone(`the payment of ${payment!.date_paid} is already reversed`, { uuid: 'already reversed' });
  const on = date ?? todayInSwitzerland();
  if (on < payment!.date_paid) throw invoicingFieldError('payment_invalid', 'date', `the reversal date must be on or after the payment date (${payment!.date_paid})`);
  const ref = formatReferenceNumber(row.id);
  const reversalEntryId = payment!.entry_id === null ? null : await counterEntry(tx, instanceId, userId, payment!.entry_id, on, row.uuid, `Payment ${ref} reversed`);
  const reversalWriteOffId =
    payment!.write_off_entry_id === null ? null : await counterEntry(tx, instanceId, userId, payment!.write_off_entry_id, on, row.uuid, `Write-off ${ref} reversed`);
  await tx.query(
    `UPDATE invoice_payment SET reversed_at = now(), reversed_by = $3, reversal_date = $4, reversal_entry_id = $5, reversal_write_off_entry_id = $6
      WHERE instance_id = $1 AND uuid = $2 AND reversed_at IS NULL`,
    [instanceId, paymentUuid, userId, on, reversalEntryId, reversalWriteOffId],
  );
  if (row.status_id === InvoiceStatus.paid) {
    // Sent again: its ledger date is the sent date again (ledger-checks.ts reads it as such).
    const sentOn = row.sent_entry_id === null ? row.ledger_date : (await getJournalEntry(tx, instanceId, row.sent_entry_id)).dateLedger;
    await tx.query('UPDATE invoice SET status_id = 2, paid_entry_id = NULL, ledger_date = $3 WHERE instance_id = $1 AND uuid = $2', [instanceId, row.uuid, sentOn]);
  }
  return getInvoiceWithPayments(tx, instanceId, row.uuid);
}

/** The invoice of a payment entry (or its reversal): for `invoiceOfEntry`. */
export async function invoiceOfPaymentEntry(tx: Tx, instanceId: string, entryId: number): Promise<string | null> {
  const [row] = await tx.query<{ invoice_uuid: string }>(
    `SELECT invoice_uuid FROM invoice_payment WHERE instance_id = $1
        AND $2 IN (entry_id, write_off_entry_id, reversal_entry_id, reversal_write_off_entry_id) LIMIT 1`,
    [instanceId, entryId],
  );
  return row?.invoice_uuid ?? null;
}
