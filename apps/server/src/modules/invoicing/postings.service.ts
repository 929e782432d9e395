/** Status changes of invoices with their journal entries (spec §4, issue #4 §3, issue 11 §1). */
import {
  Currency,
  InvoiceStatus,
  SALES_CODE_BY_RATE_TYPE,
  VAT_ACCOUNT_NAMES,
  formatReferenceNumber,
  toBaseAmount,
  toFixedAmount,
  toMoney,
  vatAccountsFor,
  vatRateAt,
  vatRateTypeOf,
  type Money,
} from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { invoicingError, invoicingFieldError } from './invoicing.errors.js';
import { alreadyDone } from '../../http/errors.js';
import {
  chartAccountId,
  firstOpenDate,
  reverseJournalEntry,
  controlAccount,
  findVatCodes,
  getJournalEntry,
  postingVatInput,
  postJournalEntry,
  todayInSwitzerland,
  type PostingInput,
  type PostingVatInput,
} from '../accounting/accounting.service.js';
import { recordInvoicePayment, reverseInvoicePayment } from './payments.service.js';
import {
  getInvoice,
  itemsOf,
  loadRow,
  STATUS_NAMES,
  toInvoice,
  type Invoice,
} from './documents.service.js';

export interface StatusChange {
  uuid: string;
  status: number;
  bankRef?: string | null | undefined;
  /** YYYY-MM-DD; default today. */
  ledgerDate?: string | undefined;
  /**
   * sent → paid of an invoice in another currency: what reached the bank in the books' currency,
   * 2 decimals; default total × the invoice's fxRate (no exchange difference).
   */
  amountBase?: string | null | undefined;
}

const ALLOWED: Record<number, number[]> = { 1: [2], 2: [3, 4], 3: [], 4: [] };

/** A signed amount as a posting: positive → `direction`, negative → the other side. */
const signed = (amount: Money, direction: 1 | -1): { amount: Money; direction: 1 | -1 } =>
  amount.isNegative() ? { amount: amount.negated(), direction: (-direction) as 1 | -1 } : { amount, direction };

/** `total` in parts proportional to `weights`, each half-up to the cent; the cent left goes to the largest weight. */
function allocate(total: Money, weights: readonly Money[]): Money[] {
  const sum = weights.reduce((acc, weight) => acc.plus(weight), toMoney(0));
  if (weights.length === 0) return [];
  const shares = weights.map((weight) => (sum.isZero() ? toMoney(0) : toMoney(toFixedAmount(total.times(weight).dividedBy(sum)))));
  const left = total.minus(shares.reduce((acc, share) => acc.plus(share), toMoney(0)));
  const largest = weights.reduce((best, weight, index) => (weight.abs().gt(weights[best]!.abs()) ? index : best), 0);
  shares[largest] = shares[largest]!.plus(left);
  return shares;
}

/**
 * The postings of sending (issue #4 §3, audit §3 and §6; decision 019): debit receivable = total;
 * credit revenue per account and VAT code (each line's chosen account, else the account of its VAT
 * rate; the 5-Rappen rounding goes with the largest revenue); credit output VAT per rate on the
 * account of its code (V81 → 2200 …). The rate is the one in force on the invoice date (a 2023
 * invoice at 7.7 %); each revenue posting is a base line of its code carrying its share of the
 * rate's tax, each VAT posting the code's tax line. An invoice in another currency than the books'
 * posts each line as originalAmount × fxRate (half-up to the cent); what that rounding leaves
 * between debit and credit goes to the largest revenue account in the books' currency, uncoded.
 */
export async function sentPostings(tx: Tx, instanceId: string, invoice: Invoice): Promise<PostingInput[]> {
  const base = invoice.baseCurrency;
  const supplyDate = invoice.dateInvoice;
  const codeOf = (rate: string) => SALES_CODE_BY_RATE_TYPE[vatRateTypeOf(rate) ?? 'standard'];
  const percentOf = (rate: string) => toMoney(rate).times(100).toFixed();
  type Revenue = { accountId: number; rate: string; amount: Money };
  const revenue = new Map<string, Revenue>();
  const defaultRevenue = new Map<string, number>();
  for (const item of invoice.items) {
    const rate = vatRateAt(item.vat ?? invoice.vat, supplyDate);
    let accountId = item.account?.id;
    if (accountId === undefined) {
      accountId = defaultRevenue.get(rate) ?? (await chartAccountId(tx, instanceId, vatAccountsFor(rate).revenue, base));
      defaultRevenue.set(rate, accountId);
    }
    const key = `${accountId}|${rate}`;
    const entry = revenue.get(key) ?? { accountId, rate, amount: toMoney(0) };
    entry.amount = entry.amount.plus(toMoney(item.total));
    revenue.set(key, entry);
  }
  // The largest revenue (first on a tie) takes the rounding differences.
  const largest = [...revenue.values()].reduce<Revenue | undefined>((best, entry) => (best === undefined || entry.amount.gt(best.amount) ? entry : best), undefined);
  if (largest === undefined) throw invoicingFieldError('invoice_empty', 'uuid', 'an invoice without lines cannot be sent');
  const rounding = toMoney(invoice.totals.rounding);

  const foreign = invoice.currency !== base;
  const posting = (accountId: number, amount: Money, direction: 1 | -1, vat: PostingVatInput | null = null): PostingInput => {
    const side = signed(amount, direction);
    return foreign
      ? { accountId, direction: side.direction, currency: invoice.currency, originalAmount: toFixedAmount(side.amount), exchangeRate: invoice.fxRate, vat }
      : { accountId, direction: side.direction, amount: toFixedAmount(side.amount), vat };
  };
  const receivable = await controlAccount(tx, instanceId, 'receivable');
  const lines: PostingInput[] = [posting(receivable, toMoney(invoice.totals.total), 1)];
  const credits: Money[] = [];
  const codes = await findVatCodes(tx, instanceId, [...new Set([...revenue.values()].map((entry) => codeOf(entry.rate)))]);
  for (const vatLine of invoice.totals.vatLines) {
    const entries = [...revenue.values()].filter((entry) => entry.rate === vatLine.rate);
    const shares = allocate(toMoney(vatLine.vat), entries.map((entry) => entry.amount));
    entries.forEach((entry, index) => {
      const amount = entry === largest ? entry.amount.plus(rounding) : entry.amount;
      if (amount.isZero()) return;
      const vat = { code: codeOf(entry.rate), role: 'base' as const, percent: percentOf(entry.rate), tax: toFixedAmount(shares[index]!.abs()) };
      lines.push(posting(entry.accountId, amount, -1, vat));
      credits.push(amount);
    });
    if (toMoney(vatLine.vat).isZero()) continue;
    const code = codeOf(vatLine.rate);
    const fallback = vatAccountsFor(vatLine.rate).vat!;
    const number = codes.get(code)?.accountNumber ?? fallback.number;
    const accountId = await chartAccountId(tx, instanceId, { number, name: VAT_ACCOUNT_NAMES[number] ?? fallback.name }, base, 2);
    lines.push(posting(accountId, toMoney(vatLine.vat), -1, { code, role: 'tax', percent: percentOf(vatLine.rate), base: vatLine.base }));
    credits.push(toMoney(vatLine.vat));
  }
  if (foreign) {
    const debitBase = toMoney(invoice.totalBase);
    const creditBase = credits.reduce((sum, amount) => sum.plus(toMoney(toBaseAmount(toFixedAmount(amount), invoice.fxRate))), toMoney(0));
    const difference = debitBase.minus(creditBase);
    if (!difference.isZero()) {
      const side = signed(difference, -1);
      lines.push({
        accountId: largest.accountId,
        direction: side.direction,
        amount: toFixedAmount(side.amount),
        description: `Rounding of the conversion to ${base}`,
      });
    }
  }
  return lines;
}

/**
 * Changes an invoice's status and posts its journal entry at `ledgerDate` (spec §4, issue #4 §3):
 * pending → sent: see `sentPostings` (receivable 1100; revenue per line account, default by VAT rate
 * 3200/3201/3202/3203; VAT per rate 2200/2201/2202; VAT codes V81/V26/V38/X0 on the postings). Lines take the invoice's currency and fxRate
 * (CHF and 1 for a CHF invoice, spec §9).
 * sent → paid: debit the payment profile's ledger account, credit receivable (bankRef kept); an
 * invoice in another currency with `amountBase` (what the bank received in the books' currency)
 * books the realized exchange difference on 6942/6952 (accounting/settlement.service.ts).
 * sent → denied: the reverse of the sent entry. Paid and denied are dated on or after the sent
 * ledger date (400 on `ledgerDate`). Anything else: 409. The lock date applies (409). Sent is dated
 * on the invoice date unless `ledgerDate` says otherwise.
 * The invoice row is locked first, so parallel identical calls post once: the others answer 409
 * `already_done` ("invoice 000042 is already paid").
 */
export async function changeStatus(tx: Tx, instanceId: string, userId: string | null, change: StatusChange): Promise<Invoice> {
  const row = await loadRow(tx, instanceId, change.uuid, true);
  const from = row.status_id;
  if (from === change.status) {
    // A repeat (double click, retry, a parallel request that won the lock): nothing more to post.
    throw alreadyDone(`invoice ${formatReferenceNumber(row.id)} is already ${STATUS_NAMES[from]}`, { status: `already ${STATUS_NAMES[from]}` });
  }
  if (!ALLOWED[from]?.includes(change.status)) {
    throw invoicingError(
      'status_not_allowed',
      `invoice ${formatReferenceNumber(row.id)} cannot go from ${STATUS_NAMES[from]} to ${STATUS_NAMES[change.status] ?? change.status}: ` +
        'allowed are pending → sent, sent → paid and sent → denied',
      { status: `not allowed from ${STATUS_NAMES[from]}` },
    );
  }
  // Sending books the receivable and the VAT on the invoice date unless told otherwise: the tax
  // claim arises with the invoice (MWSTG art. 40), and the return counts postings by ledger date
  // (a later date declares the invoice late, in the period of that date: decision 020).
  // Otherwise today in Switzerland: from 23:00 UTC the UTC date is still yesterday, which on the
  // night of 31 December would book into the closed year.
  const ledgerDate = change.ledgerDate ?? (change.status === InvoiceStatus.sent ? row.date_invoice : todayInSwitzerland());
  if (from === InvoiceStatus.sent && row.ledger_date && ledgerDate < row.ledger_date) {
    throw invoicingFieldError(
      'ledger_date_before_sent',
      'ledgerDate',
      `the ledger date must be on or after the date the invoice was sent (${row.ledger_date})`,
    );
  }
  const invoice = toInvoice(row, await itemsOf(tx, instanceId, [row.uuid]));
  const ref = formatReferenceNumber(row.id);
  if (change.amountBase != null && change.status !== InvoiceStatus.paid) {
    throw invoicingFieldError('amount_base_unexpected', 'amountBase', 'the amount received is given only when the invoice is paid');
  }
  let entryId: number;
  let column: 'sent_entry_id' | 'denied_entry_id';
  if (change.status === InvoiceStatus.sent) {
    if (invoice.items.length === 0) throw invoicingFieldError('invoice_empty', 'uuid', 'an invoice without lines cannot be sent');
    if (toMoney(invoice.totals.total).lte(0)) throw invoicingFieldError('invoice_empty', 'uuid', 'the invoice total must be greater than 0');
    entryId = await postJournalEntry(tx, instanceId, userId, {
      dateLedger: ledgerDate,
      description: `Invoice ${ref} ${row.company_name}`.slice(0, 500),
      source: 'invoice',
      sourceRef: row.uuid,
      lines: await sentPostings(tx, instanceId, invoice),
    });
    column = 'sent_entry_id';
    await tx.query('UPDATE invoice_item SET currency_id = $3, fx_rate = $4 WHERE instance_id = $1 AND invoice_uuid = $2', [
      instanceId,
      row.uuid,
      Currency[invoice.currency],
      invoice.fxRate,
    ]);
  } else if (change.status === InvoiceStatus.paid) {
    // One path for every payment (issue 14 §3): the open amount paid in full, as a payment row.
    await recordInvoicePayment(tx, instanceId, userId, row.uuid, {
      date: ledgerDate,
      amountBase: change.amountBase,
      bankRef: change.bankRef,
      dateField: 'ledgerDate',
    });
    return getInvoice(tx, instanceId, row.uuid);
  } else {
    const [paid] = await tx.query('SELECT 1 FROM invoice_payment WHERE instance_id = $1 AND invoice_uuid = $2 AND reversed_at IS NULL LIMIT 1', [instanceId, row.uuid]);
    if (paid) {
      throw invoicingError('status_not_allowed', `invoice ${ref} has payments: reverse them before denying it`, { status: 'has payments' });
    }
    const [credited] = await tx.query('SELECT 1 FROM credit_note WHERE instance_id = $1 AND invoice_uuid = $2 LIMIT 1', [instanceId, row.uuid]);
    if (credited) {
      // A credit note already posted part of the reversal: denying would reverse the credited part twice.
      throw invoicingError('status_not_allowed', `invoice ${ref} has credit notes: credit the rest instead of denying it`, { status: 'has credit notes' });
    }
    const sent = await getJournalEntry(tx, instanceId, row.sent_entry_id!);
    entryId = await postJournalEntry(tx, instanceId, userId, {
      dateLedger: ledgerDate,
      description: `Reversal of invoice ${ref} ${row.company_name} (denied)`.slice(0, 500),
      source: 'invoice',
      sourceRef: row.uuid,
      lines: sent.entryAccounts.map((line): PostingInput => {
        const direction = (line.direction === 1 ? -1 : 1) as 1 | -1;
        // The reversal keeps each posting's VAT code and rate: it subtracts from the same figures.
        const vat = postingVatInput(line);
        return line.currency !== invoice.baseCurrency
          ? { accountId: line.account.id, direction, currency: line.currency, originalAmount: line.originalAmount, exchangeRate: line.exchangeRate, description: line.description, vat }
          : { accountId: line.account.id, direction, amount: line.amount, description: line.description, vat };
      }),
    });
    column = 'denied_entry_id';
  }
  await tx.query(
    `UPDATE invoice SET status_id = $3, ${column} = $4, ledger_date = $5, bank_ref = COALESCE($6, bank_ref) WHERE instance_id = $1 AND uuid = $2`,
    [instanceId, row.uuid, change.status, entryId, ledgerDate, change.bankRef?.trim() || null],
  );
  return getInvoice(tx, instanceId, row.uuid);
}

/**
 * The bank reversed the payment of paid invoice `uuid` (camt RvslInd, issue 14 §3): its paid entry
 * is reversed at `date` (the first open day after a lock) and the invoice is sent (open) again, so
 * its detail lists the payment and its reversal. Invoice row locked first. Answers the reversal
 * entry's id, or null when the invoice is not paid: nothing changes then.
 */
export async function reopenInvoicePayment(tx: Tx, instanceId: string, userId: string | null, uuid: string, date: string, reason: string): Promise<number | null> {
  const row = await loadRow(tx, instanceId, uuid, true);
  if (row.status_id !== InvoiceStatus.paid || row.paid_entry_id === null) return null;
  const on = await firstOpenDate(tx, instanceId, date);
  // The payment the bank reversed is the one booked by that entry; reversing it (decision 021)
  // posts the storno, marks the payment reversed and makes the invoice sent again.
  const [payment] = await tx.query<{ uuid: string }>(
    'SELECT uuid FROM invoice_payment WHERE instance_id = $1 AND invoice_uuid = $2 AND entry_id = $3 AND reversed_at IS NULL',
    [instanceId, uuid, row.paid_entry_id],
  );
  if (payment) {
    const reversed = await reverseInvoicePayment(tx, instanceId, userId, payment.uuid, on);
    return reversed.payments.find((p) => p.uuid === payment.uuid)?.reversed?.entryId ?? null;
  }
  const entryId = await reverseJournalEntry(tx, instanceId, userId, row.paid_entry_id, {
    date: on,
    description: `Invoice ${formatReferenceNumber(row.id)}: ${reason}: reversal of entry ${row.paid_entry_id}`,
    source: 'invoice',
  });
  await tx.query('UPDATE invoice SET status_id = $3, paid_entry_id = NULL WHERE instance_id = $1 AND uuid = $2', [instanceId, uuid, InvoiceStatus.sent]);
  return entryId;
}
