/**
 * Writing off what a payment left of an open item (issue 14 §3, decision 021): a cash discount
 * (Skonto) with its VAT correction, or a small difference; and the instance's tolerance for both.
 */
import { toFixedAmount, toMoney, type CurrencyCode, type Money } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { invalidField } from './accounting.errors.js';
import { getJournalEntry, type PostingInput } from './journal-entry.service.js';
import { chartAccountId } from './ledger-account.service.js';
import { listVatCodes } from './vat-code.service.js';

/** Accounts of the Swiss SME chart (KMU-Kontenrahmen) a write-off books on; created on first use. */
export const WRITE_OFF_ACCOUNTS = {
  salesDiscount: { number: '3800', name: 'Skonti' },
  purchaseDiscount: { number: '4900', name: 'Skonti, Rabatte, Preisnachlässe' },
  roundingExpense: { number: '6943', name: 'Rundungsaufwand' },
  roundingIncome: { number: '6953', name: 'Rundungsertrag' },
  bankCharges: { number: '6940', name: 'Bankspesen' },
} as const;

export interface WriteOff {
  /** A receivable (sales invoice) or a payable (bill, expense) is written off. */
  kind: 'receivable' | 'payable';
  /** Cash discount (reduces the consideration and its VAT) or small difference (no VAT). */
  type: 'discount' | 'difference';
  /** The account the document is open on: receivables 1100, payables 2000, staff 2250. */
  documentAccountId: number;
  /** The document's booking entry: its VAT codes and rates are what a discount corrects. */
  bookingEntryId: number | null;
  /** What is written off, > 0, in the books' currency. */
  amount: string;
  base: CurrencyCode;
  description: string;
}

/** `total` in parts proportional to `weights`, each to the cent; the cent left goes to the largest weight. */
function allocate(total: Money, weights: readonly Money[]): Money[] {
  const sum = weights.reduce((acc, weight) => acc.plus(weight), toMoney(0));
  const shares = weights.map((weight) => (sum.isZero() ? toMoney(0) : toMoney(toFixedAmount(total.times(weight).dividedBy(sum)))));
  const left = total.minus(shares.reduce((acc, share) => acc.plus(share), toMoney(0)));
  const largest = weights.reduce((best, weight, index) => (weight.gt(weights[best]!) ? index : best), 0);
  if (shares.length) shares[largest] = shares[largest]!.plus(left);
  return shares;
}

/**
 * The postings of a write-off, in the books' currency:
 * - receivable discount: debit 3800 Skonti per VAT rate of the invoice's booking (the amount split
 *   in proportion to each rate's gross) with the rate's reduction code (R81/R26/R38 → Ziffer 235,
 *   MWSTG art. 41; without one, the sales code itself, reversed), debit the rate's output VAT account
 *   with the tax included (amount × rate ÷ (100 + rate)); credit the receivable;
 * - payable discount: debit the liability; credit 4900 and the input VAT account with the bill's own
 *   input code, so the deducted input tax shrinks with the price (MWSTG art. 41);
 * - small difference: receivable: debit 6943 Rundungsaufwand / credit the receivable; payable:
 *   debit the liability / credit 6953 Rundungsertrag; no VAT.
 * A booking without coded postings (before decision 019) gives one uncoded discount posting.
 */
export async function writeOffPostings(tx: Tx, instanceId: string, w: WriteOff): Promise<PostingInput[]> {
  const amount = toMoney(w.amount);
  const receivable = w.kind === 'receivable';
  // Receivable: the write-off is a debit (cost) and the document account is credited; payable the reverse.
  const [costSide, documentSide]: [1 | -1, 1 | -1] = receivable ? [1, -1] : [-1, 1];
  const lines: PostingInput[] = [];
  if (w.type === 'difference') {
    const account = receivable ? WRITE_OFF_ACCOUNTS.roundingExpense : WRITE_OFF_ACCOUNTS.roundingIncome;
    lines.push({ accountId: await chartAccountId(tx, instanceId, account, w.base), direction: costSide, amount: toFixedAmount(amount), description: w.description });
  } else {
    const discountAccount = await chartAccountId(tx, instanceId, receivable ? WRITE_OFF_ACCOUNTS.salesDiscount : WRITE_OFF_ACCOUNTS.purchaseDiscount, w.base);
    const booking = w.bookingEntryId === null ? null : await getJournalEntry(tx, instanceId, w.bookingEntryId);
    // One group per VAT code and rate of the booking: the gross it carried and where its tax went.
    type Group = { code: string; percent: string; gross: Money; taxAccountId: number | null };
    const groups = new Map<string, Group>();
    for (const line of booking?.entryAccounts ?? []) {
      if (!line.vat) continue;
      const key = `${line.vat.code}|${line.vat.percent}`;
      const group = groups.get(key) ?? { code: line.vat.code, percent: line.vat.percent, gross: toMoney(0), taxAccountId: null };
      if (line.vat.role === 'base') group.gross = group.gross.plus(toMoney(line.amount)).plus(toMoney(line.vat.amount).abs());
      if (line.vat.role === 'tax') group.taxAccountId = line.account.id;
      groups.set(key, group);
    }
    const list = [...groups.values()].filter((group) => group.gross.gt(0));
    if (list.length === 0) {
      lines.push({ accountId: discountAccount, direction: costSide, amount: toFixedAmount(amount), description: w.description });
    } else {
      const codes = await listVatCodes(tx, instanceId);
      const byCode = new Map(codes.map((code) => [code.code, code]));
      const shares = allocate(amount, list.map((group) => group.gross));
      list.forEach((group, index) => {
        const share = shares[index]!;
        if (share.isZero()) return;
        const rate = toMoney(group.percent);
        const tax = group.taxAccountId === null || rate.isZero() ? toMoney(0) : toMoney(toFixedAmount(share.times(rate).dividedBy(rate.plus(100))));
        const net = share.minus(tax);
        let code = group.code;
        if (receivable) {
          const own = byCode.get(group.code);
          // Sales get the reduction code of the same rate type (Ziffer 235) when the instance has one.
          const reduction = own?.kind === 'sales' ? codes.find((c) => c.kind === 'reduction' && c.rateType === own.rateType && c.isActive) : undefined;
          if (reduction) code = reduction.code;
        }
        if (!net.isZero()) {
          lines.push({
            accountId: discountAccount,
            direction: costSide,
            amount: toFixedAmount(net),
            description: w.description,
            vat: { code, role: 'base', percent: group.percent, tax: toFixedAmount(tax) },
          });
        }
        if (!tax.isZero()) {
          lines.push({
            accountId: group.taxAccountId!,
            direction: costSide,
            amount: toFixedAmount(tax),
            description: w.description,
            vat: { code, role: 'tax', percent: group.percent, base: toFixedAmount(net) },
          });
        }
      });
    }
  }
  lines.push({ accountId: w.documentAccountId, direction: documentSide, amount: toFixedAmount(amount), description: w.description });
  return lines;
}

export interface PaymentTolerance {
  /** Percent of the document's total, 0–10. */
  percent: string;
  /** Amount in the books' currency, 0–1000. */
  amount: string;
}

/** Without a setting: 2 % (the common Swiss "2 % Skonto innert 10 Tagen") or 5.00. */
export const DEFAULT_PAYMENT_TOLERANCE: PaymentTolerance = { percent: '2.00', amount: '5.00' };

/** The instance's write-off tolerance (decision 021). */
export async function paymentTolerance(tx: Tx, instanceId: string): Promise<PaymentTolerance> {
  const [row] = await tx.query<{ percent: string; amount: string }>(
    'SELECT percent::text AS percent, amount::text AS amount FROM payment_tolerance WHERE instance_id = $1',
    [instanceId],
  );
  return row ? { percent: toFixedAmount(row.percent), amount: toFixedAmount(row.amount) } : DEFAULT_PAYMENT_TOLERANCE;
}

/** Sets the tolerance (400 naming `percent` or `amount` outside 0–10 % / 0–1000). */
export async function setPaymentTolerance(tx: Tx, instanceId: string, userId: string | null, tolerance: PaymentTolerance): Promise<PaymentTolerance> {
  if (toMoney(tolerance.percent).lt(0) || toMoney(tolerance.percent).gt(10)) throw invalidField('percent', 'must be from 0 to 10');
  if (toMoney(tolerance.amount).lt(0) || toMoney(tolerance.amount).gt(1000)) throw invalidField('amount', 'must be from 0 to 1000');
  await tx.query(
    `INSERT INTO payment_tolerance (instance_id, percent, amount, updated_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (instance_id) DO UPDATE SET percent = excluded.percent, amount = excluded.amount, updated_at = now(), updated_by = excluded.updated_by`,
    [instanceId, tolerance.percent, tolerance.amount, userId],
  );
  return paymentTolerance(tx, instanceId);
}

/**
 * Refuses (400 on `field`) a write-off larger than the tolerance: more than `percent` of `total` and
 * more than `amount` (both in the books' currency).
 */
export async function checkWriteOffTolerance(tx: Tx, instanceId: string, writeOff: string, total: string, field: string): Promise<void> {
  const tolerance = await paymentTolerance(tx, instanceId);
  const limit = toMoney(toFixedAmount(toMoney(total).times(toMoney(tolerance.percent)).dividedBy(100)));
  const allowed = limit.gt(toMoney(tolerance.amount)) ? limit : toMoney(tolerance.amount);
  if (toMoney(writeOff).gt(allowed)) {
    throw invalidField(
      field,
      `the rest of ${toFixedAmount(writeOff)} is more than the tolerance (${tolerance.percent} % or ${tolerance.amount}, here ${toFixedAmount(allowed)}): record a part payment instead`,
    );
  }
}
